// A whole training run costed by the Cartesian-product evaluator
// (training_run/cartesian_costs.hpp) as the results store keeps it:
// `train-cost --evaluator cartesian --db` and a sweep's `evaluator:
// cartesian`. The same point as a searched run's (point_record.hpp,
// fill_training_run_results): its totals and samples in training_runs, the
// run's last sample's layer-phases in results, and per-phase totals; what
// differs is where each layer-phase's figures come from:
//   mapping         the array's one-line description (cartesian_array_text):
//                   the dataflow is the array's, nothing is searched
//   cycles, energy  the evaluator's (slowest PE, rounded up; priced parts)
//   performed_macs  the multiplies issued, used or not (SCNN §III)
//   effectual_macs  the products used (the MACs the densities leave)
//   imbalance       the slowest PE's cycles over the mean PE's
//   utilization     used products per multiplier-cycle
//   energy          by the components price_cartesian charges: the PE array's
//                   MAC, the innermost level (operand reads and accumulator
//                   updates), the outermost (compulsory off-chip traffic),
//                   each network (its transfers) and each component's leakage
// The point's coordinates (dataflow "cartesian", objective and search "none", budget 0,
// no evaluations) are set here too; the caller's are its architecture,
// network, batch, sparsity and index.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/architecture.hpp"
#include "store/store_records.hpp"
#include "training_run/cartesian_costs.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

// "cartesian_product 8x8 PEs x 4 sample tiles, F 4 x I 4, 32 banks,
// split_filters tiling, predictor": one line, the mapping text of every
// layer-phase of a Cartesian-product point.
// With random zeros (CartesianZeros), ", random zeros" at the end.
std::string cartesian_array_text(const CartesianArray& array, CartesianZeros zeros);

// Precondition: arch.cartesian is set and `costs` are
// cartesian_problem_costs(run, ...) on it. Throws std::overflow_error when
// the run's cycles do not fit in 64 bits (integrate_training_run).
void fill_cartesian_run_results(PointRecord& record, const Architecture& arch,
                                const NetworkTraining& training, const TrainingRunPlan& run,
                                const std::vector<CartesianProblemCost>& costs,
                                CartesianZeros zeros, std::int64_t samples);

}  // namespace trainloop
