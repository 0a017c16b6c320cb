#include "workload/network_yaml.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <variant>
#include <vector>

#include "common/yaml_text.hpp"

namespace trainloop {
namespace {

std::string pair_text(const Extent2& e) { return fmt::format("[{}, {}]", e.h, e.w); }

std::string attributes_text(const LayerAttributes& attributes) {
    if (const auto* conv = std::get_if<ConvAttributes>(&attributes)) {
        return fmt::format(
            ", out_channels: {}, kernel: {}, stride: {}, padding: {}, dilation: {}, groups: {}",
            conv->out_channels, pair_text(conv->kernel), pair_text(conv->stride),
            pair_text(conv->padding), pair_text(conv->dilation), conv->groups);
    }
    if (const auto* pool = std::get_if<PoolAttributes>(&attributes)) {
        if (pool->global) return ", global: true";
        return fmt::format(", kernel: {}, stride: {}, padding: {}", pair_text(pool->kernel),
                           pair_text(pool->stride), pair_text(pool->padding));
    }
    if (const auto* linear = std::get_if<LinearAttributes>(&attributes)) {
        if (linear->groups == 1) return fmt::format(", out_features: {}", linear->out_features);
        return fmt::format(", out_features: {}, groups: {}", linear->out_features, linear->groups);
    }
    if (const auto* shuffle = std::get_if<ShuffleAttributes>(&attributes)) {
        return fmt::format(", groups: {}", shuffle->groups);
    }
    if (const auto* cell = std::get_if<LstmCellAttributes>(&attributes)) {
        return fmt::format(", hidden_size: {}, sequence_length: {}", cell->hidden_size,
                           cell->sequence_length);
    }
    if (const auto* einsum = std::get_if<EinsumAttributes>(&attributes)) {
        const ProblemShape& shape = einsum->shape;
        std::vector<std::string> dims;
        for (std::uint8_t i = 0; i < shape.num_dims; ++i) {
            const Dim d = shape.listing[i];
            if (d != einsum->batch) {
                dims.push_back(fmt::format("{}: {}", shape.dim_name(d), einsum->sizes[d]));
            }
        }
        return fmt::format(
            ", einsum: {}, weights: {}, batch: {}, dims: {{{}}}", yaml_scalar(einsum->equation),
            yaml_scalar(shape.tensor_names[DataSpace::weights]),
            yaml_scalar(std::string(shape.dim_name(einsum->batch))), fmt::join(dims, ", "));
    }
    return {};
}

}  // namespace

std::string network_to_yaml(const NetworkSpec& spec) {
    std::string out = fmt::format("network: {}\n", yaml_scalar(spec.name));
    if (!spec.description.empty())
        out += fmt::format("description: {}\n", yaml_scalar(spec.description));
    if (!spec.source.empty()) out += fmt::format("source: {}\n", yaml_scalar(spec.source));
    out += "inputs:                 # per sample: channels x height x width\n";
    for (const NetworkInput& input : spec.inputs) {
        out += fmt::format("  - {{name: {}, channels: {}, height: {}, width: {}{}}}\n",
                           yaml_scalar(input.name), input.shape.channels, input.shape.height,
                           input.shape.width, input.needs_gradient ? ", gradient: true" : "");
    }
    out += "layers:\n";
    for (const Layer& layer : spec.layers) {
        std::vector<std::string> inputs;
        for (const std::string& name : layer.inputs) inputs.push_back(yaml_scalar(name));
        out += fmt::format("  - {{name: {}, type: {}, inputs: [{}]{}}}\n", yaml_scalar(layer.name),
                           layer_type_name(layer.type), fmt::join(inputs, ", "),
                           attributes_text(layer.attributes));
    }
    return out;
}

}  // namespace trainloop
