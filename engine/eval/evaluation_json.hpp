// The JSON form of an evaluation (a contract for scripts, `trainloop eval
// --format json`, and later `map` and the results database):
//   {"layer", "phase", "macs", "cycles", "compute_cycles", "bottleneck",
//    "utilization", "energy_pj", "area_um2", "area_breakdown": {component: µm²},
//    "energy_breakdown": {component: pJ},            // sums to energy_pj
//    "energy_by_tensor": {tensor | "compute" | "leakage": pJ},
//    "energy_by_action": {action: pJ},
//    "level_cycles": {level: cycles},
//    "accesses": {level: {tensor: {"tile", "reads", "fills", "updates",
//                                  "instances", "stored_words", "metadata_*",
//                                  "skipped_reads", "gated_reads",
//                                  "skipped_updates", "gated_updates"}}},
//                                                    // totals over instances
//    "mapping": <mapping_to_json>,
//    "storage_actions": [{"level", "tensor", "action": "skipping" | "gating",
//                         "condition", "condition_tile_elements", "kept"}]}
//                                  // sparse, with storage-level entries only
// Tensor names are the phase's (w, x, y / w, dx, dy / dw, x, dy) unless
// `space_names` overrides them per data space (Timeloop import uses
// Weights, Inputs, Outputs).
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "arch/architecture.hpp"
#include "eval/evaluation.hpp"

namespace trainloop {

nlohmann::json evaluation_to_json(
    const Evaluation& evaluation, const Architecture& arch, const ArchModel& model,
    const PhaseProblem& problem, const Mapping& mapping,
    const std::optional<std::array<std::string, 3>>& space_names = std::nullopt);

// "DRAM", "GLB", ..., "MAC", then the network names: the components of an
// EnergyBreakdown, in index order.
std::string component_name(const Architecture& arch, std::size_t component);

}  // namespace trainloop
