#include "problem/iteration_space.hpp"

#include <fmt/format.h>

#include <cassert>

namespace trainloop {

std::int64_t IterationSpace::macs() const {
    std::int64_t product = 1;
    for (Dim d : kAllDims) product *= bounds[d];
    return product;
}

std::int64_t IterationSpace::weights() const {
    return bounds[Dim::G] * bounds[Dim::K] * bounds[Dim::C] * bounds[Dim::R] * bounds[Dim::S];
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
        case LayerType::fc:  // flattens its input: every element is a feature
            space.bounds[Dim::K] = output.channels;
            space.bounds[Dim::C] = input.elements();
            break;
        case LayerType::matmul:  // one weight matrix applied at every position
            space.bounds[Dim::K] = output.channels;
            space.bounds[Dim::C] = input.channels;
            space.bounds[Dim::P] = input.height;
            space.bounds[Dim::Q] = input.width;
            break;
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
