// PeArray: the 2-D array of processing elements and their arithmetic. Plain
// value; the parser guarantees positive rows, columns and MACs per PE, and a
// MAC component of the library whose operand width is the datatype's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace trainloop {

enum class Datatype : std::uint8_t { fp32, fp16, bf16, int32, int16, int8 };
inline constexpr std::array<std::string_view, 6> kDatatypeNames = {"fp32",  "fp16",  "bf16",
                                                                   "int32", "int16", "int8"};

constexpr std::string_view datatype_name(Datatype d) {
    return kDatatypeNames[static_cast<std::size_t>(d)];
}

// Bits of one value of the datatype.
constexpr std::int64_t datatype_bits(Datatype d) {
    constexpr std::array<std::int64_t, 6> bits = {32, 16, 16, 32, 16, 8};
    return bits[static_cast<std::size_t>(d)];
}

// Whether the training phases share the PEs' datapath (one after another)
// or each has units of its own, working on successive samples (CloNets,
// Isakov et al., FPL 2018, §III and Fig. 7: a PE's forward, backward and
// weight-update units): then a training step takes as long as its slowest
// phase, not the sum of the three.
enum class PhaseUnits : std::uint8_t { shared, separate };
inline constexpr std::array<std::string_view, 2> kPhaseUnitsNames = {"shared", "separate"};

constexpr std::string_view phase_units_name(PhaseUnits u) {
    return kPhaseUnitsNames[static_cast<std::size_t>(u)];
}

struct PeArray {
    std::int64_t rows = 1;     // PEs along y
    std::int64_t columns = 1;  // PEs along x
    std::int64_t macs_per_pe = 1;
    Datatype datatype = Datatype::fp32;
    // The component-library entry (class mac) that prices one MAC.
    std::string mac_component;
    PhaseUnits phase_units = PhaseUnits::shared;  // `phase_units:`

    std::int64_t num_pes() const { return rows * columns; }
    std::int64_t num_macs() const { return num_pes() * macs_per_pe; }
    std::int64_t word_bits() const { return datatype_bits(datatype); }
};

}  // namespace trainloop
