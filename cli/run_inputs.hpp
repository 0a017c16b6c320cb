// What `map` and `train-cost` read before they search, in one order so that
// both report a mistake at the same place: the architecture (and the notes
// on what it leaves unpriced), the constraints (the file against the
// architecture, the dataflow against both), the network and its training
// problems at the batch, the sparsity profile and its masks. Then the run's
// set-up (run/run_setup.hpp) with the thread count capped at the machine.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "arch/arch_model.hpp"
#include "constraints/architecture_spec.hpp"
#include "density/sparsity_profile.hpp"
#include "map_options.hpp"
#include "problem/training_problems.hpp"
#include "run/run_setup.hpp"
#include "workload/network.hpp"

namespace trainloop::cli {

struct RunInputs {
    std::filesystem::path arch_file;  // resolved (a shipped name or a file)
    ArchitectureSpec spec;
    ArchModel model;
    std::unique_ptr<const Network> network;  // `training` points into it
    NetworkTraining training;
    std::optional<SparsityProfile> sparsity;  // none: dense evaluation

    const Architecture& arch() const { return spec.arch; }
    // What set_up_run() reads; points into these inputs.
    RunSubject subject() const;
    // `mapspaces`: a training run's (set_up_run), the evaluator's.
    RunSetup set_up(const RunSettings& settings, int threads,
                    PlanMapspaces mapspaces = PlanMapspaces::build) const;
};

// Throws SpecError at the first input that is wrong. `o.sparsity.profile`
// empty: no profile.
RunInputs read_run_inputs(const MapOptions& o, const RunSettings& settings);

// Refuses a run with nothing to map (a phase no MAC layer has).
void check_something_to_map(const RunInputs& inputs, std::size_t layer_phases,
                            const std::string& phase);

}  // namespace trainloop::cli
