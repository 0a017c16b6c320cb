#include "workload/shape_inference.hpp"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <vector>

#include "common/checked_math.hpp"
#include "common/spec_node.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

[[noreturn]] void fail(const Layer& layer, const std::string& key_path, const std::string& message,
                       const std::string& expected, const std::string& hint = {}) {
    throw SpecError(layer.location, key_path,
                    fmt::format("{} `{}`: {}", layer_type_name(layer.type), layer.name, message),
                    expected, hint);
}

TensorShape window_output(const Layer& layer, const NamedShape& in, Extent2 kernel, Extent2 stride,
                          Extent2 padding, Extent2 dilation, const std::string& key_path) {
    const std::int64_t p =
        sliding_window_output(in.shape.height, kernel.h, stride.h, padding.h, dilation.h);
    const std::int64_t q =
        sliding_window_output(in.shape.width, kernel.w, stride.w, padding.w, dilation.w);
    if (p <= 0 || q <= 0) {
        fail(
            layer, key_path,
            fmt::format("a {}×{} window (dilation {}×{}, padding {}×{}) does not fit input `{}` of "
                        "shape {}",
                        kernel.h, kernel.w, dilation.h, dilation.w, padding.h, padding.w,
                        in.producer, to_string(in.shape)),
            "a kernel no larger than the padded input");
    }
    return {in.shape.channels, p, q};
}

// Per sample (the minibatch index at 1): the words of data space `s`, and
// the extent of each of its axes but the minibatch's, or nullopt past kMaxCount.
struct SampleTensor {
    std::int64_t words = 1;
    std::vector<std::int64_t> extents;
};
std::optional<SampleTensor> sample_tensor(const EinsumAttributes& einsum, DataSpace s) {
    const Projection& projection = einsum.shape.projections[s];
    DimBounds sample = einsum.sizes;
    sample[einsum.batch] = 1;
    const auto words = checked_footprint(projection, sample);
    if (!words) return std::nullopt;
    SampleTensor out{*words, {}};
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        if (!(axis.num_terms == 1 && axis.terms[0].dim == einsum.batch)) {
            out.extents.push_back(*checked_axis_span(axis, sample));
        }
    }
    return out;
}

// An einsum reads its input as the second operand, whose words per sample
// must be the input's elements; its result is the tensor a next layer reads:
// channels the last axis (besides the minibatch's), height the others, so a
// `matmul` after it applies to the last axis at every other position.
TensorShape einsum_output(const Layer& layer, const NamedShape& in, const std::string& key_path) {
    const auto& einsum = std::get<EinsumAttributes>(layer.attributes);
    const std::string& x = einsum.shape.tensor_names[DataSpace::inputs];
    const auto read = sample_tensor(einsum, DataSpace::inputs);
    const auto result = sample_tensor(einsum, DataSpace::outputs);
    if (!read || !result || !sample_tensor(einsum, DataSpace::weights)) {
        fail(layer, key_path + ".dims",
             fmt::format("a tensor of `{}` has more than {} elements",
                         quoted_excerpt(einsum.equation), kMaxCountText),
             "tensors of at most 2^53 elements");
    }
    if (read->words != in.shape.elements()) {
        fail(layer, key_path + ".dims",
             fmt::format("`{}` reads {} elements per sample as `{}`, but input `{}` has {} ({})",
                         quoted_excerpt(einsum.equation), read->words, x, in.producer,
                         in.shape.elements(), to_string(in.shape)),
             fmt::format("sizes under `dims` that make `{}` as large as input `{}`", x,
                         in.producer));
    }
    TensorShape out;
    if (!result->extents.empty()) {
        out.channels = result->extents.back();
        for (std::size_t i = 0; i + 1 < result->extents.size(); ++i) {
            out.height *= result->extents[i];
        }
    }
    return out;
}

}  // namespace

std::int64_t sliding_window_output(std::int64_t in, std::int64_t kernel, std::int64_t stride,
                                   std::int64_t padding, std::int64_t dilation) {
    // Every input is at most 2^53 (the parser's bound), so the padded input
    // fits; a window wider than int64 covers more than any input: no output.
    const std::int64_t padded = in + 2 * padding;
    const auto reach = checked_mul(dilation, kernel - 1);
    if (!reach || *reach >= padded) return 0;
    return (padded - *reach - 1) / stride + 1;
}

namespace {

TensorShape output_shape(const Layer& layer, const std::vector<NamedShape>& inputs,
                         const std::string& key_path) {
    const NamedShape& first = inputs.front();
    switch (layer.type) {
        case LayerType::conv: {
            const auto& conv = std::get<ConvAttributes>(layer.attributes);
            if (first.shape.channels % conv.groups != 0) {
                fail(layer, key_path,
                     fmt::format("groups {} does not divide the {} channels of input `{}`",
                                 conv.groups, first.shape.channels, first.producer),
                     "groups that divide both the input and the output channels");
            }
            TensorShape out = window_output(layer, first, conv.kernel, conv.stride, conv.padding,
                                            conv.dilation, key_path);
            out.channels = conv.out_channels;
            return out;
        }
        case LayerType::maxpool:
        case LayerType::avgpool: {
            const auto& pool = std::get<PoolAttributes>(layer.attributes);
            if (pool.global) return {first.shape.channels, 1, 1};
            return window_output(layer, first, pool.kernel, pool.stride, pool.padding, {1, 1},
                                 key_path);
        }
        case LayerType::fc:
        case LayerType::matmul: {
            const auto& linear = std::get<LinearAttributes>(layer.attributes);
            // fc flattens its input; matmul applies the matrix at every position.
            const bool flattens = layer.type == LayerType::fc;
            const std::int64_t features = flattens ? first.shape.elements() : first.shape.channels;
            if (features % linear.groups != 0) {
                if (!layer.cascade.empty()) {
                    fail(layer, key_path + ".input_routers",
                         fmt::format("input_routers {} does not divide the {} input features "
                                     "of Clos cascade `{}` (input `{}` of shape {})",
                                     linear.groups, features, layer.cascade, first.producer,
                                     to_string(first.shape)),
                         "a number of input routers that divides the input features (each "
                         "router takes input features / input_routers of them)");
                }
                fail(layer, key_path + ".groups",
                     fmt::format("groups {} does not divide the {} input features of `{}`",
                                 linear.groups, features, first.producer),
                     "groups that divide both the input and the output features");
            }
            if (flattens) return {linear.out_features, 1, 1};
            return {linear.out_features, first.shape.height, first.shape.width};
        }
        case LayerType::shuffle: {
            const auto& shuffle = std::get<ShuffleAttributes>(layer.attributes);
            if (first.shape.channels % shuffle.groups != 0) {
                fail(layer, key_path + ".groups",
                     fmt::format("groups {} does not divide the {} channels of input `{}`",
                                 shuffle.groups, first.shape.channels, first.producer),
                     "groups that divide the channels");
            }
            return first.shape;
        }
        case LayerType::einsum:
            return einsum_output(layer, first, key_path);
        case LayerType::lstm_cell: {
            // Reads the 4H gate pre-activations of every step (workload/lstm.hpp).
            const auto& cell = std::get<LstmCellAttributes>(layer.attributes);
            if (first.shape.channels != 4 * cell.hidden_size) {
                fail(layer, key_path + ".hidden_size",
                     fmt::format("input `{}` has {} channels, not the 4 × {} gate "
                                 "pre-activations of hidden_size {}",
                                 first.producer, first.shape.channels, cell.hidden_size,
                                 cell.hidden_size),
                     "an input of 4 × hidden_size channels (write `type: lstm` to have the "
                     "input gates made for you)");
            }
            if (first.shape.height != cell.sequence_length || first.shape.width != 1) {
                fail(layer, key_path + ".sequence_length",
                     fmt::format("sequence_length {} does not match the input sequence of "
                                 "{} time steps × width {} (as read through `{}`, {})",
                                 cell.sequence_length, first.shape.height, first.shape.width,
                                 first.producer, to_string(first.shape)),
                     fmt::format("an input sequence of height sequence_length ({}) and width 1",
                                 cell.sequence_length),
                     "declare the sequence as the input's height, e.g. {name: frames, channels: "
                     "153, height: 20}");
            }
            return {cell.hidden_size, cell.sequence_length, 1};
        }
        case LayerType::relu:
        case LayerType::batchnorm:
            return first.shape;
        case LayerType::add: {
            for (const NamedShape& other : inputs) {
                if (other.shape != first.shape) {
                    fail(layer, key_path,
                         fmt::format("shape mismatch: input `{}` is {} but input `{}` is {}",
                                     first.producer, to_string(first.shape), other.producer,
                                     to_string(other.shape)),
                         "inputs of one shape", "insert a projection (1×1 conv) on one branch");
                }
            }
            return first.shape;
        }
        case LayerType::concat: {
            TensorShape out = first.shape;
            out.channels = 0;
            for (const NamedShape& other : inputs) {
                if (other.shape.height != first.shape.height ||
                    other.shape.width != first.shape.width) {
                    fail(layer, key_path,
                         fmt::format("shape mismatch: input `{}` is {} but input `{}` is {}",
                                     first.producer, to_string(first.shape), other.producer,
                                     to_string(other.shape)),
                         "inputs with equal height and width (channels may differ)");
                }
                const auto channels = checked_add(out.channels, other.shape.channels);
                if (!channels) {
                    fail(layer, key_path, "the concatenated channels exceed 2^63",
                         "tensors of representable size");
                }
                out.channels = *channels;
            }
            return out;
        }
    }
    return first.shape;
}

}  // namespace

TensorShape infer_output_shape(const Layer& layer, const std::vector<NamedShape>& inputs,
                               const std::string& key_path) {
    const TensorShape out = output_shape(layer, inputs, key_path);
    if (!count_product(std::array{out.channels, out.height, out.width})) {
        fail(layer, key_path,
             fmt::format("its output of shape {} has more than {} elements", to_string(out),
                         kMaxCountText),
             "tensors of at most 2^53 elements per sample");
    }
    return out;
}

}  // namespace trainloop
