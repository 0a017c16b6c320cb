// Mapping a whole network: the best mapping of every MAC layer's training
// phases on one architecture (`trainloop map --workload NET`).
//
// Two steps, both pure (no printing):
//   plan_network_mapping  lists the layer-phases to map and groups identical
//                         problems — the same iteration space (bounds, stride,
//                         dilation) in the same phase with the same densities
//                         gives the same search result, so ResNet's repeated blocks are searched
//                         once; builds one Mapspace per distinct iteration
//                         space (it does not depend on the phase);
//   map_network           searches every distinct problem once, in the order
//                         of first appearance, and copies each best candidate
//                         to the layer-phases that share the problem; sums
//                         cycles and energy per phase and per training step.
// Deterministic: every search gets the same seed and the search itself does
// not depend on the thread count; only a time budget makes results vary.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bounds/lower_bound.hpp"
#include "mapspace/mapspace.hpp"
#include "problem/training_problems.hpp"
#include "search/search.hpp"
#include "sparse/phase_densities.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

// One layer-phase to map: the layer (index into NetworkTraining::layers), the
// phase, and the distinct problem that stands for it.
struct PlannedLayerPhase {
    std::size_t layer = 0;
    Phase phase = Phase::fw;
    std::size_t problem = 0;  // index into NetworkMapPlan::problems
};

// A distinct problem: the first layer-phase that has it (its PhaseProblem)
// and how many layer-phases share it.
struct PlannedProblem {
    PhaseProblem problem;
    // The phase's densities, when the network is mapped with a sparsity profile.
    std::optional<PhaseDensities> densities;
    std::size_t mapspace = 0;  // index into NetworkMapPlan::mapspaces
    std::size_t layer_phases = 0;

    // Whether a layer-phase is this problem: same iteration space (bounds,
    // stride, dilation), phase and densities (with their models).
    bool is(const PhaseProblem& other, const std::optional<PhaseDensities>& other_densities) const;
};

struct NetworkMapPlan {
    std::vector<PlannedLayerPhase> layer_phases;  // by layer (network order), then phase
    PhaseUnits phase_units = PhaseUnits::shared;  // the architecture's: how phases add up
    std::vector<PlannedProblem> problems;         // in order of first appearance
    std::vector<Mapspace> mapspaces;              // one per distinct iteration space
    std::vector<std::size_t> mapspace_problem;    // per mapspace: its first problem
    std::size_t largest_mapspace = 0;             // by MapspaceSize::total()
};

// Throws SpecError when a layer's mapspace cannot be built (e.g. the dataflow
// spreads a dimension the layer does not have); the message names the layer.
// `phases`: the phases to map (a layer without a bw phase has none to map).
// `sparsity` (may be null: dense) gives each layer-phase its densities, read
// for network `network` at training iteration `iteration`; identical
// problems are then also those with the same densities and density models.
// The index of the mapspace with the most mappings (MapspaceSize::total()).
std::size_t largest_mapspace_index(const std::vector<Mapspace>& mapspaces);

NetworkMapPlan plan_network_mapping(const ArchModel& arch, const NetworkTraining& training,
                                    const std::vector<Phase>& phases,
                                    const MapspaceConstraints& constraints,
                                    const SparsityProfile* sparsity = nullptr,
                                    std::string_view network = {},
                                    std::int64_t iteration = kFinalIteration);

struct NetworkMapOptions {
    SearchOptions search;  // per distinct problem; its progress callback is not used
    // Seconds for the whole network, shared out over the distinct problems
    // still to search (each gets the time left / the problems left); 0: none.
    // Applies on top of search.budget.max_seconds.
    double time_budget_seconds = 0;
    // Stop at the first problem without a valid mapping (the result then
    // names it in `failure` and holds only the problems searched so far).
    bool stop_at_failure = true;
    // The architecture's own `constraints:` (not a constraints file's, not the
    // dataflow): what the lower bound may assume of every mapping on it.
    MappingConstraints architecture_constraints;
};

struct NetworkMapProgress {
    std::size_t layer_phases_done = 0;
    std::size_t layer_phases_total = 0;
    std::size_t problems_done = 0;
    std::size_t problems_total = 0;
    std::int64_t evaluations = 0;  // all searches so far, the current one included
    double seconds = 0;            // since map_network started
    double fraction_done = 0;      // of the whole run (each distinct problem weighs the same)
    // The objective value (SearchProgress::best_objective) of the best valid
    // mapping found so far for the problem being searched; 0: none yet.
    double best_objective = 0;
};
using NetworkMapProgressFn = std::function<void(const NetworkMapProgress&)>;

struct LayerPhaseResult {
    Phase phase = Phase::fw;
    std::size_t problem = 0;  // index into NetworkMapResult::searches
    std::int64_t macs = 0;
    std::optional<Candidate> best;  // nullopt: no valid mapping
    // MACs / (cycles × MAC units) of the best mapping (as evaluate() computes it).
    double utilization = 0;
    // Whether an earlier layer-phase with the same problem was searched instead.
    bool reused = false;
};

struct LayerResult {
    std::string name;
    std::size_t layer = 0;                 // index into NetworkTraining::layers
    std::vector<LayerPhaseResult> phases;  // in phase order, only phases mapped
};

struct CostTotal {
    std::int64_t cycles = 0;  // layers run one after another
    double energy_pj = 0;
    std::int64_t macs = 0;
    double offchip_words = 0;  // eval/evaluation.hpp offchip_words()
};

struct ProblemSearch {
    std::string layer;  // the first layer with this problem
    Phase phase = Phase::fw;
    std::size_t layer_phases = 0;
    SearchResult result;
    // What no mapping of this problem can beat (bounds/lower_bound.hpp); dense
    // problems only (nullopt with densities below 1).
    std::optional<CostLowerBound> bound;
};

struct NetworkMapResult {
    std::vector<LayerResult> layers;                  // network order; empty on failure
    std::vector<ProblemSearch> searches;              // per distinct problem searched
    PerPhase<std::optional<CostTotal>> phase_totals;  // nullopt: not mapped
    // A training step: Σ of the phase totals, fw + bw + wu in that order;
    // with the phases on separate units its cycles are the slowest phase's
    // (step_cycles).
    CostTotal step;
    std::int64_t evaluations = 0;
    double seconds = 0;
    struct Failure {
        std::string layer;
        Phase phase = Phase::fw;
        std::size_t search = 0;  // index into searches
    };
    std::optional<Failure> failure;  // the first layer-phase without a valid mapping

    const std::optional<CostTotal>& total(Phase p) const { return phase_totals[p]; }
};

// The cycles of a training step whose phases take `phase_cycles` (0 for a
// phase not mapped): their sum on shared units, the slowest on separate ones
// (CloNets §III, Fig. 7: each phase's units work on another sample).
std::int64_t step_cycles(const PerPhase<std::int64_t>& phase_cycles, PhaseUnits units);

// Precondition: `plan` was built from this `arch` and `training`. `progress`
// (may be empty) is called from the calling thread now and then and after
// every distinct problem.
NetworkMapResult map_network(const ArchModel& arch, const NetworkTraining& training,
                             const NetworkMapPlan& plan, const NetworkMapOptions& options,
                             const NetworkMapProgressFn& progress = {});

// The per-layer results and the totals of `plan`'s layer-phases, from
// searches already in `result.searches` (one per plan problem, in plan
// order); replaces result.layers, phase_totals and step. map_network ends
// with it; a plan that shares another's searched problems (a training run's
// samples) uses it to read one sample's layers without searching again.
void collect_layer_results(const NetworkTraining& training, const NetworkMapPlan& plan,
                           NetworkMapResult& result);

}  // namespace trainloop
