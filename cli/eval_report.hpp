// The text form of `trainloop eval`: latency with its bottleneck, energy
// breakdowns, and the per-level access table.
#pragma once

#include <string>

#include "arch/architecture.hpp"
#include "eval/evaluation.hpp"

namespace trainloop::cli {

std::string evaluation_to_text(const Evaluation& evaluation, const Architecture& arch,
                               const ArchModel& model, const PhaseProblem& problem,
                               const Mapping& mapping);

}  // namespace trainloop::cli
