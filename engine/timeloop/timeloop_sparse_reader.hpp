// Reading Sparseloop's additions to timeloop-model's inputs (Timeloop v3.0.3):
// the top-level `sparse_optimizations:` and the problem instance's
// `densities:` / `commonDensity:`. Module-internal: timeloop_reader.cpp calls
// these while it reads the merged documents; every key is checked and every
// error located, as for the dense inputs.
#pragma once

#include "common/spec_node.hpp"
#include "timeloop/timeloop_spec.hpp"

namespace trainloop {

// `Weights`, `Inputs` or `Outputs` (the CNN layer's data spaces).
TimeloopDataSpace read_timeloop_data_space(const SpecNode& node);

// `sparse_optimizations: {targets: [...]}`. Targets are named by the
// architecture's storage levels and its arithmetic component, so `spec.arch`
// must have been read.
void read_sparse_optimizations(const SpecNode& node, TimeloopSpec& spec);

// The instance's `densities:` (a number or `{distribution, density}` per data
// space) or `commonDensity:` (one for all three).
void read_densities(const SpecNode& node, TimeloopProblem& problem);
void read_common_density(const SpecNode& node, TimeloopProblem& problem);

}  // namespace trainloop
