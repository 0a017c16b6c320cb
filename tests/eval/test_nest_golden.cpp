// The nest analysis reproduces timeloop-model's counts on the golden run
// tests/golden/timeloop/conv3x_fixed (ResNet-18 conv3_x, batch 16,
// weight-stationary C,K mapping on 16×16 PEs). Expected numbers are copied
// from its timeloop-model.stats.txt (per instance).
#include <gtest/gtest.h>

#include "eval/evaluation.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

struct Expected {
    std::size_t level;
    DataSpace space;
    std::int64_t tile, reads, fills, updates;
};

TEST(NestGolden, ReproducesTimeloopCountsPerLevelAndTensor) {
    const PhaseProblem fw = make_phase_problem("conv3x", Phase::fw, testing::resnet18_conv3x());
    const NestAnalysis nest = analyze_nest(fw, testing::timeloop_golden_mapping());
    EXPECT_EQ(nest.macs, 1'849'688'064);
    EXPECT_EQ(nest.compute_cycles, 7'225'344);
    EXPECT_EQ(nest.utilized_macs, 256);
    const Expected expected[] = {
        {2, DataSpace::weights, 36, 7'225'344, 9'216, 0},
        {2, DataSpace::inputs, 162, 7'225'344, 552'960, 0},
        {2, DataSpace::outputs, 98, 7'124'992, 301'056, 7'225'344},
        {1, DataSpace::weights, 9'216, 2'359'296, 2'359'296, 0},
        {1, DataSpace::inputs, 28'800, 8'847'360, 7'372'800, 0},
        {1, DataSpace::outputs, 25'088, 4'816'896, 0, 6'422'528},
        {0, DataSpace::weights, 147'456, 2'359'296, 0, 0},
        {0, DataSpace::inputs, 1'843'200, 7'372'800, 0, 0},
        {0, DataSpace::outputs, 1'605'632, 0, 0, 1'605'632},
    };
    for (const Expected& e : expected) {
        SCOPED_TRACE(::testing::Message()
                     << "level " << e.level << " " << data_space_name(e.space));
        const SpaceAccesses& acc = nest.levels[e.level].space(e.space);
        EXPECT_EQ(acc.tile, e.tile);
        EXPECT_EQ(acc.reads, e.reads);
        EXPECT_EQ(acc.fills, e.fills);
        EXPECT_EQ(acc.updates, e.updates);
    }
    EXPECT_EQ(nest.levels[2].utilized_instances, 256);
    EXPECT_EQ(nest.levels[1].utilized_instances, 1);
    // Spatial reduction of partial sums across the 16 C columns (Timeloop's
    // NoC "spatial_red" = 96,337,920): child drains minus parent updates.
    const SpaceAccesses& glb_out = nest.levels[1].space(DataSpace::outputs);
    EXPECT_EQ(glb_out.child_side_words - glb_out.updates, 96'337'920);
    // Multicast of inputs over the 16 K rows: 256 RFs' fills / GLB reads = 16.
    const SpaceAccesses& glb_in = nest.levels[1].space(DataSpace::inputs);
    EXPECT_EQ(glb_in.child_side_words, 552'960LL * 256);
    EXPECT_EQ(glb_in.child_side_words / glb_in.reads, 16);
}

// The golden ERT prices vector accesses: the GlobalBuffer and DRAM move 4
// 16-bit words per access, so their per-word energies are a quarter of the
// table's; RegFile and MACC move one word. Fills are priced as writes,
// output reads as reads, updates as updates (Timeloop's buffer model).
TEST(NestGolden, ReproducesTimeloopEnergyPerLevel) {
    ArchModel arch;
    arch.pe_rows = 16;
    arch.pe_columns = 16;
    arch.num_levels = 3;
    arch.levels[0] = testing::level(1, 1, 1, -1, 512.0 / 4, 512.0 / 4, 512.0 / 4);
    arch.levels[1] = testing::level(1, 1, 1, 65536, 32.377775 / 4, 26.156875 / 4, 26.156875 / 4);
    arch.levels[2] = testing::level(256, 16, 16, 512, 0.680237, 1.582678, 1.582678);
    arch.mac_pj = 0.315;
    const PhaseProblem fw = make_phase_problem("conv3x", Phase::fw, testing::resnet18_conv3x());
    const Evaluation e = evaluate(arch, fw, testing::timeloop_golden_mapping());
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.cycles, 7'225'344);
    EXPECT_DOUBLE_EQ(e.utilization, 1.0);
    // Per level, µJ from summary.txt: MACC 582.65, RegFile 7034.42,
    // GlobalBuffer 235.34, DRAM 1451.23; total 9303.64.
    const auto near = [](double actual_pj, double expected_pj) {
        EXPECT_NEAR(actual_pj, expected_pj, expected_pj * 1e-3) << "0.1 % tolerance";
    };
    near(e.energy.component_pj(e.energy.mac_component()), 582'651'740.16);
    near(e.energy.component_pj(2), 1'261'960'265.47 + 1'482'266'612.07 + 4'290'189'025.87);
    near(e.energy.component_pj(1), 34'525'141.40 + 119'826'809.86 + 80'988'409.24);
    near(e.energy.component_pj(0), 301'989'888.0 + 943'718'400.0 + 205'520'896.0);
    near(e.energy_pj, 9303.64e6);
    // Per tensor at the RegFile, to the cent (the stats file's precision).
    const auto& rf_outputs = e.energy.level[2][std::size_t(DataSpace::outputs)];
    EXPECT_NEAR(rf_outputs[0] + rf_outputs[1] + rf_outputs[2], 4'290'189'025.87, 0.01);
}

}  // namespace
}  // namespace trainloop
