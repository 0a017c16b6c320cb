// IterationSpace: the 7-D (+ groups) loop nest of one MAC layer (docs/design.md,
// "One iteration space, three phases"): bounds of G,N,K,C,P,Q,R,S and the
// sliding-window geometry that maps output positions and filter taps to input
// positions, h = p·stride + r·dilation (padding only shifts h, so it is not kept).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "vocabulary/dims.hpp"
#include "workload/layer.hpp"
#include "workload/tensor_shape.hpp"

namespace trainloop {

struct IterationSpace {
    DimBounds bounds;  // every bound >= 1
    Extent2 stride{1, 1};
    Extent2 dilation{1, 1};

    std::int64_t macs() const;     // product of all bounds
    std::int64_t weights() const;  // G·K·C·R·S
    friend bool operator==(const IterationSpace&, const IterationSpace&) = default;
};

// Why `space` is too large to model exactly, or nullopt: its MACs, or one
// of its tensors (weights, inputs with their halo, outputs), past 2^53
// (common/checked_math.hpp). Every tile, footprint and MAC count of any
// mapping of a space that passes is representable.
std::optional<std::string> oversize_reason(const IterationSpace& space);

// The iteration space of a MAC layer (conv, fc, matmul, lstm_cell) at a minibatch.
// Precondition: is_mac_layer(layer.type), shapes from Network::build.
IterationSpace iteration_space_of(const Layer& layer, const TensorShape& input,
                                  const TensorShape& output, std::int64_t batch);

// "G=1 N=16 K=64 C=3 P=112 Q=112 R=7 S=7"
std::string to_string(const IterationSpace& space);

}  // namespace trainloop
