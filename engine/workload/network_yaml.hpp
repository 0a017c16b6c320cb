// Writing a NetworkSpec as the network YAML network_parser reads
// (docs/workload_format.md), for tools that produce workloads
// (`trainloop import timeloop`). Every attribute is written out explicitly
// (kernel, stride, padding, dilation as [h, w] pairs; groups), so parsing the
// text gives back the same inputs and layers (names, types, inputs, shapes
// and attributes) in the same order; source locations are not kept.
#pragma once

#include <string>

#include "workload/network_spec.hpp"

namespace trainloop {

std::string network_to_yaml(const NetworkSpec& spec);

}  // namespace trainloop
