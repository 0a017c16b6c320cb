// IterationSpace: the loop nest of one MAC operation (docs/design.md, "One
// iteration space, three phases"): its shape (the dimensions it names and how
// they index its three tensors, problem_shape.hpp) and a bound per dimension.
// For the conv family the shape holds the sliding-window geometry that maps
// output positions and filter taps to input positions, h = p·stride + r·dilation
// (padding only shifts h, so it is not kept).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "vocabulary/dims.hpp"
#include "vocabulary/problem_shape.hpp"
#include "vocabulary/projection.hpp"
#include "workload/layer.hpp"
#include "workload/tensor_shape.hpp"

namespace trainloop {

struct IterationSpace {
    DimBounds bounds;  // every bound >= 1; 1 for a slot the shape does not use
    ProblemShape shape = conv_shape();

    std::int64_t macs() const;     // product of all bounds
    std::int64_t weights() const;  // words of the weights data space (G·K·C·R·S)
    friend bool operator==(const IterationSpace&, const IterationSpace&) = default;
};

// The conv family's space with these bounds and this window geometry.
IterationSpace conv_space(const DimBounds& bounds, Extent2 stride = {1, 1},
                          Extent2 dilation = {1, 1});

// Why `space` is too large to model exactly, or nullopt: its MACs, or one
// of its tensors (weights, inputs with a window's halo, outputs), past 2^53
// (common/checked_math.hpp). Every tile, footprint and MAC count of any
// mapping of a space that passes is representable.
std::optional<std::string> oversize_reason(const IterationSpace& space);

// The iteration space of a MAC layer (conv, fc, matmul, lstm_cell, einsum) at a minibatch.
// Precondition: is_mac_layer(layer.type), shapes from Network::build.
IterationSpace iteration_space_of(const Layer& layer, const TensorShape& input,
                                  const TensorShape& output, std::int64_t batch);

// The projection of data space `space` of the problem (its shape's).
const Projection& projection_for(DataSpace space, const IterationSpace& problem);

// "G=1 N=16 K=64 C=3 P=112 Q=112 R=7 S=7": each named dimension, in the shape's order.
std::string to_string(const IterationSpace& space);

}  // namespace trainloop
