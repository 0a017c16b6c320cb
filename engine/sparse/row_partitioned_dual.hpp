// Chen et al.'s (2024) dual row-partitioned format (§IV-B.1, §IV-C, eqs. 5–10): every
// row of a tile is stored as RP-CSR (a row header, then a column index per
// nonzero) or as RP-BF (a bitmap of the row), whichever is smaller for that
// row's nonzero count; the nonzero values follow in both. The switch point
// comes out of the sizes, not a constant:
//   RP-CSR row: h + c·n bits (eqs. 5–7 per row), RP-BF row: L bits (eqs. 8–9),
//   RP-BF wins when n > (L - h)/c, i.e. when the row's density exceeds
//   1/c - h/(c·L); with the paper's h = c = 8 bits that is a sparsity below
//   0.875 + 1/L (eq. 10: "≈ 88 %").
//
// Contract: pure, allocation-free; the expectation over a row's nonzero
// count is a bounded loop for short rows and a normal approximation for long
// ones.
#pragma once

#include <cstdint>

#include "sparse/tile_occupancy.hpp"

namespace trainloop {

// The metadata fields of one row (format_layout.hpp derives them from the tile).
struct RowFormatFields {
    std::int64_t row_length = 1;         // L: elements per row, one bitmap bit each
    std::int64_t row_header_bits = 0;    // h: RP-CSR's per-row header
    std::int64_t column_index_bits = 0;  // c: RP-CSR's index per nonzero
};

// Metadata bits of one row holding `nonzeros` nonzeros in each format.
constexpr double rp_csr_row_bits(const RowFormatFields& f, double nonzeros) {
    return double(f.row_header_bits) + double(f.column_index_bits) * nonzeros;
}
constexpr double rp_bf_row_bits(const RowFormatFields& f) { return double(f.row_length); }

// The fraction of a row's elements that are nonzero above which the row is
// stored as RP-BF (Chen et al. 2024 eq. 10 in density terms: 1 - S_threshold).
// 0 when RP-BF always wins, 1 when RP-CSR always does.
double rp_bf_switch_density(const RowFormatFields& f);

// E[min(RP-CSR, RP-BF)] metadata bits of one row whose nonzero count has the
// moments of `row` (tile_occupancy() of one row): binomial when the model is
// no more spread than Bernoulli elements, beta-binomial when it is more
// (clustered), normal beyond kExactRowLength elements.
double expected_rp_dual_row_bits(const RowFormatFields& f, const TileOccupancy& row);

// Rows up to this length are summed exactly over their nonzero counts.
inline constexpr std::int64_t kExactRowLength = 64;

}  // namespace trainloop
