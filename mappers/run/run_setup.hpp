// set_up_run(): from what the user chose (run_settings.hpp) and what is
// mapped (an architecture with its own constraints, a network's training
// problems, a sparsity profile) to everything map_network() needs. `map` and
// `sweep` both call it, so a point of a sweep and the same `map` command
// search the same mapspace with the same options.
#pragma once

#include "arch/arch_model.hpp"
#include "arch/architecture.hpp"
#include "density/sparsity_profile.hpp"
#include "network/network_mapper.hpp"
#include "run/run_settings.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

// What one run maps.
struct RunSubject {
    const Architecture& arch;
    // The architecture file's own `constraints:` section (empty when none).
    const MappingConstraints& arch_constraints;
    const ArchModel& model;
    std::string_view network;  // its name (density rules match on it)
    const NetworkTraining& training;
    const SparsityProfile* sparsity = nullptr;  // null: dense evaluation
};

struct RunSetup {
    // The architecture's constraints, overridden entry by entry by the
    // constraints file's (docs/mapping_constraints.md).
    MappingConstraints constraints;
    MapspaceConstraints mapspace;
    // What map_network() searches: one iteration's layer-phases, or with
    // settings.training_run the whole run's distinct problems
    // (as_network_plan(*training_run): no layer-phases).
    NetworkMapPlan plan;
    NetworkMapOptions options;
    // With settings.training_run: the run's samples and problems.
    std::optional<TrainingRunPlan> training_run;
};

// The merged constraints alone (what set_up_run starts from): the
// architecture's, then the file's (parsed against this architecture's
// levels). Throws SpecError for a file that does not fit the architecture
// and for entries that contradict each other once merged.
MappingConstraints merged_constraints(const Architecture& arch,
                                      const MappingConstraints& arch_constraints,
                                      const std::optional<ConstraintsFileInput>& file);

// The search options of every distinct problem (`threads`: 0, all cores).
NetworkMapOptions network_map_options(const SearchSettings& search, int threads);

// Throws SpecError: the constraints as merged_constraints() does, a named
// dataflow that contradicts a spatial constraint, a layer whose mapspace
// cannot be built (named in the message). A training run needs a sparsity
// profile (std::invalid_argument without one); `mapspaces` says whether its
// plan's problems get theirs (the evaluator's: Evaluator::mapspaces()).
RunSetup set_up_run(const RunSubject& subject, const RunSettings& settings, int threads,
                    PlanMapspaces mapspaces);

}  // namespace trainloop
