// Reading data spaces from a spec node (architecture, constraints): one data
// space by name, or a set of them. Failures are SpecErrors at the node.
#pragma once

#include "common/spec_node.hpp"
#include "vocabulary/data_space_set.hpp"

namespace trainloop {

DataSpace read_data_space(const SpecNode& node);
// One data space or a list of them: non-empty, no repeats.
DataSpaceSet read_data_space_set(const SpecNode& node);

}  // namespace trainloop
