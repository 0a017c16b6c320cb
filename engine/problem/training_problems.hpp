// The training problems of a whole network: for every MAC layer, in
// topological order, its fw, bw and wu phase problems (bw only when the
// layer's input gradient is needed, see AnalyzedLayer).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "problem/phase_problem.hpp"
#include "workload/network.hpp"

namespace trainloop {

inline constexpr std::int64_t kDefaultBatch = 16;

struct LayerTraining {
    const AnalyzedLayer* layer = nullptr;  // points into the Network
    IterationSpace space;
    std::vector<PhaseProblem> phases;  // fw, then bw if needed, then wu

    const PhaseProblem* find(Phase phase) const;
};

struct NetworkTraining {
    std::vector<LayerTraining> layers;  // MAC layers only

    // The MAC layer named `name`, or null.
    const LayerTraining* find(std::string_view name) const;
    std::int64_t total_weights() const;
    // Forward MACs for the whole minibatch (equal to each phase's total).
    std::int64_t forward_macs() const;
    std::int64_t phase_macs(Phase phase) const;
};

// Precondition: batch >= 1. The result points into `network`: keep it alive.
NetworkTraining derive_training_problems(const Network& network, std::int64_t batch);

}  // namespace trainloop
