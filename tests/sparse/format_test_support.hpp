// Tiles and helpers shared by the compressed-format tests.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>

#include "sparse/compressed_format.hpp"

namespace trainloop::format_test {

inline constexpr std::array<CompressedFormat, 7> kAllFormats = {
    CompressedFormat::uncompressed, CompressedFormat::bitmap, CompressedFormat::csr,
    CompressedFormat::rle,          CompressedFormat::coo,    CompressedFormat::csb,
    CompressedFormat::rp_dual};

// A tile with the given extents along its axes (rank = their count).
inline TensorTile tile(std::initializer_list<std::int64_t> extents) {
    TensorTile t;
    t.rank = std::uint8_t(extents.size());
    std::uint8_t a = 0;
    for (std::int64_t e : extents) t.extent[a++] = e;
    return t;
}

inline CompressedSize size(CompressedFormat format, const TensorTile& t, double density,
                           std::int64_t word_bits = 32) {
    return compressed_size(format, t, DataSpace::weights, density, UniformModel{}, word_bits);
}

inline double crossover(CompressedFormat format, const TensorTile& t, std::int64_t word_bits = 32) {
    return crossover_density(format, t, DataSpace::weights, UniformModel{}, word_bits);
}

}  // namespace trainloop::format_test
