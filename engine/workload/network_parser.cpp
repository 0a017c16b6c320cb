// Parses a network YAML file (docs/workload_format.md) into a NetworkSpec.
#include <fmt/format.h>

#include <array>
#include <set>

#include "common/checked_math.hpp"
#include "common/did_you_mean.hpp"
#include "workload/network_spec.hpp"

namespace trainloop {
namespace {

// An int, or a [h, w] pair; `minimum` is 1 for sizes and 0 for padding.
Extent2 read_extent(const SpecNode& node, std::int64_t minimum) {
    auto read_one = [&](const SpecNode& n) {
        return minimum > 0 ? n.as_positive_int() : n.as_non_negative_int();
    };
    if (node.is_scalar()) {
        const std::int64_t v = read_one(node);
        return {v, v};
    }
    const std::vector<SpecNode> items = node.is_sequence() ? node.items() : std::vector<SpecNode>{};
    if (items.size() != 2) {
        node.fail("expected one integer or a [height, width] pair",
                  minimum > 0 ? "a positive integer or [h, w]" : "an integer >= 0 or [h, w]");
    }
    return {read_one(items[0]), read_one(items[1])};
}

ConvAttributes read_conv(MapReader& map) {
    ConvAttributes conv;
    conv.out_channels = map.required("out_channels").as_positive_int();
    conv.kernel = read_extent(map.required("kernel"), 1);
    if (auto n = map.optional("stride")) conv.stride = read_extent(*n, 1);
    if (auto n = map.optional("padding")) conv.padding = read_extent(*n, 0);
    if (auto n = map.optional("dilation")) conv.dilation = read_extent(*n, 1);
    if (auto n = map.optional("groups")) conv.groups = n->as_positive_int();
    if (conv.out_channels % conv.groups != 0) {
        map.required("groups").fail(fmt::format("groups {} does not divide out_channels {}",
                                                conv.groups, conv.out_channels),
                                    "groups that divide both the input and the output channels");
    }
    return conv;
}

PoolAttributes read_pool(MapReader& map) {
    PoolAttributes pool;
    if (auto n = map.optional("global")) pool.global = n->as_bool();
    auto kernel = map.optional("kernel");
    auto stride = map.optional("stride");
    auto padding = map.optional("padding");
    if (pool.global) {
        for (const auto& n : {kernel, stride, padding}) {
            if (n)
                n->fail("a global pool takes no kernel, stride or padding", "global: true alone");
        }
        return pool;
    }
    if (!kernel) map.node().fail("missing key `kernel`", "`kernel:` (or `global: true`)");
    pool.kernel = read_extent(*kernel, 1);
    pool.stride = stride ? read_extent(*stride, 1) : pool.kernel;
    if (padding) pool.padding = read_extent(*padding, 0);
    return pool;
}

Layer read_layer(const SpecNode& node) {
    MapReader map(node);
    Layer layer;
    layer.location = node.location();
    layer.name = map.required("name").as_string();
    const SpecNode type_node = map.required("type");
    layer.type = *layer_type_from_name(type_node.as_choice(layer_type_names()));
    layer.inputs = map.required("inputs").as_string_list();
    if (layer.inputs.empty()) {
        map.required("inputs").fail("a layer needs at least one input", "a list of layer names");
    }
    switch (layer.type) {
        case LayerType::conv:
            layer.attributes = read_conv(map);
            break;
        case LayerType::fc:
        case LayerType::matmul:
            layer.attributes = LinearAttributes{map.required("out_features").as_positive_int()};
            break;
        case LayerType::maxpool:
        case LayerType::avgpool:
            layer.attributes = read_pool(map);
            break;
        case LayerType::relu:
        case LayerType::batchnorm:
        case LayerType::add:
        case LayerType::concat:
            break;
    }
    const bool many_inputs = layer.type == LayerType::add || layer.type == LayerType::concat;
    if (many_inputs && layer.inputs.size() < 2) {
        map.required("inputs").fail(
            fmt::format("`{}` needs at least two inputs", layer_type_name(layer.type)),
            "a list of two or more layer names");
    }
    if (!many_inputs && layer.inputs.size() != 1) {
        map.required("inputs").fail(fmt::format("`{}` takes exactly one input, got {}",
                                                layer_type_name(layer.type), layer.inputs.size()),
                                    "one layer name",
                                    "use an `add` or `concat` layer to combine tensors");
    }
    map.finish();
    return layer;
}

NetworkInput read_input(const SpecNode& node) {
    MapReader map(node);
    NetworkInput input;
    input.location = node.location();
    input.name = map.required("name").as_string();
    input.shape.channels = map.required("channels").as_positive_int();
    if (auto n = map.optional("height")) input.shape.height = n->as_positive_int();
    if (auto n = map.optional("width")) input.shape.width = n->as_positive_int();
    map.finish();
    if (!count_product(std::array{input.shape.channels, input.shape.height, input.shape.width})) {
        node.fail(fmt::format("input `{}` of shape {} has more than {} elements", input.name,
                              to_string(input.shape), kMaxCountText),
                  "tensors of at most 2^53 elements per sample");
    }
    return input;
}

}  // namespace

NetworkSpec parse_network_spec(const SpecNode& root) {
    MapReader top(root);
    NetworkSpec spec;
    spec.file = root.file();
    spec.name = top.required("network").as_string();
    if (auto n = top.optional("description")) spec.description = n->as_string();
    if (auto n = top.optional("source")) spec.source = n->as_string();
    const SpecNode inputs = top.required("inputs");
    for (const SpecNode& item : inputs.items()) spec.inputs.push_back(read_input(item));
    if (spec.inputs.empty()) inputs.fail("a network needs at least one input", "a list of inputs");
    const SpecNode layers = top.required("layers");
    std::set<std::string> names;
    for (const auto& input : spec.inputs) names.insert(input.name);
    for (const SpecNode& item : layers.items()) {
        Layer layer = read_layer(item);
        if (!names.insert(layer.name).second) {
            item.fail(fmt::format("duplicate name `{}`", layer.name),
                      "names unique among the layers and the network inputs");
        }
        spec.layers.push_back(std::move(layer));
    }
    if (spec.layers.empty()) layers.fail("a network needs at least one layer", "a list of layers");
    top.finish();
    return spec;
}

NetworkSpec load_network_spec(const std::filesystem::path& path) {
    return parse_network_spec(SpecNode::load_file(path));
}

}  // namespace trainloop
