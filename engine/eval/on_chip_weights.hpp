// An architecture whose outermost level is on chip (no DRAM, e.g. CloNets'
// batchless training with every weight in block RAM) keeps every layer's
// weights there for the whole of training: they have nowhere else to go
// between layers. A mapping sees one layer at a time, so this network-wide
// requirement is checked once, before any search.
#pragma once

#include "arch/architecture.hpp"
#include "problem/training_problems.hpp"

namespace trainloop {

// Throws a SpecError located at the outermost level's `capacity` when it is
// bounded and cannot hold all the network's weights at once. An unbounded
// (DRAM) outermost level always passes.
void check_weights_fit_on_chip(const Architecture& arch, const NetworkTraining& training);

}  // namespace trainloop
