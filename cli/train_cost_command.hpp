// `trainloop train-cost`: the time and energy of a whole training run under
// a sparsity profile's density schedules, iteration 0 to --iterations,
// beside dense training on the same architecture, and the fraction of the
// run's MACs the sparsity removes (mappers/training_run/training_run.hpp).
// Takes `map`'s options (map_search_options.hpp) plus --sparsity (required),
// --iterations and --samples. Text: the samples table and the totals. JSON:
//   {"network", "arch", "batch", "sparsity", "phases", "dataflow",
//    "objective", "search", "budget", "seed", "iterations", "samples_requested",
//    "total_cycles", "total_energy_pj", "total_seconds", "dense_total_cycles",
//    "dense_total_energy_pj", "dense_total_seconds", "dense_step": {"cycles",
//    "energy_pj", "offchip_words"}, "total_offchip_words",
//    "dense_total_offchip_words", "workload_stddev", "workload_stddev_coarse",
//    "workload_stddev_two_level", "speedup", "energy_ratio",
//    "total_macs", "effectual_macs",
//    "macs_removed_fraction", "distinct_states", "problems_mapped",
//    "evaluations", "samples": [{"iteration", "begin", "end", "weight",
//    "exact", "step_cycles", "step_energy_pj", "step_effectual_macs",
//    "step_offchip_words", "step_workload_stddev", "step_workload_stddev_coarse",
//    "step_workload_stddev_two_level", "new_states"}, ...], "evaluator"}
// --evaluator names one of the registry's evaluators (mappers/evaluator/):
// with one that searches nothing (cartesian: evaluator/cartesian_evaluator.hpp)
// the search settings are left out, the workload spreads too when it does not
// compute them, and its own keys ("cartesian_product": the array) are added. Progress (distinct
// states mapped) on standard error;
// `--quiet` silences it.
// `--db FILE` also writes the run to a results database, as a sweep's
// `iterations:` point (mappers/sweep/map_run_record.hpp).
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_train_cost_command(CLI::App& app);

}  // namespace trainloop::cli
