// Compressed formats (engine/sparse/compressed_format.hpp): hand-computed
// sizes of small tiles, properties over densities, and the crossover
// densities the metadata implies.
#include <gtest/gtest.h>

#include <cmath>

#include "format_test_support.hpp"
#include "sparse/format_layout.hpp"
#include "sparse/row_partitioned_dual.hpp"

namespace trainloop {
namespace {

using format_test::crossover;
using format_test::kAllFormats;
using format_test::size;
using format_test::tile;

// ---- Geometry ------------------------------------------------------------

TEST(TensorTileRows, RunAlongTheInnermostAxisLongerThanOne) {
    const TensorTile fc = tile({1, 8, 16, 1, 1});  // an FC weight tile [g, k, c, r, s]
    EXPECT_EQ(fc.row_axis(), 2);
    EXPECT_EQ(fc.row_length(), 16);
    EXPECT_EQ(fc.rows(), 8);
    EXPECT_EQ(fc.one_row(), tile({1, 1, 16, 1, 1}));
    const TensorTile conv = tile({1, 4, 2, 3, 3});
    EXPECT_EQ(conv.row_length(), 3);
    EXPECT_EQ(conv.rows(), 24);
    const TensorTile scalar = tile({1, 1, 1, 1, 1});
    EXPECT_EQ(scalar.row_axis(), 4);
    EXPECT_EQ(scalar.row_length(), 1);
}

TEST(FormatLayout, FieldsAreAsWideAsTheLargestValueTheyHold) {
    EXPECT_EQ(bits_for_values(1), 0);
    EXPECT_EQ(bits_for_values(2), 1);
    EXPECT_EQ(bits_for_values(8), 3);
    EXPECT_EQ(bits_for_values(9), 4);
    const FormatLayout f = format_layout(tile({4, 8}));
    EXPECT_EQ(f.elements, 32);
    EXPECT_EQ(f.rows, 4);
    EXPECT_EQ(f.row_length, 8);
    EXPECT_EQ(f.column_index_bits, 3);    // columns 0..7
    EXPECT_EQ(f.row_pointer_bits, 6);     // offsets 0..32
    EXPECT_EQ(f.coordinate_bits, 2 + 3);  // rows 0..3, columns 0..7
    EXPECT_EQ(f.count_bits, 6);           // 0..32 nonzeros
    EXPECT_EQ(f.run_length_bits, 5);      // runs 0..31: any run of the tile
    EXPECT_EQ(f.block_elements, 32);      // both axes: the whole tile
    EXPECT_EQ(f.block_pointer_bits, 5);   // offsets 0..31
    EXPECT_EQ(f.row_header_bits, 4);      // 0..8 nonzeros in a row
    const FormatLayout conv = format_layout(tile({1, 4, 2, 3, 3}));
    EXPECT_EQ(conv.block_elements, 9);  // Procrustes' block: one 3×3 kernel
    EXPECT_EQ(conv.block_pointer_bits, 7);
    const FormatLayout one = format_layout(tile({1, 1, 1, 1, 1}));
    EXPECT_EQ(one.column_index_bits, 0);
    EXPECT_EQ(one.run_length_bits, 1);  // a run field has at least one bit
}

// ---- Hand-computed sizes of a 4×8 tile at density 1/4 (8 nonzeros) --------

void expect_size(CompressedFormat format, const TensorTile& t, double density, double data_words,
                 double metadata_bits) {
    const CompressedSize s = size(format, t, density);
    EXPECT_NEAR(s.data_words, data_words, 1e-9) << compressed_format_name(format);
    EXPECT_NEAR(s.metadata_bits, metadata_bits, 1e-9) << compressed_format_name(format);
}

const TensorTile k4x8 = tile({4, 8});

TEST(CompressedSize, Uncompressed4x8KeepsEveryElementAndNoMetadata) {
    expect_size(CompressedFormat::uncompressed, k4x8, 0.25, 32, 0);
}

TEST(CompressedSize, Bitmap4x8IsOneBitPerElement) {
    expect_size(CompressedFormat::bitmap, k4x8, 0.25, 8, 32);
}

TEST(CompressedSize, Csr4x8HasFiveRowPointersAndAColumnIndexPerNonzero) {
    expect_size(CompressedFormat::csr, k4x8, 0.25, 8, 5 * 6 + 8 * 3);
}

TEST(CompressedSize, Coo4x8HasBothCoordinatesPerNonzeroAndACount) {
    expect_size(CompressedFormat::coo, k4x8, 0.25, 8, 6 + 8 * (2 + 3));
}

TEST(CompressedSize, Csb4x8IsOneBlockWithItsMaskAndPointer) {
    expect_size(CompressedFormat::csb, k4x8, 0.25, 8, 32 + 5);
}

TEST(CompressedSize, CsbOfConvWeightsHasAPointerPerKernel) {
    // [g, k, c, r, s] = [1, 4, 2, 3, 3]: 8 kernels of 9 weights; d = 1/2.
    expect_size(CompressedFormat::csb, tile({1, 4, 2, 3, 3}), 0.5, 36, 72 + 8 * 7);
}

TEST(CompressedSize, Rle4x8SizedFromTheTileNeverPads) {
    // 5-bit runs hold any run of 32 elements: one run field per nonzero, as
    // Sparseloop's RLE without a stated width counts it.
    expect_size(CompressedFormat::rle, k4x8, 0.25, 8, 5 * 8);
}

TEST(CompressedSize, Rle4x8WithThreeBitRunsPadsRunsOfEightZeros) {
    // `index_bits: 3`: runs hold 0..7 zeros; a nonzero at position i needs one
    // padding entry per 8 zeros before it: Σ_i d·Σ_{8k ≤ i} q^(8k)
    //   = d·(24·Q + 16·Q² + 8·Q³), Q = (3/4)^8.
    const double Q = std::pow(0.75, 8);
    const double padding = 0.25 * (24 * Q + 16 * Q * Q + 8 * Q * Q * Q);
    const CompressedSize s = compressed_size(CompressedFormat::rle, k4x8, DataSpace::weights, 0.25,
                                             UniformModel{}, 32, /*index_bits=*/3);
    EXPECT_NEAR(s.data_words, 8 + padding, 1e-9);
    EXPECT_NEAR(s.metadata_bits, 3 * (8 + padding), 1e-9);
}

TEST(CompressedSize, RpDual4x8TakesTheSmallerFormatPerRow) {
    // Per row: RP-CSR = 4-bit header + 3 bits per nonzero, RP-BF = 8 bits.
    // n = 0 → 4, n = 1 → 7, n ≥ 2 → 8 (RP-BF); n ~ Binomial(8, 1/4).
    const double p0 = std::pow(0.75, 8);
    const double p1 = 8 * 0.25 * std::pow(0.75, 7);
    const double per_row = 4 * p0 + 7 * p1 + 8 * (1 - p0 - p1);
    expect_size(CompressedFormat::rp_dual, k4x8, 0.25, 8, 4 * per_row);
}

TEST(CompressedSize, CsrOfAnFcTileHasRowsAlongInputChannels) {
    // [1, k=8, c=16, 1, 1] at d = 1/2: 64 nonzeros, 9 pointers of 8 bits
    // (0..128), 4-bit column indices.
    expect_size(CompressedFormat::csr, tile({1, 8, 16, 1, 1}), 0.5, 64, 9 * 8 + 64 * 4);
}

TEST(CompressedSize, WordsPackMetadataIntoWords) {
    const CompressedSize s = size(CompressedFormat::bitmap, k4x8, 0.25);
    EXPECT_DOUBLE_EQ(s.words(32), 8 + 1);
    EXPECT_DOUBLE_EQ(s.words(16), 8 + 2);
}

// ---- Properties over densities -------------------------------------------

const TensorTile kTiles[] = {
    tile({4, 8}),          tile({1, 4, 2, 3, 3}), tile({1, 8, 16, 1, 1}), tile({64, 64}),
    tile({1, 1, 1, 1, 1}), tile({3, 255}),        tile({2, 1000}),        tile({16, 16, 7, 7}),
};

TEST(CompressedSize, UncompressedNeverChangesWithDensity) {
    for (const TensorTile& t : kTiles) {
        for (int i = 0; i <= 100; ++i) {
            const CompressedSize s = size(CompressedFormat::uncompressed, t, i / 100.0);
            EXPECT_EQ(s.data_words, double(t.elements())) << "density " << i / 100.0;
            EXPECT_EQ(s.metadata_bits, 0.0) << "density " << i / 100.0;
        }
    }
}

TEST(CompressedSize, EveryFormatGrowsWithDensity) {
    for (CompressedFormat format : kAllFormats) {
        for (const TensorTile& t : kTiles) {
            double previous = -1;
            for (int i = 0; i <= 200; ++i) {
                const double d = i / 200.0;
                const double words = size(format, t, d).words(32);
                EXPECT_GE(words, previous - 1e-9 * previous)
                    << compressed_format_name(format) << " on a " << t.elements()
                    << "-element tile at density " << d;
                previous = words;
            }
        }
    }
}

TEST(CompressedSize, EmptyTilesKeepOnlyFixedMetadata) {
    const TensorTile t = tile({64, 64});
    const FormatLayout f = format_layout(t);
    expect_size(CompressedFormat::bitmap, t, 0, 0, 4096);
    expect_size(CompressedFormat::csr, t, 0, 0, 65.0 * double(f.row_pointer_bits));
    expect_size(CompressedFormat::coo, t, 0, 0, double(f.count_bits));
    expect_size(CompressedFormat::rle, t, 0, 0, 0);
    expect_size(CompressedFormat::rp_dual, t, 0, 0, 64.0 * double(f.row_header_bits));
}

// ---- Crossovers -------------------------------------------------------------

TEST(CrossoverDensity, BitmapCrossesAtOneMinusOneOverWordBits) {
    for (const TensorTile& t : {tile({4, 8}), tile({64, 64}), tile({1, 4, 2, 3, 3})}) {
        EXPECT_NEAR(crossover(CompressedFormat::bitmap, t, 32), 31.0 / 32, 1e-12);
        EXPECT_NEAR(crossover(CompressedFormat::bitmap, t, 16), 15.0 / 16, 1e-12);
        EXPECT_NEAR(crossover(CompressedFormat::bitmap, t, 8), 7.0 / 8, 1e-12);
    }
}

// Formats whose metadata is fixed bits F plus I bits per nonzero: compressed
// n·(1 + I/w) + F/w words against E, so they cross at
// d* = (1 - F/(w·E)) / (1 + I/w): where the index bits per nonzero exceed
// what dropping zeros saves.
double linear_crossover(double fixed_bits, double bits_per_nonzero, double elements, double w) {
    return (1 - fixed_bits / (w * elements)) / (1 + bits_per_nonzero / w);
}

TEST(CrossoverDensity, CsrCrossesWhereItsIndicesCostWhatZerosSave) {
    for (const TensorTile& t : kTiles) {
        const FormatLayout f = format_layout(t);
        for (std::int64_t w : {8, 16, 32}) {
            const double expected = std::max(
                0.0, linear_crossover(double((f.rows + 1) * f.row_pointer_bits),
                                      double(f.column_index_bits), double(f.elements), double(w)));
            EXPECT_NEAR(crossover(CompressedFormat::csr, t, w), expected, 1e-12)
                << t.elements() << "-element tile, " << w << "-bit words";
        }
    }
    // A 64×64 FP32 tile: 65 pointers of 13 bits, 6-bit column indices.
    EXPECT_NEAR(crossover(CompressedFormat::csr, tile({64, 64})),
                (1 - 845.0 / (32 * 4096)) / (1 + 6.0 / 32), 1e-12);
}

TEST(CrossoverDensity, RleSizedFromTheTileCrossesWhereItsRunFieldsCostWhatZerosSave) {
    // No padding: n·(1 + b/w) words, b = bits(E); docs/sparse_formats.md's table.
    for (const TensorTile& t : kTiles) {
        const FormatLayout f = format_layout(t);
        EXPECT_NEAR(crossover(CompressedFormat::rle, t),
                    linear_crossover(0, double(f.run_length_bits), double(f.elements), 32), 1e-12)
            << t.elements() << " elements";
    }
    // Conv weights [1,16,16,3,3]: 2,304 elements, 12-bit runs.
    EXPECT_NEAR(crossover(CompressedFormat::rle, tile({1, 16, 16, 3, 3})), 32.0 / 44, 1e-12);
}

TEST(CrossoverDensity, CooCrossesWhereItsCoordinatesCostWhatZerosSave) {
    for (const TensorTile& t : kTiles) {
        const FormatLayout f = format_layout(t);
        const double expected =
            std::max(0.0, linear_crossover(double(f.count_bits), double(f.coordinate_bits),
                                           double(f.elements), 32));
        EXPECT_NEAR(crossover(CompressedFormat::coo, t), expected, 1e-12)
            << t.elements() << " elements";
    }
    // 16×16×7×7: 4+4+3+3 = 14 coordinate bits, a 14-bit count.
    EXPECT_NEAR(crossover(CompressedFormat::coo, tile({16, 16, 7, 7})),
                (1 - 14.0 / (32 * 12544)) / (1 + 14.0 / 32), 1e-12);
}

TEST(CrossoverDensity, CsbAtDensityOneCostsItsMasksAndPointersBeyondUncompressed) {
    const TensorTile conv = tile({1, 4, 2, 3, 3});  // 8 kernels, 7-bit pointers
    const CompressedSize full = size(CompressedFormat::csb, conv, 1.0);
    EXPECT_DOUBLE_EQ(full.data_words, 72);
    EXPECT_DOUBLE_EQ(full.words(32) - 72, (72 + 8 * 7) / 32.0);
    EXPECT_NEAR(crossover(CompressedFormat::csb, conv), 1 - (72 + 8 * 7) / (32.0 * 72), 1e-12);
}

TEST(CrossoverDensity, UncompressedNeverStoresFewerWords) {
    EXPECT_EQ(crossover(CompressedFormat::uncompressed, k4x8), 0.0);
}

TEST(CrossoverDensity, SeparatesSmallerFromLargerForEveryFormat) {
    for (CompressedFormat format : kAllFormats) {
        for (const TensorTile& t : kTiles) {
            const double d = crossover(format, t);
            const double E = double(t.elements());
            if (d > 1e-6) {
                EXPECT_LT(size(format, t, d - 1e-6).words(32), E) << compressed_format_name(format);
            }
            if (d < 1 - 1e-6) {
                EXPECT_GE(size(format, t, d + 1e-6).words(32), E) << compressed_format_name(format);
            }
        }
    }
}

TEST(CrossoverDensity, TypicalTilesOrderFormatsByMetadataPerNonzero) {
    // A 64×64 FP32 tile: the bitmap's one bit per element beats CSR's
    // 6-bit indices at high density, COO's 12 coordinate bits cross lowest.
    const TensorTile t = tile({64, 64});
    const double bitmap = crossover(CompressedFormat::bitmap, t);
    const double csr = crossover(CompressedFormat::csr, t);
    const double coo = crossover(CompressedFormat::coo, t);
    EXPECT_GT(bitmap, csr);
    EXPECT_GT(csr, coo);
    EXPECT_NEAR(coo, (1 - 13.0 / (32 * 4096)) / (1 + 12.0 / 32), 1e-12);
}

// ---- Traffic (the evaluator's rule, docs/sparse_formats.md) --------------

TEST(TransferRatio, SplitsATransferIntoDataAndMetadataWords) {
    // 4×8 bitmap at d = 1/4: 8 of 32 values and 32 mask bits = 1 word.
    const TransferRatio r = transfer_ratio(size(CompressedFormat::bitmap, k4x8, 0.25), 32, 32);
    EXPECT_DOUBLE_EQ(r.data, 0.25);
    EXPECT_DOUBLE_EQ(r.metadata, 1.0 / 32);
    const TransferRatio dense =
        transfer_ratio(size(CompressedFormat::uncompressed, k4x8, 0.25), 32, 32);
    EXPECT_DOUBLE_EQ(dense.total(), 1.0);
}

TEST(TransferRatio, CompressedTrafficCrossesUncompressedAtTheCrossoverDensity) {
    // The energy sanity check of compressed formats: a level's data and metadata words cost
    // the same per access, so compressed transfer energy falls below the
    // uncompressed one exactly below the crossover the metadata implies.
    const double reads = 1e6;
    for (CompressedFormat format : kAllFormats) {
        if (format == CompressedFormat::uncompressed) continue;
        for (const TensorTile& t :
             {tile({64, 64}), tile({1, 16, 16, 3, 3}), tile({1, 64, 256, 1, 1})}) {
            const double d = crossover(format, t);
            ASSERT_GT(d, 0.01) << compressed_format_name(format);
            ASSERT_LT(d, 0.99) << compressed_format_name(format);
            const auto traffic = [&](double density) {
                return reads * transfer_ratio(size(format, t, density), t.elements(), 32).total();
            };
            EXPECT_LT(traffic(d - 1e-3), reads) << compressed_format_name(format) << " below " << d;
            EXPECT_GT(traffic(d + 1e-3), reads) << compressed_format_name(format) << " above " << d;
            EXPECT_NEAR(traffic(d), reads, 1e-6 * reads)
                << compressed_format_name(format) << " at " << d;
        }
    }
}

}  // namespace
}  // namespace trainloop
