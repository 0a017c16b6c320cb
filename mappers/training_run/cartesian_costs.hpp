// A training run's problems evaluated by the Cartesian-product evaluator
// (cartesian/cartesian_product.hpp, cartesian/cartesian_energy.hpp) instead of searched
// as loop nests: `trainloop train-cost --evaluator cartesian` on an
// architecture with a `cartesian_product:` section. Each distinct problem of
// the plan is one layer-phase at its densities; its cost is what the
// integration (training_run.hpp) adds up, so whole-run totals, the dense
// baseline and the reduced computation come out as they do for the loop nest.
//
// The problem's first layer-phase stands for every layer-phase that shares it
// (same iteration space, phase and densities: the plan's deduplication); a
// layer whose padding alone differs would be evaluated with the first one's.
// Cycles are the slowest PE's, rounded up, or the outermost level's where its
// bandwidth needs longer for the layer-phase's compulsory words; the workload
// spread is not computed (zero).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "arch/arch_model.hpp"
#include "arch/cartesian_array.hpp"
#include "cartesian/cartesian_energy.hpp"
#include "cartesian/cartesian_product.hpp"
#include "problem/training_problems.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

// One distinct problem as the Cartesian-product evaluator costs it.
struct CartesianProblemCost {
    ProblemCost cost;        // what the integration adds up
    CartesianCost counts;    // products, cycles, reads (the whole minibatch)
    CartesianEnergy energy;  // by part; sums to cost.energy_pj
};

// A layer-phase's cycles as the integration adds them: the slowest PE's
// expected cycles rounded up (rounding noise of 1e-9 ignored); nullopt when
// they do not fit in 64 bits.
std::optional<std::int64_t> cartesian_whole_cycles(double cycles);

// cartesian_whole_cycles of layer `layer`'s `phase`; throws SpecError (on
// --batch, naming the layer-phase) when they do not fit in 64 bits.
std::int64_t cartesian_layer_phase_cycles(double cycles, std::string_view layer, Phase phase);

// One layer-phase on the array, priced: its cycles are the slowest PE's or,
// where the outermost level's bandwidth (read, write or shared, per instance)
// needs longer for the compulsory off-chip words, that level's (the loop
// nest's bandwidth bound, eval/evaluation.cpp; a lower bound of the memory's
// time, as the words are); its energy over those cycles (price_cartesian).
// Throws SpecError as cartesian_layer_phase_cycles.
CartesianProblemCost cartesian_layer_phase_cost(const CartesianCost& counts,
                                                const CartesianOffchip& offchip,
                                                std::string_view layer, Phase phase,
                                                const CartesianArray& array, std::int64_t batch,
                                                const ArchModel& arch);

// Throws SpecError naming the layer when one is neither a conv nor an fc
// layer (the evaluator convolves planes), or its cycles do not fit in 64 bits.
std::vector<CartesianProblemCost> cartesian_problem_costs(const TrainingRunPlan& plan,
                                                          const NetworkTraining& training,
                                                          const CartesianArray& array,
                                                          const ArchModel& arch, std::int64_t batch,
                                                          CartesianZeros zeros);

// What integrate_training_run takes: each problem's `cost`.
std::vector<ProblemCost> integrated_costs(const std::vector<CartesianProblemCost>& problems);

}  // namespace trainloop
