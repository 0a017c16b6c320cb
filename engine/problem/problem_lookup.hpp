// Finds one layer's phase problem by name, for commands that take
// `--layer NAME --phase fw|bw|wu`. A missing layer gets the nearest MAC
// layer's name as a hint; a missing phase says why the layer lacks it.
#pragma once

#include <string_view>

#include "problem/training_problems.hpp"

namespace trainloop {

// Throws SpecError (located at `source`, e.g. the mapping file's `for:` or
// "--layer") when the network has no such MAC layer or the layer no such phase.
const PhaseProblem& find_phase_problem(const Network& network, const NetworkTraining& training,
                                       std::string_view layer, Phase phase,
                                       const SourceLocation& source = {});

}  // namespace trainloop
