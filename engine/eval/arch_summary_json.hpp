// The parameters of an architecture as a JSON object, for the results
// database (`architectures.summary`, docs/results_db.md) and the reports that
// compare proposals side by side: the parsed values with every default
// applied (word widths, instances, formats, skipping, balancing), so a reader
// never re-implements the parser. Areas are ArchModel's: every instance.
#pragma once

#include <nlohmann/json.hpp>

#include "arch/arch_model.hpp"
#include "arch/architecture.hpp"

namespace trainloop {

// {"name", "description", "source", "clock_ghz", "pe_array": {...},
//  "levels": [...], "networks": [...], "sparse": {...}, "dense",
//  "area_um2", "area_breakdown": {component: µm²}, "component_library"}
nlohmann::json architecture_summary_json(const Architecture& arch, const ArchModel& model);

}  // namespace trainloop
