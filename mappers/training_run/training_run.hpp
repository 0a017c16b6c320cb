// The cost of a whole training run (`trainloop train-cost`): time and
// energy integrated over a sparsity profile's density schedules from
// iteration 0 to N, next to dense training on the same architecture, and the
// fraction of the run's MACs the sparsity removes (Eager Pruning's
// "reduced computation", RC: Zhang et al., ISCA 2019, Table 5).
//
// Three steps, the expensive middle one separate so that the other two stay
// pure and testable:
//   plan_training_run       samples the schedules (schedule_samples.hpp)
//                           and lists every distinct problem of the run —
//                           iteration space, phase and densities — once,
//                           over all samples, plus the dense problems of the
//                           baseline; per sample, each layer-phase's problem;
//   map_network             (network_mapper.hpp) searches each distinct
//                           problem once: as_network_plan() gives it the
//                           run's problems;
//   integrate_training_run  Σ over samples of weight × (Σ over layer-phases
//                           of the problem's cost): one training iteration
//                           is one minibatch's fw, bw and wu of every layer,
//                           run one after another as in `map`'s step total
//                           (or, with the phases on separate units, as
//                           long as the slowest phase: step_cycles()).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "network/network_mapper.hpp"
#include "training_run/schedule_samples.hpp"

namespace trainloop {

struct TrainingRunPlan {
    std::int64_t iterations = 0;
    PhaseUnits phase_units = PhaseUnits::shared;  // the architecture's: how phases add up
    std::vector<RunSample> samples;
    // The mapped layer-phases, by layer (network order) then phase; the same
    // list in every sample. `problem` is the dense baseline's problem.
    std::vector<PlannedLayerPhase> layer_phases;
    std::vector<std::int64_t> layer_phase_macs;  // per layer-phase
    // Per sample, per layer-phase: the index of its problem.
    std::vector<std::vector<std::size_t>> sample_problems;
    // Every distinct problem of the run (the samples' and the dense
    // baseline's), in order of first appearance, with their mapspaces.
    std::vector<PlannedProblem> problems;
    std::vector<Mapspace> mapspaces;
    std::vector<std::size_t> mapspace_problem;
    std::size_t largest_mapspace = 0;

    // How many distinct problems the samples have (the baseline's not counted
    // unless a sample shares them).
    std::size_t sparse_states() const;
};

// Whether a plan's problems get their mapspaces: a run costed without a
// search (the Cartesian-product evaluator, cartesian_costs.hpp) needs none,
// and building them took 83 % of such a run's instructions (LeNet, callgrind).
enum class PlanMapspaces { build, none };

// Throws SpecError when a layer's mapspace cannot be built (the message
// names the layer). `sparsity` gives the densities of network `network`;
// `iterations` >= 1 and `samples` >= 1 (std::invalid_argument otherwise).
// With PlanMapspaces::none the plan has no mapspaces (every problem's
// `mapspace` is 0) and is not for searching.
TrainingRunPlan plan_training_run(const ArchModel& arch, const NetworkTraining& training,
                                  const std::vector<Phase>& phases,
                                  const MapspaceConstraints& constraints,
                                  const SparsityProfile& sparsity, std::string_view network,
                                  std::int64_t iterations, std::int64_t samples,
                                  PlanMapspaces mapspaces = PlanMapspaces::build);

// The run's problems as one network plan for map_network (no layer-phases:
// its per-layer tables and totals stay empty, its searches follow
// plan.problems). Copies the mapspaces.
NetworkMapPlan as_network_plan(const TrainingRunPlan& plan);

// The plan of one sample's training iteration (nullopt: the dense
// baseline's): its layer-phases point into the run's problems, so
// collect_layer_results (network_mapper.hpp) reads that iteration's layers
// from the run's searches. Without mapspaces: it is not for searching.
NetworkMapPlan sample_network_plan(const TrainingRunPlan& plan, std::optional<std::size_t> sample);

// The PEs' work spread over its mean (imbalance/load_imbalance.hpp,
// Chen et al. 2024 Fig. 18): as the mapping partitions the work, after
// Chen et al.'s coarse step, and after both of their steps.
struct WorkloadSpread {
    double partitioned = 0;
    double coarse = 0;
    double two_level = 0;

    // Accumulates `weight` × `s` (for a weighted mean).
    void add(const WorkloadSpread& s, double weight) {
        partitioned += weight * s.partitioned;
        coarse += weight * s.coarse;
        two_level += weight * s.two_level;
    }
    // This sum of weighted spreads over their total weight (none: zero).
    WorkloadSpread mean_over(double total_weight) const {
        if (total_weight <= 0) return {};
        return {partitioned / total_weight, coarse / total_weight, two_level / total_weight};
    }
};

// What one distinct problem costs per training iteration (its best mapping).
struct ProblemCost {
    std::int64_t cycles = 0;
    double energy_pj = 0;
    double offchip_words = 0;  // eval/evaluation.hpp offchip_words()
    WorkloadSpread spread;
};

// The best mapping of every searched problem; nullopt when some search
// found none (map_network's result then names it).
std::optional<std::vector<ProblemCost>> problem_costs(const NetworkMapResult& result);

// One sample's training iteration and what the run charges for it.
struct SampleCost {
    RunSample sample;
    std::int64_t step_cycles = 0;  // one iteration
    double step_energy_pj = 0;
    double step_effectual_macs = 0;  // sparse/effectual_macs.hpp: from the densities
    double step_offchip_words = 0;
    WorkloadSpread step_spread;  // the layer-phases', weighted by their effectual MACs
    std::size_t new_states = 0;  // problems first met at this sample
};

struct TrainingRunCost {
    std::int64_t iterations = 0;
    std::vector<SampleCost> samples;
    std::int64_t total_cycles = 0;  // Σ weight × step cycles
    double total_energy_pj = 0;
    std::int64_t dense_step_cycles = 0;  // the baseline's iteration
    double dense_step_energy_pj = 0;
    std::int64_t dense_total_cycles = 0;  // iterations × dense step
    double dense_total_energy_pj = 0;
    double total_offchip_words = 0;  // Σ weight × step off-chip words
    double dense_step_offchip_words = 0;
    double dense_total_offchip_words = 0;
    WorkloadSpread spread;      // the samples', weighted by their effectual MACs
    double total_macs = 0;      // iterations × MACs of one iteration
    double effectual_macs = 0;  // Σ weight × step effectual MACs
    std::size_t sparse_states = 0;
    std::size_t problems = 0;  // distinct problems mapped (baseline included)

    // 1 − effectual / all MACs of the run (Eager Pruning's RC).
    double macs_removed_fraction() const {
        return total_macs > 0 ? 1.0 - effectual_macs / total_macs : 0.0;
    }
    double speedup() const {
        return total_cycles > 0 ? double(dense_total_cycles) / double(total_cycles) : 0.0;
    }
    double energy_ratio() const {
        return dense_total_energy_pj > 0 ? total_energy_pj / dense_total_energy_pj : 0.0;
    }
};

// Pure. Precondition: costs.size() == plan.problems.size(). Throws
// std::overflow_error when a cycle total does not fit in 64 bits.
TrainingRunCost integrate_training_run(const TrainingRunPlan& plan,
                                       std::span<const ProblemCost> costs);

}  // namespace trainloop
