// Network: a checked, shape-annotated DAG of layers.
//
// Network::build takes a parsed NetworkSpec and checks it as a whole: every
// input name resolves, the graph (a Boost.Graph adjacency list) is acyclic and
// connected, and tensor shapes propagate through every layer (a mismatch is a
// SpecError naming both layers). The result lists the layers in a topological
// order that keeps the file's order wherever the edges allow.
#pragma once

#include <string>
#include <vector>

#include "workload/network_spec.hpp"

namespace trainloop {

struct AnalyzedLayer {
    Layer layer;
    std::vector<TensorShape> input_shapes;  // in the order of layer.inputs
    TensorShape output_shape;
    // False when no layer upstream has trainable parameters: then nobody
    // needs the gradient of this layer's input, and a MAC layer has no bw
    // phase (e.g. the first conv, fed by the image).
    bool needs_input_gradient = false;
};

class Network {
  public:
    static Network build(NetworkSpec spec);

    const std::string& name() const { return spec_.name; }
    const NetworkSpec& spec() const { return spec_; }
    // All layers, inputs before the layers that read them.
    const std::vector<AnalyzedLayer>& layers() const { return layers_; }

  private:
    NetworkSpec spec_;
    std::vector<AnalyzedLayer> layers_;
};

}  // namespace trainloop
