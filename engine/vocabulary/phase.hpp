// Training phases and the tensors they touch (Procrustes §II-A; docs/design.md,
// "One iteration space, three phases").
// All three phases iterate over one space; what differs is which tensor is
// produced (reduced into) and which two are read:
//   fw: y  += w · x      (output: y,  outputs space)
//   bw: dx += w · dy     (output: dx, inputs space)
//   wu: dw += x · dy     (output: dw, weights space)
// A "data space" is one of the three index projections of the iteration
// space (weights [g,k,c,r,s], inputs [n,g,c,h,w], outputs [n,g,k,p,q]); each
// phase puts one tensor on each data space.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace trainloop {

enum class Phase : std::uint8_t { fw, bw, wu };
inline constexpr std::array<Phase, 3> kAllPhases = {Phase::fw, Phase::bw, Phase::wu};

enum class DataSpace : std::uint8_t { weights, inputs, outputs };
inline constexpr std::array<DataSpace, 3> kAllDataSpaces = {DataSpace::weights, DataSpace::inputs,
                                                            DataSpace::outputs};

// The six tensors of training one layer.
enum class TensorName : std::uint8_t { w, x, y, dw, dx, dy };
inline constexpr std::array<TensorName, 6> kAllTensorNames = {
    TensorName::w, TensorName::x, TensorName::y, TensorName::dw, TensorName::dx, TensorName::dy};

constexpr std::string_view phase_name(Phase p) {
    constexpr std::array<std::string_view, 3> names = {"fw", "bw", "wu"};
    return names[static_cast<std::size_t>(p)];
}
constexpr std::string_view data_space_name(DataSpace s) {
    constexpr std::array<std::string_view, 3> names = {"weights", "inputs", "outputs"};
    return names[static_cast<std::size_t>(s)];
}
constexpr std::string_view tensor_name(TensorName t) {
    constexpr std::array<std::string_view, 6> names = {"w", "x", "y", "dw", "dx", "dy"};
    return names[static_cast<std::size_t>(t)];
}

constexpr std::optional<Phase> phase_from_name(std::string_view name) {
    for (Phase p : kAllPhases) {
        if (phase_name(p) == name) return p;
    }
    return std::nullopt;
}
constexpr std::optional<DataSpace> data_space_from_name(std::string_view name) {
    for (DataSpace s : kAllDataSpaces) {
        if (data_space_name(s) == name) return s;
    }
    return std::nullopt;
}
constexpr std::optional<TensorName> tensor_from_name(std::string_view name) {
    for (TensorName t : kAllTensorNames) {
        if (tensor_name(t) == name) return t;
    }
    return std::nullopt;
}

// The data space a tensor lives on (w and dw share the weights' shape, ...).
constexpr DataSpace data_space_of(TensorName t) {
    switch (t) {
        case TensorName::w:
        case TensorName::dw:
            return DataSpace::weights;
        case TensorName::x:
        case TensorName::dx:
            return DataSpace::inputs;
        case TensorName::y:
        case TensorName::dy:
            return DataSpace::outputs;
    }
    return DataSpace::weights;
}

// Which tensor a phase puts on a data space (Procrustes fig. 3).
constexpr TensorName tensor_in_phase(Phase p, DataSpace s) {
    constexpr TensorName table[3][3] = {
        /* fw */ {TensorName::w, TensorName::x, TensorName::y},
        /* bw */ {TensorName::w, TensorName::dx, TensorName::dy},
        /* wu */ {TensorName::dw, TensorName::x, TensorName::dy},
    };
    return table[static_cast<std::size_t>(p)][static_cast<std::size_t>(s)];
}

// The data space a phase reduces into (its output).
constexpr DataSpace output_space(Phase p) {
    constexpr DataSpace outputs[3] = {DataSpace::outputs, DataSpace::inputs, DataSpace::weights};
    return outputs[static_cast<std::size_t>(p)];
}

}  // namespace trainloop
