// Chen et al.'s (2024) dual RP-CSR / RP-BF format (engine/sparse/row_partitioned_dual.hpp):
// the per-row switch point of eqs. 5–10, and the expected size against the
// single formats and exact sums.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "format_test_support.hpp"
#include "sparse/format_layout.hpp"
#include "sparse/row_partitioned_dual.hpp"

namespace trainloop {
namespace {

using format_test::size;
using format_test::tile;

TEST(RpDualSwitch, ReproducesSeed003Eq10WithThePapersParameters) {
    // Chen et al. 2024 §IV-B.1: 8-bit column indices and 8-bit row entries, one bitmap
    // bit per element, rows of X = 500 (its fig. 3). A row is RP-BF below the
    // threshold sparsity 0.875 + 1/X (eq. 10), "≈ 88 %".
    const RowFormatFields paper{500, 8, 8};
    const double threshold_sparsity = 1 - rp_bf_switch_density(paper);
    EXPECT_NEAR(threshold_sparsity, 0.875 + 1.0 / 500, 1e-12);
    EXPECT_NEAR(threshold_sparsity, 0.88, 0.005);
    // Eq. 10's limit for wide matrices.
    EXPECT_NEAR(1 - rp_bf_switch_density({1'000'000, 8, 8}), 0.875, 1e-5);
}

TEST(RpDualSwitch, FollowsTheFieldWidthsOfTheTile) {
    // Rows of 255: 8-bit column indices (0..254) and 8-bit headers (0..255
    // nonzeros): exactly the paper's fields, so eq. 10 with X = 255.
    const FormatLayout f = format_layout(tile({16, 255}));
    const RowFormatFields row{f.row_length, f.row_header_bits, f.column_index_bits};
    EXPECT_EQ(row.column_index_bits, 8);
    EXPECT_EQ(row.row_header_bits, 8);
    EXPECT_NEAR(1 - rp_bf_switch_density(row), 0.875 + 1.0 / 255, 1e-12);
    // Rows of 500 need 9-bit fields, which move the threshold to 1 - 491/4500.
    const FormatLayout g = format_layout(tile({16, 500}));
    EXPECT_NEAR(1 - rp_bf_switch_density({g.row_length, g.row_header_bits, g.column_index_bits}),
                1 - 491.0 / 4500, 1e-12);
}

TEST(RpDualSwitch, IndexBitsGiveThePapersFieldsOnAnyRow) {
    // `index_bits: 8` (Chen et al. 2024 eqs. 7-8): 8-bit headers and column
    // indices on rows of any length, so eq. 10 holds for rows of 500 too, and
    // for the short rows of a 3 x 3 kernel, where the tile alone needs 2 bits.
    for (const std::int64_t x : {3, 14, 500}) {
        const FormatLayout f = format_layout(tile({16, x}), 8);
        EXPECT_EQ(f.column_index_bits, 8) << x;
        EXPECT_EQ(f.row_header_bits, 8) << x;
        EXPECT_EQ(f.row_pointer_bits, 8) << x;
        EXPECT_NEAR(
            1 - rp_bf_switch_density({f.row_length, f.row_header_bits, f.column_index_bits}),
            std::min(1.0, 0.875 + 1.0 / double(x)), 1e-12)
            << x;
    }
}

TEST(CsrWithIndexBits, IsEq5OfSeed003PlusOneRowPointer) {
    // Eqs. 5-7: 32 bits per nonzero, 8 per column index, 8 per row; trainloop's
    // CSR keeps R + 1 row pointers (offsets 0..E), one more than eq. 7's Y.
    const TensorTile t = tile({20, 500});
    for (const double density : {0.05, 0.3, 0.9}) {
        const CompressedSize s = compressed_size(CompressedFormat::csr, t, DataSpace::weights,
                                                 density, UniformModel{}, 32, 8);
        const double n = density * 20 * 500;
        EXPECT_NEAR(s.data_words, n, 1e-9);
        EXPECT_NEAR(s.metadata_bits, 8 * n + 8 * (20 + 1), 1e-9) << density;
    }
}

// The single formats over a whole tile: every row RP-CSR, or every row RP-BF.
double rp_csr_alone(const TensorTile& t, double density) {
    const FormatLayout f = format_layout(t);
    return double(f.rows) * rp_csr_row_bits({f.row_length, f.row_header_bits, f.column_index_bits},
                                            density * double(f.row_length));
}
double rp_bf_alone(const TensorTile& t) { return double(t.elements()); }

TEST(RpDual, IsNeverLargerThanEitherFormatAlone) {
    for (const TensorTile& t : {tile({4, 8}), tile({16, 255}), tile({2, 1000}),
                                tile({1, 4, 2, 3, 3}), tile({1, 8, 64, 1, 1})}) {
        for (int i = 0; i <= 100; ++i) {
            const double d = i / 100.0;
            const double dual = size(CompressedFormat::rp_dual, t, d).metadata_bits;
            EXPECT_LE(dual, rp_csr_alone(t, d) * (1 + 1e-12))
                << t.elements() << " elements, density " << d;
            EXPECT_LE(dual, rp_bf_alone(t) * (1 + 1e-12))
                << t.elements() << " elements, density " << d;
        }
    }
}

TEST(RpDual, MixesFormatsNearTheSwitchAndTakesOneFarFromIt) {
    const TensorTile t = tile({16, 255});
    const double at_switch = 1 - (0.875 + 1.0 / 255);
    const double mixed = size(CompressedFormat::rp_dual, t, at_switch).metadata_bits;
    // Rows on both sides of the switch: clearly below both single formats.
    EXPECT_LT(mixed, std::min(rp_csr_alone(t, at_switch), rp_bf_alone(t)) - 16 * 2.0);
    // Far from the switch every row takes the same format.
    EXPECT_NEAR(size(CompressedFormat::rp_dual, t, 0.5).metadata_bits, rp_bf_alone(t), 1e-6);
    EXPECT_NEAR(size(CompressedFormat::rp_dual, t, 0.004).metadata_bits, rp_csr_alone(t, 0.004),
                1e-6);
}

// E[min(h + c·n, L)] for n ~ Binomial(L, p), summed exactly.
double exact_binomial_row_bits(const RowFormatFields& f, double p) {
    const double L = double(f.row_length);
    double sum = 0;
    for (std::int64_t n = 0; n <= f.row_length; ++n) {
        const double log_pmf = std::lgamma(L + 1) - std::lgamma(double(n) + 1) -
                               std::lgamma(L - double(n) + 1) + double(n) * std::log(p) +
                               (L - double(n)) * std::log1p(-p);
        sum += std::exp(log_pmf) * std::min(rp_csr_row_bits(f, double(n)), rp_bf_row_bits(f));
    }
    return sum;
}

TEST(RpDual, NormalApproximationOfLongRowsIsWithinPointFourPercentOfTheExactSum) {
    double worst = 0;
    for (std::int64_t L : {65, 100, 255, 1000, 4096}) {
        const FormatLayout f = format_layout(tile({1, L}));
        const RowFormatFields row{f.row_length, f.row_header_bits, f.column_index_bits};
        for (double p : {0.01, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.5, 0.9}) {
            const double exact = exact_binomial_row_bits(row, p);
            const TileOccupancy occupancy{p * double(L), p * (1 - p) * double(L), 0};
            const double approx = expected_rp_dual_row_bits(row, occupancy);
            worst = std::max(worst, std::abs(approx - exact) / exact);
            EXPECT_NEAR(approx, exact, 0.004 * exact) << "row of " << L << ", density " << p;
        }
    }
    RecordProperty("worst_relative_error", std::to_string(worst));
}

TEST(RpDual, ShortRowsAreSummedExactly) {
    const RowFormatFields row{8, 4, 3};
    for (double p : {0.1, 0.25, 0.6, 0.9}) {
        EXPECT_NEAR(expected_rp_dual_row_bits(row, {8 * p, 8 * p * (1 - p), 0}),
                    exact_binomial_row_bits(row, p), 1e-12)
            << "density " << p;
    }
}

TEST(RpDual, MoreSpreadRowsChooseBetterPerRow) {
    // The per-row minimum is concave in n, so spreading nonzeros unevenly over
    // rows (clustered models) lowers its expectation; all-or-nothing rows
    // (the largest variance, L²·p·(1-p)) are 3/4 empty (4 bits) and 1/4 full (8).
    const RowFormatFields row{8, 4, 3};
    double previous = expected_rp_dual_row_bits(row, {2, 1.5, 0});
    for (double variance : {3.0, 6.0, 9.0, 12.0}) {
        const double bits = expected_rp_dual_row_bits(row, {2, variance, 0});
        EXPECT_LT(bits, previous) << "variance " << variance;
        previous = bits;
    }
    EXPECT_NEAR(previous, 0.75 * 4 + 0.25 * 8, 1e-9);
    // Long rows see the spread through the normal approximation.
    const RowFormatFields wide{255, 8, 8};
    EXPECT_LT(expected_rp_dual_row_bits(wide, {30, 200, 0}),
              expected_rp_dual_row_bits(wide, {30, 26, 0}));
}

}  // namespace
}  // namespace trainloop
