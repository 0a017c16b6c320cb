// Builds a Network from YAML text, as a network file named `file` would be
// read: what the workload and problem tests share.
#pragma once

#include <string>

#include "common/spec_node.hpp"
#include "workload/network.hpp"
#include "workload/network_spec.hpp"

namespace trainloop::testing {

inline Network network_from_text(const std::string& yaml, const std::string& file = "net.yaml") {
    return Network::build(parse_network_spec(SpecNode::load_string(yaml, file)));
}

}  // namespace trainloop::testing
