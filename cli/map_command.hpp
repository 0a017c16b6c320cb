// `trainloop map`: find the best mapping of every MAC layer's training phases
// of a network on an architecture (mappers/network/network_mapper.hpp), and
// report them per layer and phase with totals per phase and per training
// step. Text (a table, then totals and the search statistics) or JSON:
//   {"network", "arch", "batch", "phases", "dataflow", "objective", "search",
//    "budget", "until_converged", "seed", "bypass", "imperfect_factors",
//    "imperfect_windows",
//    "mapspace": {largest problem's size per axis},
//    "layers": [{"name", "phases": {"fw": {"mapping": <mapping_to_json>,
//                "cycles", "energy_pj", "macs", "pj_per_mac", "utilization",
//                "evaluations", "valid", "reused", "converged"[, "search_rounds"]
//                [, "search_units", "search_units_near_best"][, "lower_bound",
//                "optimality_gap"], "offchip_words"[, with --sparsity:
//                "effectual_macs", "imbalance_cycles", "imbalance_pct",
//                "workload_stddev", "workload_stddev_coarse",
//                "workload_stddev_two_level"][, "pareto"]}, ...}}, ...],
//    "totals": {"fw": {"cycles", "energy_pj", "macs", "offchip_words"}, "bw", "wu",
//               "step" (only when all three phases are mapped)},
//    "searched_problems", "layer_phases", "evaluations"}
// No timings in the JSON: the same command gives the same JSON whatever the
// thread count. Progress goes to standard error (`--quiet` silences it). A
// layer-phase without a valid mapping is a user error (exit 2) that names it
// and why the mappings tried were rejected. `--db FILE` also writes the run to
// a results database (mappers/sweep/map_run_record.hpp, docs/results_db.md).
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_map_command(CLI::App& app);

}  // namespace trainloop::cli
