#include "problem/iteration_space.hpp"

#include <fmt/format.h>

#include <array>
#include <cassert>

#include "common/checked_math.hpp"

namespace trainloop {

std::int64_t IterationSpace::macs() const {
    std::int64_t product = 1;
    for (Dim d : kAllDims) product *= bounds[d];
    return product;
}

std::int64_t IterationSpace::weights() const {
    return bounds[Dim::G] * bounds[Dim::K] * bounds[Dim::C] * bounds[Dim::R] * bounds[Dim::S];
}

std::optional<std::string> oversize_reason(const IterationSpace& space) {
    const DimBounds& b = space.bounds;
    // The input rows (columns) an output row (column) range and the filter
    // rows (columns) touch: (P-1)·stride + (R-1)·dilation + 1.
    auto input_extent = [](std::int64_t out, std::int64_t kernel, std::int64_t stride,
                           std::int64_t dilation) -> std::optional<std::int64_t> {
        const auto a = checked_mul(out - 1, stride);
        const auto c = checked_mul(kernel - 1, dilation);
        if (!a || !c) return std::nullopt;
        const auto sum = checked_add(*a, *c);
        if (!sum || *sum >= kMaxCount) return std::nullopt;
        return *sum + 1;
    };
    const auto h = input_extent(b[Dim::P], b[Dim::R], space.stride.h, space.dilation.h);
    const auto w = input_extent(b[Dim::Q], b[Dim::S], space.stride.w, space.dilation.w);
    struct Tensor {
        const char* name;
        std::optional<std::int64_t> size;
    };
    const Tensor tensors[] = {
        {"MACs", count_product(b.values)},
        {"weights",
         count_product(std::array{b[Dim::G], b[Dim::K], b[Dim::C], b[Dim::R], b[Dim::S]})},
        {"outputs",
         count_product(std::array{b[Dim::G], b[Dim::N], b[Dim::K], b[Dim::P], b[Dim::Q]})},
        {"inputs", h && w ? count_product(std::array{b[Dim::G], b[Dim::N], b[Dim::C], *h, *w})
                          : std::nullopt},
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
    IterationSpace space;
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
            space.stride = conv.stride;
            space.dilation = conv.dilation;
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
    for (Dim d : {Dim::G, Dim::N, Dim::K, Dim::C, Dim::P, Dim::Q, Dim::R, Dim::S}) {
        text += fmt::format("{}{}={}", text.empty() ? "" : " ", dim_name(d), space.bounds[d]);
    }
    return text;
}

}  // namespace trainloop
