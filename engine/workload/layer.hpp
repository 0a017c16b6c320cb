// A layer of a network as written in its YAML file (docs/workload_format.md).
// MAC layers (conv, fc, matmul, lstm_cell) become iteration spaces; the others
// (relu, batch norm, pooling, add, concat, shuffle) only shape the data that
// flows between them. A Clos cascade (`clos_fc` in a file) is no layer type of
// its own: the parser expands it into grouped fc and shuffle layers
// (workload/clos_cascade.hpp); an LSTM (`lstm`) likewise becomes a matmul for
// its input gates and an lstm_cell for its recurrence (workload/lstm.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/spec_error.hpp"
#include "vocabulary/extent2.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

enum class LayerType : std::uint8_t {
    conv,
    fc,
    matmul,
    relu,
    batchnorm,
    maxpool,
    avgpool,
    add,
    concat,
    shuffle,
    lstm_cell,
    einsum
};

std::string_view layer_type_name(LayerType type);
std::optional<LayerType> layer_type_from_name(std::string_view name);
const std::vector<std::string>& layer_type_names();

// Does the layer multiply-accumulate with weights (and so train them)?
bool is_mac_layer(LayerType type);
// Does the layer read its own previous output (so its bw phase, back-propagation
// through time, is needed whatever feeds it)?
bool is_recurrent(LayerType type);
// Does the layer have trainable parameters (MAC weights, or batch-norm scale/shift)?
bool has_parameters(LayerType type);

struct ConvAttributes {
    std::int64_t out_channels = 0;
    Extent2 kernel;
    Extent2 stride{1, 1};
    Extent2 padding{0, 0};
    Extent2 dilation{1, 1};
    std::int64_t groups = 1;
};

struct PoolAttributes {
    bool global = false;
    Extent2 kernel;
    Extent2 stride;
    Extent2 padding{0, 0};
};

// fc (flattens its input) and matmul (applies the matrix at every position).
// With groups g the weight matrix is block-diagonal: g independent blocks of
// (in/g) × (out/g), as a grouped convolution's G dimension.
struct LinearAttributes {
    std::int64_t out_features = 0;
    std::int64_t groups = 1;
};

// A channel shuffle (Zhang et al., ShuffleNet, CVPR 2018, §3.1): the C
// channels read as a groups × (C/groups) matrix are transposed. Weightless.
struct ShuffleAttributes {
    std::int64_t groups = 1;
};

// The recurrent half of an LSTM (workload/lstm.hpp): h_{t-1} × W_h added to
// the input gates it reads, then the elementwise cell update, for each of
// sequence_length steps. Reads 4·hidden_size gate channels, writes hidden_size.
struct LstmCellAttributes {
    std::int64_t hidden_size = 0;
    std::int64_t sequence_length = 0;
};

// An operation written as an einsum (vocabulary/einsum.hpp, docs/workload_format.md):
// Z[...] += W[...] · X[...], W a trained weight, X the layer's input. The
// run's minibatch is the size of `batch`, which indexes X and Z but not W.
struct EinsumAttributes {
    std::string equation;  // as written
    ProblemShape shape;
    PerDim<std::int64_t> sizes{};  // each dimension's size; 1 for a slot the shape leaves unused
    Dim batch = Dim::N;            // its size is the minibatch, not `sizes`
    friend bool operator==(const EinsumAttributes&, const EinsumAttributes&) = default;
};

using LayerAttributes =
    std::variant<std::monostate, ConvAttributes, PoolAttributes, LinearAttributes,
                 ShuffleAttributes, LstmCellAttributes, EinsumAttributes>;

struct Layer {
    std::string name;
    LayerType type = LayerType::relu;
    std::vector<std::string> inputs;
    LayerAttributes attributes;
    SourceLocation location;  // where the layer is written, for errors
    // The `clos_fc` entry this layer is a stage of (empty: written as itself).
    std::string cascade;
    // Its entry's index in the file's `layers` list (an expanded `clos_fc` or
    // `lstm` gives several layers one entry), for error key paths.
    std::size_t entry = 0;
};

}  // namespace trainloop
