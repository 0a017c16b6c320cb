// What `trainloop map` prints: the text table and the JSON document of a
// network's best mappings and totals, the lines printed before the search
// (constraints, mapspace size) and after it (search summary), and why no
// mapping was found.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "arch/arch_model.hpp"
#include "arch/architecture.hpp"
#include "constraints/mapping_constraints.hpp"
#include "map_options.hpp"
#include "mapspace/dataflow.hpp"
#include "network/network_mapper.hpp"

namespace trainloop::cli {

// Everything a report of one map run reads.
struct MapRun {
    const MapOptions& options;
    const Architecture& arch;
    const ArchModel& model;
    const Network& network;
    const NetworkTraining& training;
    const NetworkMapPlan& plan;
    const NetworkMapResult& result;
    std::optional<Dataflow> dataflow;
    const MappingConstraints& constraints;
    bool arch_has_constraints = false;  // the architecture file's own section
};

// "1,234" for counts a table can hold, "1.23e+19" beyond.
std::string big_count(double value);
// µJ: grouped whole µJ from 1 mJ up, else four significant digits.
std::string microjoules(double pj);

// "constraints (architecture + FILE): ...\n", or empty when there are none.
std::string constraints_line(const MapRun& run);
// The size of the largest problem's mapspace, per axis.
std::string mapspace_line(const MapRun& run);
// Problems searched, layer-phases, time and evaluation rate.
std::string summary_line(const MapRun& run);
// How many distinct problems' searches converged (SearchResult::converged).
std::string convergence_line(const MapRun& run);
// A note when layer-phases leave part of an array axis idle that imperfect
// factors would fill (idle_axis_hint), naming the options that would; empty
// when none do or the run pads every dimension it can.
std::string idle_axis_line(const MapRun& run);

std::string map_to_text(const MapRun& run);
nlohmann::json map_to_json(const MapRun& run);
// The search's settings, keys of `map` and `train-cost` JSON alike: dataflow,
// objective, search, budget, until_converged, seed.
nlohmann::json search_settings_json(const MapOptions& o, const std::optional<Dataflow>& dataflow);

// The located error when some layer-phase has no valid mapping: why the
// mappings were rejected, or the constraint that left the mapspace empty.
[[noreturn]] void throw_no_mapping(const MapRun& run);

}  // namespace trainloop::cli
