#include "problem/iteration_space.hpp"

#include <fmt/format.h>

#include <array>
#include <cassert>

#include "common/checked_math.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {

std::int64_t IterationSpace::macs() const {
    std::int64_t product = 1;
    for (Dim d : kAllDims) product *= bounds[d];
    return product;
}

std::int64_t IterationSpace::weights() const {
    return footprint(shape.projections[DataSpace::weights], bounds);
}

const Projection& projection_for(DataSpace space, const IterationSpace& problem) {
    return problem.shape.projections[space];
}

IterationSpace conv_space(const DimBounds& bounds, Extent2 stride, Extent2 dilation) {
    return IterationSpace{bounds, conv_shape(stride, dilation)};
}

std::optional<std::string> oversize_reason(const IterationSpace& space) {
    struct Tensor {
        std::string_view name;
        std::optional<std::int64_t> size;
    };
    const Tensor tensors[] = {
        {"MACs", count_product(space.bounds.values)},
        {"weights", checked_footprint(space.shape.projections[DataSpace::weights], space.bounds)},
        {"outputs", checked_footprint(space.shape.projections[DataSpace::outputs], space.bounds)},
        {"inputs", checked_footprint(space.shape.projections[DataSpace::inputs], space.bounds)},
    };
    for (const Tensor& t : tensors) {
        if (!t.size) {
            return fmt::format("its {} number more than {} ({})", t.name, kMaxCountText,
                               to_string(space));
        }
    }
    return std::nullopt;
}

IterationSpace iteration_space_of(const Layer& layer, const TensorShape& input,
                                  const TensorShape& output, std::int64_t batch) {
    assert(is_mac_layer(layer.type));
    IterationSpace space;  // the conv family's shape
    for (Dim d : kAllDims) space.bounds[d] = 1;
    space.bounds[Dim::N] = batch;
    switch (layer.type) {
        case LayerType::conv: {
            const auto& conv = std::get<ConvAttributes>(layer.attributes);
            space.bounds[Dim::G] = conv.groups;
            space.bounds[Dim::K] = conv.out_channels / conv.groups;
            space.bounds[Dim::C] = input.channels / conv.groups;
            space.bounds[Dim::P] = output.height;
            space.bounds[Dim::Q] = output.width;
            space.bounds[Dim::R] = conv.kernel.h;
            space.bounds[Dim::S] = conv.kernel.w;
            space.shape = conv_shape(conv.stride, conv.dilation);
            break;
        }
        case LayerType::fc: {  // flattens its input: every element is a feature
            const std::int64_t groups = std::get<LinearAttributes>(layer.attributes).groups;
            space.bounds[Dim::G] = groups;  // block-diagonal: one block per group
            space.bounds[Dim::K] = output.channels / groups;
            space.bounds[Dim::C] = input.elements() / groups;
            break;
        }
        case LayerType::matmul: {  // one weight matrix applied at every position
            const std::int64_t groups = std::get<LinearAttributes>(layer.attributes).groups;
            space.bounds[Dim::G] = groups;
            space.bounds[Dim::K] = output.channels / groups;
            space.bounds[Dim::C] = input.channels / groups;
            space.bounds[Dim::P] = input.height;
            space.bounds[Dim::Q] = input.width;
            break;
        }
        case LayerType::einsum: {  // its own shape; the minibatch is the run's
            const auto& einsum = std::get<EinsumAttributes>(layer.attributes);
            space.shape = einsum.shape;
            space.bounds = einsum.sizes;
            space.bounds[einsum.batch] = batch;
            break;
        }
        case LayerType::lstm_cell: {  // W_h h_{t-1} at every step (workload/lstm.hpp)
            // Graves 2013 eqs. (7)-(10): 4H gate outputs, each summing H recurrent inputs.
            space.bounds[Dim::K] = input.channels;   // 4H
            space.bounds[Dim::C] = output.channels;  // H: h_{t-1}
            space.bounds[Dim::P] = input.height;     // T steps, folded beside N
            break;
        }
        default:
            break;
    }
    return space;
}

std::string to_string(const IterationSpace& space) {
    std::string text;
    for (std::uint8_t i = 0; i < space.shape.num_dims; ++i) {
        const Dim d = space.shape.listing[i];
        text += fmt::format("{}{}={}", text.empty() ? "" : " ", space.shape.dim_name(d),
                            space.bounds[d]);
    }
    return text;
}

}  // namespace trainloop
