// Output shape of one layer from the shapes of its inputs
// (rules in docs/workload_format.md). A shape that does not work (channels
// not divisible by groups, a kernel larger than its padded input, add/concat
// operands that disagree) is a SpecError at the layer that names the inputs.
#pragma once

#include <string>
#include <vector>

#include "workload/layer.hpp"
#include "workload/tensor_shape.hpp"

namespace trainloop {

struct NamedShape {
    std::string producer;  // the layer or network input that made it
    TensorShape shape;
};

// `key_path` locates the layer in its file (e.g. "layers[12]").
TensorShape infer_output_shape(const Layer& layer, const std::vector<NamedShape>& inputs,
                               const std::string& key_path);

// Output size of a sliding window along one axis:
// ⌊(in + 2·pad − dil·(k−1) − 1) / stride⌋ + 1 (PyTorch Conv2d docs, "Shape").
// Returns 0 or less when the window does not fit.
std::int64_t sliding_window_output(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                                   std::int64_t padding, std::int64_t dilation);

}  // namespace trainloop
