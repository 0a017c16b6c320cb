// Parses a network YAML file (docs/workload_format.md) into a NetworkSpec.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "common/checked_math.hpp"
#include "common/did_you_mean.hpp"
#include "common/spec_reading.hpp"
#include "vocabulary/einsum.hpp"
#include "workload/clos_cascade.hpp"
#include "workload/lstm.hpp"
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

LinearAttributes read_linear(MapReader& map) {
    LinearAttributes linear;
    linear.out_features = map.required("out_features").as_positive_int();
    if (auto n = map.optional("groups")) linear.groups = n->as_positive_int();
    if (linear.out_features % linear.groups != 0) {
        map.required("groups").fail(fmt::format("groups {} does not divide out_features {}",
                                                linear.groups, linear.out_features),
                                    "groups that divide both the input and the output features");
    }
    return linear;
}

// The file's names for a Clos cascade and an LSTM: expanded here into layers.
constexpr std::string_view kClosTypeName = "clos_fc";
constexpr std::string_view kLstmTypeName = "lstm";

const std::vector<std::string>& written_type_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> all = layer_type_names();
        all.emplace_back(kClosTypeName);
        all.emplace_back(kLstmTypeName);
        return all;
    }();
    return names;
}

// The hidden size and sequence length of an `lstm` or `lstm_cell` entry.
LstmParameters read_lstm_parameters(MapReader& map) {
    LstmParameters lstm;
    lstm.hidden_size = map.required("hidden_size").as_positive_int();
    // The four gates' 4·hidden_size outputs must be an exact count.
    if (lstm.hidden_size > kMaxCount / 4) {
        map.required("hidden_size")
            .fail(fmt::format("hidden_size {} gives more than {} gate outputs (4 per cell)",
                              lstm.hidden_size, kMaxCountText),
                  "a hidden size of at most 2^51");
    }
    lstm.sequence_length = map.required("sequence_length").as_positive_int();
    return lstm;
}

std::vector<Layer> read_lstm(MapReader& map, const std::string& name, const SpecNode& node) {
    const std::vector<std::string> inputs = map.required("inputs").as_string_list();
    if (inputs.size() != 1) {
        map.required("inputs").fail(
            fmt::format("`{}` takes exactly one input, got {}", kLstmTypeName, inputs.size()),
            "one layer name (a sequence: features × time steps × 1)");
    }
    const LstmParameters lstm = read_lstm_parameters(map);
    map.finish();
    return expand_lstm(name, inputs.front(), lstm, node.location());
}

// An einsum layer (vocabulary/einsum.hpp): its equation, the trained operand
// (`weights:`, the first), the minibatch's index (`batch:`, else `b` or `n`)
// and every other index's size (`dims:`).
EinsumAttributes read_einsum(MapReader& map) {
    const SpecNode equation = map.required("einsum");
    EinsumAttributes einsum;
    einsum.equation = equation.as_string();
    einsum.shape = parse_einsum(einsum.equation, equation.location(), equation.path());
    const ProblemShape& shape = einsum.shape;
    const std::string& weight = shape.tensor_names[DataSpace::weights];
    const std::string& input = shape.tensor_names[DataSpace::inputs];
    const SpecNode weights = map.required("weights");
    const std::string named = weights.as_string();
    if (named != weight) {
        weights.fail(fmt::format("`{}` is not the first operand of `{}`", quoted_excerpt(named),
                                 quoted_excerpt(einsum.equation)),
                     fmt::format("the trained operand's name, written first: `{}`", weight),
                     named == input
                         ? fmt::format("write the trained operand first: `{} += {} * {}`",
                                       shape.tensor_names[DataSpace::outputs], input, weight)
                         : std::string());
    }
    // The minibatch: an index of the input and the result that the weight lacks.
    std::optional<Dim> batch;
    if (const auto node = map.optional("batch")) {
        const std::string name = node->as_string();
        batch = shape.dim_named(name);
        if (!batch) {
            node->fail(fmt::format("`{}` is no index of `{}`", quoted_excerpt(name),
                                   quoted_excerpt(einsum.equation)),
                       "the index of the minibatch");
        }
    } else {
        batch = shape.dim_named("b");
        if (!batch) batch = shape.dim_named("n");
        if (!batch) {
            equation.fail(fmt::format("no index of `{}` is named `b` or `n`, the minibatch",
                                      quoted_excerpt(einsum.equation)),
                          "`batch: INDEX`, the index of the minibatch");
        }
    }
    const bool per_sample = shape.projections[DataSpace::inputs].axis_of[*batch] >= 0 &&
                            shape.projections[DataSpace::outputs].axis_of[*batch] >= 0 &&
                            shape.projections[DataSpace::weights].axis_of[*batch] < 0;
    if (!per_sample) {
        equation.fail(fmt::format("the minibatch index `{}` must index `{}` and `{}` but not the "
                                  "weight `{}`",
                                  shape.dim_name(*batch), input,
                                  shape.tensor_names[DataSpace::outputs], weight),
                      "a minibatch index of the input and the result only");
    }
    einsum.batch = *batch;
    einsum.sizes.values.fill(1);
    const SpecNode dims_node = map.required("dims");
    MapReader dims(dims_node);
    for (std::uint8_t i = 0; i < shape.num_dims; ++i) {
        const Dim d = shape.listing[i];
        if (d == *batch) continue;
        einsum.sizes[d] = dims.required(shape.dim_name(d)).as_positive_int();
    }
    dims.finish();  // an index the equation does not have
    return einsum;
}

std::vector<Layer> read_clos_cascade(MapReader& map, const std::string& name,
                                     const SpecNode& node) {
    const std::vector<std::string> inputs = map.required("inputs").as_string_list();
    if (inputs.size() != 1) {
        map.required("inputs").fail(
            fmt::format("`{}` takes exactly one input, got {}", kClosTypeName, inputs.size()),
            "one layer name");
    }
    ClosParameters clos;
    clos.out_features = map.required("out_features").as_positive_int();
    clos.input_routers = map.required("input_routers").as_positive_int();
    clos.middle_routers = map.required("middle_routers").as_positive_int();
    clos.output_routers = map.required("output_routers").as_positive_int();
    if (clos.out_features % clos.output_routers != 0) {
        map.required("output_routers")
            .fail(fmt::format("output_routers {} does not divide out_features {}",
                              clos.output_routers, clos.out_features),
                  "a number of output routers that divides out_features (each router drives "
                  "out_features / output_routers outputs)");
    }
    // The stage widths Ri·Rm and Rm·Ro must be exact counts.
    if (!checked_mul(clos.input_routers, clos.middle_routers) ||
        !checked_mul(clos.middle_routers, clos.output_routers) ||
        std::max(clos.input_routers * clos.middle_routers,
                 clos.middle_routers * clos.output_routers) > kMaxCount) {
        map.required("middle_routers")
            .fail(
                "the cascade's inner layers (input_routers × middle_routers, middle_routers × "
                "output_routers neurons) have more than " +
                    std::string(kMaxCountText) + " neurons",
                "router counts whose products number at most 2^53");
    }
    map.finish();
    return expand_clos_cascade(name, inputs.front(), clos, node.location());
}

std::vector<Layer> read_layer(const SpecNode& node) {
    MapReader map(node);
    Layer layer;
    layer.location = node.location();
    layer.name = spec_reading::read_name(map.required("name"));
    const SpecNode type_node = map.required("type");
    const std::string type_name = type_node.as_choice(written_type_names());
    if (type_name == kClosTypeName) return read_clos_cascade(map, layer.name, node);
    if (type_name == kLstmTypeName) return read_lstm(map, layer.name, node);
    layer.type = *layer_type_from_name(type_name);
    layer.inputs = map.required("inputs").as_string_list();
    if (layer.inputs.empty()) {
        map.required("inputs").fail("a layer needs at least one input", "a list of layer names");
    }
    if (layer.type == LayerType::einsum && layer.inputs.size() != 1) {
        // Two activation operands (attention's Q·Kᵀ) have two gradient problems
        // in bw and no weight update: the results' phases cannot hold them yet.
        map.required("inputs").fail(
            fmt::format("`einsum` takes exactly one input, got {}: an einsum of two activations "
                        "is not modelled yet",
                        layer.inputs.size()),
            "one layer name: the second operand; the first is the trained weight",
            "an einsum's first operand is a weight (`weights:`)");
    }
    switch (layer.type) {
        case LayerType::conv:
            layer.attributes = read_conv(map);
            break;
        case LayerType::fc:
        case LayerType::matmul:
            layer.attributes = read_linear(map);
            break;
        case LayerType::shuffle:
            layer.attributes = ShuffleAttributes{map.required("groups").as_positive_int()};
            break;
        case LayerType::einsum:
            layer.attributes = read_einsum(map);
            break;
        case LayerType::lstm_cell: {
            const LstmParameters lstm = read_lstm_parameters(map);
            layer.attributes = LstmCellAttributes{lstm.hidden_size, lstm.sequence_length};
            break;
        }
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
    return {std::move(layer)};
}

NetworkInput read_input(const SpecNode& node) {
    MapReader map(node);
    NetworkInput input;
    input.location = node.location();
    input.name = spec_reading::read_name(map.required("name"));
    input.shape.channels = map.required("channels").as_positive_int();
    if (auto n = map.optional("height")) input.shape.height = n->as_positive_int();
    if (auto n = map.optional("width")) input.shape.width = n->as_positive_int();
    if (auto n = map.optional("gradient")) input.needs_gradient = n->as_bool();
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
    spec.name = spec_reading::read_name(top.required("network"));
    if (auto n = top.optional("description")) spec.description = n->as_string();
    if (auto n = top.optional("source")) spec.source = n->as_string();
    const SpecNode inputs = top.required("inputs");
    for (const SpecNode& item : inputs.items()) spec.inputs.push_back(read_input(item));
    if (spec.inputs.empty()) inputs.fail("a network needs at least one input", "a list of inputs");
    const SpecNode layers = top.required("layers");
    std::set<std::string> names;
    for (const auto& input : spec.inputs) names.insert(input.name);
    std::size_t entry = 0;
    for (const SpecNode& item : layers.items()) {
        std::vector<Layer> expanded = read_layer(item);
        // The name the entry writes (an `lstm` or a `clos_fc` gives it to its
        // last layer) first: a name written twice is reported as such, not as
        // the clash of a layer the second one expands into.
        const std::string written = expanded.back().name;
        if (names.contains(written)) {
            item.fail(fmt::format("duplicate name `{}`", written),
                      "names unique among the layers and the network inputs");
        }
        for (Layer& layer : expanded) {
            layer.entry = entry;
            if (!names.insert(layer.name).second) {
                const std::string origin =
                    !layer.cascade.empty()
                        ? fmt::format("a stage of Clos cascade `{}`", layer.cascade)
                    : layer.name == lstm_input_gates_name(written)
                        ? fmt::format("the input gates of LSTM `{}`", written)
                        : fmt::format("one of the layers `{}` expands into", written);
                item.fail(fmt::format("duplicate name `{}` ({})", layer.name, origin),
                          "names unique among the layers and the network inputs",
                          fmt::format("rename the other `{}` or this `{}`", layer.name, written));
            }
            spec.layers.push_back(std::move(layer));
        }
        ++entry;
    }
    if (spec.layers.empty()) layers.fail("a network needs at least one layer", "a list of layers");
    top.finish();
    return spec;
}

NetworkSpec load_network_spec(const std::filesystem::path& path) {
    return parse_network_spec(SpecNode::load_file(path));
}

}  // namespace trainloop
