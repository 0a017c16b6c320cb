// `map --export timeloop DIR`: each layer-phase's best mapping written as
// timeloop-model's input files into DIR/<layer>_<phase>/.
#pragma once

#include <ostream>

#include "map_options.hpp"
#include "map_report.hpp"
#include "network/network_mapper.hpp"

namespace trainloop::cli {

// Before searching: refuses (SpecError) to overwrite earlier exports unless
// --force, and an export kind other than `timeloop`.
void check_export_target(const MapOptions& o, const NetworkTraining& training,
                         const NetworkMapPlan& plan);

// One directory per layer-phase; what Timeloop cannot express is a warning
// on standard error; a line saying what was written goes to `out`.
void export_all(const MapRun& run, std::ostream& out);

}  // namespace trainloop::cli
