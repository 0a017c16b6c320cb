// Fibertree formats (engine/sparse/fibertree.hpp): which loops are the ranks,
// hand-computed sizes of small tiles, and the flat formats a fibertree
// equals where both describe the same layout.
#include <gtest/gtest.h>

#include <cmath>

#include "format_test_support.hpp"
#include "problem/iteration_space.hpp"
#include "sparse/fibertree.hpp"
#include "sparse/format_layout.hpp"

namespace trainloop {
namespace {

using format_test::size;
using format_test::tile;

IterationSpace space_of(std::initializer_list<std::pair<Dim, std::int64_t>> bounds) {
    IterationSpace s;
    s.bounds.values.fill(1);
    for (const auto& [d, b] : bounds) s.bounds[d] = b;
    return s;
}

RankFormats ranks_of(std::initializer_list<RankFormat> list) {
    RankFormats r;
    for (RankFormat f : list) r.push_back(f);
    return r;
}

// A two-level mapping: level 0 holds the whole tile with `outer` temporal
// loops; level 1 has `inner` temporal loops.
Mapping two_levels(std::initializer_list<Loop> outer, std::initializer_list<Loop> inner) {
    Mapping m;
    m.num_levels = 2;
    for (const Loop& l : outer) m.levels[0].temporal.push_back(l);
    for (const Loop& l : inner) m.levels[1].temporal.push_back(l);
    return m;
}

double uniform_empty(std::int64_t elements, double density) {
    return std::pow(1 - density, double(elements));
}

// ---- Which loops are the ranks -------------------------------------------

TEST(FibertreeShape, OneRankPerLoopThatIndexesTheDataSpaceOutermostFirst) {
    const IterationSpace s = space_of({{Dim::K, 4}, {Dim::C, 8}, {Dim::P, 5}});
    const Projection w = projection_for(DataSpace::weights, s);
    // P does not index the weights and C1 is trivial: the ranks are K4, C8.
    const Mapping m = two_levels({{Dim::K, 4}, {Dim::P, 5}}, {{Dim::C, 1}, {Dim::C, 8}});
    const FiberTreeShape shape = fibertree_shape(w, s.bounds, m, 0, 2);
    ASSERT_EQ(shape.num_ranks, 2);
    EXPECT_EQ(shape.tile.elements(), 32);
    EXPECT_EQ(shape.ranks[0].fiber_shape, 4);
    EXPECT_EQ(shape.ranks[0].below.elements(), 8);
    EXPECT_EQ(shape.ranks[1].fiber_shape, 8);
    EXPECT_EQ(shape.ranks[1].below.elements(), 1);
    // Level 1's tile has only C8.
    const FiberTreeShape inner = fibertree_shape(w, s.bounds, m, 1, 2);
    EXPECT_EQ(inner.ranks[0].fiber_shape, 1);  // over one coordinate
    EXPECT_EQ(inner.ranks[1].fiber_shape, 8);
}

TEST(FibertreeShape, MoreLoopsThanRanksFlattenIntoTheTopRank) {
    const IterationSpace s = space_of({{Dim::K, 4}, {Dim::C, 8}, {Dim::R, 3}});
    const Projection w = projection_for(DataSpace::weights, s);
    const Mapping m = two_levels({{Dim::K, 4}, {Dim::R, 3}}, {{Dim::C, 8}});
    const FiberTreeShape shape = fibertree_shape(w, s.bounds, m, 0, 2);
    EXPECT_EQ(shape.ranks[0].fiber_shape, 12);  // K4 and R3 in one fiber
    EXPECT_EQ(shape.ranks[1].fiber_shape, 8);
    const FiberTreeShape one = fibertree_shape(w, s.bounds, m, 0, 1);
    EXPECT_EQ(one.ranks[0].fiber_shape, 96);  // the whole tile
}

TEST(FibertreeShape, ASlidingWindowCutsTheTileIntoBlocksNotOverlappingWindows) {
    const IterationSpace s = space_of({{Dim::P, 7}, {Dim::R, 3}});
    const Projection in = projection_for(DataSpace::inputs, s);
    const Mapping m = two_levels({{Dim::P, 7}}, {{Dim::R, 3}});
    const FiberTreeShape shape = fibertree_shape(in, s.bounds, m, 0, 2);
    EXPECT_EQ(shape.tile.elements(), 9);       // 7 + 3 - 1 input rows
    EXPECT_EQ(shape.ranks[0].fiber_shape, 3);  // 3 blocks of the 3 rows R spans
    EXPECT_EQ(shape.ranks[1].fiber_shape, 3);
    const Mapping swapped = two_levels({{Dim::R, 3}}, {{Dim::P, 7}});
    const FiberTreeShape other = fibertree_shape(in, s.bounds, swapped, 0, 2);
    EXPECT_EQ(other.ranks[0].fiber_shape, 2);  // 9 rows in blocks of 7: 2
    EXPECT_EQ(other.ranks[1].fiber_shape, 7);
}

TEST(FibertreeShape, PaddedFactorsAreClippedAtTheBound) {
    const IterationSpace s = space_of({{Dim::K, 50}});
    const Projection w = projection_for(DataSpace::weights, s);
    const Mapping m = two_levels({{Dim::K, 4}}, {{Dim::K, 13}});  // 52 >= 50
    const FiberTreeShape shape = fibertree_shape(w, s.bounds, m, 0, 2);
    EXPECT_EQ(shape.tile.elements(), 50);
    EXPECT_EQ(shape.ranks[0].fiber_shape, 4);  // ceil(50 / 13)
    EXPECT_EQ(shape.ranks[1].fiber_shape, 13);
}

// ---- Sizes ---------------------------------------------------------------

// Weights K4 × C8: rank 0 over K (fibers of 4, a coordinate spans 8
// elements), rank 1 over C (fibers of 8 single elements).
FiberTreeShape k4_c8() {
    const IterationSpace s = space_of({{Dim::K, 4}, {Dim::C, 8}});
    return fibertree_shape(projection_for(DataSpace::weights, s), s.bounds,
                           two_levels({{Dim::K, 4}}, {{Dim::C, 8}}), 0, 2);
}

CompressedSize tree(std::initializer_list<RankFormat> ranks, const FiberTreeShape& shape,
                    double density, std::int64_t index_bits = 0) {
    return fibertree_size(ranks_of(ranks), shape, DataSpace::weights, density, UniformModel{},
                          index_bits);
}

TEST(FibertreeSize, OffsetPairsOverCoordinatesIsCsr) {
    for (double d : {0.05, 0.3, 0.9, 1.0}) {
        const CompressedSize t = tree({RankFormat::uop, RankFormat::cp}, k4_c8(), d);
        const CompressedSize csr = size(CompressedFormat::csr, tile({1, 4, 8, 1, 1}), d);
        EXPECT_NEAR(t.data_words, csr.data_words, 1e-12) << d;
        EXPECT_NEAR(t.metadata_bits, csr.metadata_bits, 1e-9) << d;
    }
}

TEST(FibertreeSize, OneRankIsTheFlatBitmapOrRunLengthFormat) {
    const IterationSpace s = space_of({{Dim::K, 4}, {Dim::C, 8}});
    const FiberTreeShape one = fibertree_shape(projection_for(DataSpace::weights, s), s.bounds,
                                               two_levels({{Dim::K, 4}}, {{Dim::C, 8}}), 0, 1);
    const TensorTile flat = tile({1, 4, 8, 1, 1});
    for (double d : {0.1, 0.5}) {
        const CompressedSize b = tree({RankFormat::b}, one, d);
        EXPECT_NEAR(b.metadata_bits, size(CompressedFormat::bitmap, flat, d).metadata_bits, 1e-9);
        const CompressedSize rle = tree({RankFormat::rle}, one, d);
        EXPECT_NEAR(rle.metadata_bits, size(CompressedFormat::rle, flat, d).metadata_bits, 1e-9);
        EXPECT_NEAR(rle.data_words, size(CompressedFormat::rle, flat, d).data_words, 1e-12);
    }
}

TEST(FibertreeSize, BitmasksKeepOnlyTheNonemptyFibersOfACompressedRank) {
    const double d = 0.3;
    const double rows = 4 * (1 - uniform_empty(8, d));  // nonempty K coordinates: n_0
    const double pointer_bits = 6;                      // offsets 0..32
    const CompressedSize t = tree({RankFormat::b, RankFormat::b}, k4_c8(), d);
    // Rank 0: 4 mask bits, a pointer per nonempty row; rank 1: 8 bits per stored row.
    EXPECT_NEAR(t.metadata_bits, 4 + rows * pointer_bits + rows * 8, 1e-9);
    EXPECT_NEAR(t.data_words, 32 * d, 1e-12);
    // Under an uncompressed top rank every row keeps its mask.
    const CompressedSize ub = tree({RankFormat::ub, RankFormat::b}, k4_c8(), d);
    EXPECT_NEAR(ub.metadata_bits, 4 + 4 * pointer_bits + 4 * 8, 1e-9);
}

TEST(FibertreeSize, AnUncompressedLeafKeepsTheZerosOfEveryStoredFiber) {
    const double d = 0.2;
    const double rows = 4 * (1 - uniform_empty(8, d));
    const CompressedSize t = tree({RankFormat::cp, RankFormat::uop}, k4_c8(), d);
    EXPECT_NEAR(t.data_words, 8 * rows, 1e-9);  // whole rows, zeros included
    // Rank 0: a 2-bit coordinate and a pointer per nonempty row; rank 1: 9 offsets per row.
    EXPECT_NEAR(t.metadata_bits, rows * (2 + 6) + rows * 9 * 6, 1e-9);
}

TEST(FibertreeSize, IndexBitsFixEveryFieldButTheMasks) {
    const double d = 0.3;
    const double rows = 4 * (1 - uniform_empty(8, d));
    const CompressedSize cp = tree({RankFormat::uop, RankFormat::cp}, k4_c8(), d, 8);
    EXPECT_NEAR(cp.metadata_bits, 5 * 8 + 32 * d * 8, 1e-9);
    const CompressedSize b = tree({RankFormat::b, RankFormat::b}, k4_c8(), d, 8);
    EXPECT_NEAR(b.metadata_bits, 4 + rows * 8 + rows * 8, 1e-9);
}

TEST(FibertreeSize, ATileOfOneElementKeepsWhetherItsValueIsThere) {
    const IterationSpace s = space_of({{Dim::K, 4}});
    const FiberTreeShape shape = fibertree_shape(projection_for(DataSpace::weights, s), s.bounds,
                                                 two_levels({{Dim::K, 4}}, {}), 1, 2);
    // The top rank is implicit; the leaf's one mask bit, or its 1-bit
    // coordinate per nonzero, is what the flat formats keep for one element.
    const TensorTile one = tile({1, 1, 1, 1, 1});
    const CompressedSize b = tree({RankFormat::uop, RankFormat::b}, shape, 0.5);
    EXPECT_EQ(b.metadata_bits, size(CompressedFormat::bitmap, one, 0.5).metadata_bits);
    EXPECT_NEAR(b.data_words, 0.5, 1e-12);
    const CompressedSize cp = tree({RankFormat::uop, RankFormat::cp}, shape, 0.5);
    EXPECT_NEAR(cp.metadata_bits, 0.5, 1e-12);
    const CompressedSize rle = tree({RankFormat::uop, RankFormat::rle}, shape, 0.5);
    EXPECT_NEAR(rle.metadata_bits, size(CompressedFormat::rle, one, 0.5).metadata_bits, 1e-12);
}

TEST(FibertreeSize, NondecreasingInDensity) {
    const std::initializer_list<std::initializer_list<RankFormat>> trees = {
        {RankFormat::uop, RankFormat::cp},
        {RankFormat::b, RankFormat::b},
        {RankFormat::cp, RankFormat::rle},
        {RankFormat::cp, RankFormat::uop},
        {RankFormat::ub, RankFormat::b}};
    for (const auto& ranks : trees) {
        double last = 0;
        for (int i = 0; i <= 20; ++i) {
            const CompressedSize t = tree(ranks, k4_c8(), i / 20.0);
            EXPECT_GE(t.words(16) + 1e-12, last);
            last = t.words(16);
        }
    }
}

}  // namespace
}  // namespace trainloop
