// The condition tile a storage level's read meets (sparse/condition_tile.hpp),
// on hand-derived mappings: at the level serving the MACs, the spatial loops
// below it along the dimensions the target does not index; above it, the
// child's tile, the spatial loops in between and the temporal loops the child
// keeps the target across.
#include <gtest/gtest.h>

#include "nest/nest_analysis.hpp"
#include "sparse/condition_tile.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using testing::loops;

IterationSpace conv() { return testing::small_conv(); }
Mapping three_levels() { return testing::small_conv_ws_mapping(); }

std::int64_t tile_elements(const PhaseProblem& problem, const DimBounds& box, DataSpace c) {
    return tile_of(problem.projection(c), box).elements();
}

TEST(ConditionTile, AReadServingTheMacsMeetsOneElementWithoutSpatialLoopsBelow) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Mapping m = three_levels();
    const NestAnalysis nest = analyze_nest(fw, m);
    // The RF serves the MACs: one weight per input read and back.
    EXPECT_EQ(
        tile_elements(fw, condition_box(fw, m, nest, 2, DataSpace::inputs), DataSpace::weights), 1);
    EXPECT_EQ(
        tile_elements(fw, condition_box(fw, m, nest, 2, DataSpace::weights), DataSpace::inputs), 1);
}

TEST(ConditionTile, AMulticastReadMeetsItsSpatialGroup) {
    // The RF bypasses the weights, so the GLB serves them to the MACs. X
    // carries P, which the weights do not index: a weight read is multicast
    // to six PEs. Y carries K, which they do: each PE row reads its own.
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    Mapping m = three_levels();
    m.level(2).keep.erase(DataSpace::weights);
    m.level(1).temporal = loops({{Dim::C, 4}});
    m.level(1).spatial_x = loops({{Dim::P, 6}});
    m.level(1).spatial_y = loops({{Dim::K, 4}});
    const NestAnalysis nest = analyze_nest(fw, m);
    ASSERT_LT(nest.levels[1].space(DataSpace::weights).child, 0);
    const DimBounds box = serving_condition_box(fw, m, 1, DataSpace::weights);
    EXPECT_EQ(box[Dim::P], 6);  // the weight reaches six PEs along x
    EXPECT_EQ(box[Dim::K], 1);  // each row its own filter
    EXPECT_EQ(box[Dim::Q], 1);  // the RF's temporal loops are later reads
    // Six inputs along h, at stride 1 one apart.
    EXPECT_EQ(tile_elements(fw, box, DataSpace::inputs), 6);
    const DimBounds same = condition_box(fw, m, nest, 1, DataSpace::weights);
    EXPECT_EQ(same, box);
}

TEST(ConditionTile, AReadAboveFillsTheChildsTileOverTheLoopsItIsKeptAcross) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Mapping m = three_levels();
    const NestAnalysis nest = analyze_nest(fw, m);
    // The GLB's input reads fill the RF's tile (Q6 R3 S3); the Y loop K4 is
    // not an input dimension (the read is multicast over it), the X loop C4
    // is; the GLB's own P6 indexes the inputs: nothing inside it to add.
    const DimBounds inputs = condition_box(fw, m, nest, 1, DataSpace::inputs);
    EXPECT_EQ(inputs[Dim::K], 4);
    EXPECT_EQ(inputs[Dim::C], 1);
    EXPECT_EQ(inputs[Dim::Q], 6);
    EXPECT_EQ(inputs[Dim::R], 3);
    EXPECT_EQ(inputs[Dim::S], 3);
    EXPECT_EQ(inputs[Dim::P], 1);
    EXPECT_EQ(tile_elements(fw, inputs, DataSpace::weights), 4 * 3 * 3);
    // The GLB's weight reads: the RF keeps a weight across Q6 and the GLB's
    // own P6 (innermost there, not a weight dimension): 6 × (6 + 2) inputs.
    const DimBounds weights = condition_box(fw, m, nest, 1, DataSpace::weights);
    EXPECT_EQ(weights[Dim::P], 6);
    EXPECT_EQ(weights[Dim::Q], 6);
    EXPECT_EQ(tile_elements(fw, weights, DataSpace::inputs), 8 * 8);
    // DRAM's weight reads: the GLB's tile (P6, X: C4, Y: K4, and the RF's
    // loops); DRAM's innermost loop C2 indexes the weights.
    const DimBounds dram = condition_box(fw, m, nest, 0, DataSpace::weights);
    EXPECT_EQ(dram, nest.tile_box[1]);
}

}  // namespace
}  // namespace trainloop
