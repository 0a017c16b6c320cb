// One run set-up for every command that maps a network (`map`, `sweep`,
// `train-cost`): what the user chose (RunSettings), and
// what the mapper needs from it (RunSetup: the merged constraints, the
// mapspace constraints, the plan and the search options), built by one
// function, set_up_run(). Before this existed `map` and `sweep` each wrote
// their own copy, and they disagreed: `sweep` ignored the architecture's
// `constraints:` section. The identity of a run (what makes two runs the same
// result) is described by run_identity.hpp from the same settings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cartesian/cartesian_product.hpp"
#include "constraints/mapping_constraints.hpp"
#include "density/density_schedule.hpp"
#include "mapspace/dataflow.hpp"
#include "search/search.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// The search of every distinct problem of a run.
struct SearchSettings {
    Objective objective = Objective::edp;
    SearchStrategy strategy = SearchStrategy::anneal;
    // Evaluations per distinct problem: at most this many, stopping when
    // the search converges (SearchBudget::stop_when_converged), or exactly
    // this many when stop_when_converged is false.
    std::int64_t budget = kConvergingBudget;
    bool stop_when_converged = true;
    std::int64_t patience = 0;       // 0: never stop for it
    double time_budget_seconds = 0;  // for the whole network; 0: none
    std::uint64_t seed = 1;
};

// A mapping constraints file as read: where, its text (part of a run's
// identity) and its constraints (resolved against one architecture).
struct ConstraintsFileInput {
    std::string file;
    std::string text;
};

// A whole training run's length (`train-cost`, a sweep's `iterations:`):
// iterations 0 to N-1, and the samples shared by its linearly ramping parts.
struct TrainingRunLength {
    std::int64_t iterations = 0;
    std::int64_t samples = 0;
};

struct RunSettings {
    std::optional<Dataflow> dataflow;  // nullopt: any
    bool bypass = true;                // explore keep/bypass
    // Also spatial factors that pad their dimension (MapspaceConstraints).
    bool imperfect_factors = false;
    // With it, the sliding-window dimensions too (MapspaceConstraints).
    bool imperfect_windows = false;
    std::optional<ConstraintsFileInput> constraints_file;
    SearchSettings search;
    std::vector<Phase> phases;
    std::int64_t iteration = kFinalIteration;  // where density schedules are read
    // Set: the cost of a whole training run over the profile's schedules
    // (mappers/training_run/), not one iteration's.
    std::optional<TrainingRunLength> training_run;
    // Which evaluator costs the run is not among these settings: evaluators
    // sit above this module (mappers/evaluator/), and the caller hands its
    // evaluator what set_up_run() built.
    // With the Cartesian-product evaluator: where the profile's zeros fall.
    CartesianZeros cartesian_zeros = CartesianZeros::expected;
};

}  // namespace trainloop
