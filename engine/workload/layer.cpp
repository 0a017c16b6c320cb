#include "workload/layer.hpp"

#include <array>

namespace trainloop {
namespace {

constexpr std::array<std::string_view, 12> kLayerTypeNames = {
    "conv",    "fc",  "matmul", "relu",    "batchnorm", "maxpool",
    "avgpool", "add", "concat", "shuffle", "lstm_cell", "einsum"};

}  // namespace

std::string_view layer_type_name(LayerType type) {
    return kLayerTypeNames[static_cast<std::size_t>(type)];
}

std::optional<LayerType> layer_type_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kLayerTypeNames.size(); ++i) {
        if (kLayerTypeNames[i] == name) return static_cast<LayerType>(i);
    }
    return std::nullopt;
}

const std::vector<std::string>& layer_type_names() {
    static const std::vector<std::string> names(kLayerTypeNames.begin(), kLayerTypeNames.end());
    return names;
}

bool is_mac_layer(LayerType type) {
    return type == LayerType::conv || type == LayerType::fc || type == LayerType::matmul ||
           type == LayerType::lstm_cell || type == LayerType::einsum;
}

bool is_recurrent(LayerType type) { return type == LayerType::lstm_cell; }

bool has_parameters(LayerType type) { return is_mac_layer(type) || type == LayerType::batchnorm; }

}  // namespace trainloop
