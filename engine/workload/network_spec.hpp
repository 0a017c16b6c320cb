// NetworkSpec: a network file as parsed, before any graph or shape check.
// Parsing (network_parser) only checks each entry on its own; Network
// (network.hpp) checks the whole: names resolve, acyclic, connected, shapes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/spec_node.hpp"
#include "workload/layer.hpp"
#include "workload/tensor_shape.hpp"

namespace trainloop {

struct NetworkInput {
    std::string name;
    TensorShape shape;
    SourceLocation location;
    // The gradient with respect to this input is needed: it comes from
    // trainable layers outside the file (e.g. the previous cascade of a
    // pipeline), so the layers reading it have a bw phase.
    bool needs_gradient = false;
};

struct NetworkSpec {
    std::string name;
    std::string description;
    std::string source;
    std::string file;  // where it was read from (for errors)
    std::vector<NetworkInput> inputs;
    std::vector<Layer> layers;  // in file order
};

NetworkSpec parse_network_spec(const SpecNode& root);
NetworkSpec load_network_spec(const std::filesystem::path& path);

}  // namespace trainloop
