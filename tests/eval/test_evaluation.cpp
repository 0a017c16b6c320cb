// Evaluation of small cases whose counts are derived by hand in the comments,
// and the golden run's energies.
#include <gtest/gtest.h>

#include <string>

#include "common/spec_error.hpp"
#include "eval/evaluation.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using testing::loops;
using testing::space_of;

Mapping two_level_mapping(LoopList dram, LoopList rf) {
    Mapping m;
    m.num_levels = 2;
    m.level(0) = {dram, {}, {}, DataSpaceSet::all()};
    m.level(1) = {rf, {}, {}, DataSpaceSet::all()};
    return m;
}

// One PE, DRAM → RF. y[k,p] += w[k,c]·x[c,p] with K=2, C=3, P=4: 24 MACs;
// w has 6 words, x 12, y 8.
const IterationSpace kSmall = space_of({{Dim::K, 2}, {Dim::C, 3}, {Dim::P, 4}});

TEST(EvaluationByHand, WeightStationaryKeepsOutputsAcrossTheInnerChannelLoop) {
    // DRAM: for k in 2, for c in 3; RF: for p in 4. The RF holds one weight,
    // one input row (4 words) and one output row (4 words).
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e =
        evaluate(testing::two_level(1, 1, 64), fw,
                 two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}})));
    ASSERT_TRUE(e.valid());
    const auto& rf = e.nest.levels[1];
    const auto& dram = e.nest.levels[0];
    EXPECT_EQ(rf.space(DataSpace::weights).fills, 6);   // a new weight every (k, c)
    EXPECT_EQ(rf.space(DataSpace::weights).reads, 24);  // one per MAC
    EXPECT_EQ(rf.space(DataSpace::inputs).fills, 24);   // 6 (k, c) steps × 4 words
    // The output row stays while c (irrelevant to y) runs inside k: 2 rows.
    EXPECT_EQ(rf.space(DataSpace::outputs).drains, 8);
    EXPECT_EQ(rf.space(DataSpace::outputs).fills, 0);     // each row resident once
    EXPECT_EQ(rf.space(DataSpace::outputs).updates, 24);  // one per MAC
    EXPECT_EQ(rf.space(DataSpace::outputs).reads, 16);    // 24 − 8 first writes
    EXPECT_EQ(dram.space(DataSpace::weights).reads, 6);
    EXPECT_EQ(dram.space(DataSpace::inputs).reads, 24);
    EXPECT_EQ(dram.space(DataSpace::outputs).updates, 8);
    EXPECT_EQ(dram.space(DataSpace::outputs).reads, 0);
    EXPECT_EQ(e.cycles, 24);
}

TEST(EvaluationByHand, ChannelLoopOutsideTheOutputLoopRefetchesPartialSums) {
    // DRAM: for c in 3, for k in 2 — now y's row changes with k inside c, so
    // each row is evicted and refilled: 6 residencies of 4 words, 8 of them
    // first writes, 16 refills of partial sums from DRAM.
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e =
        evaluate(testing::two_level(1, 1, 64), fw,
                 two_level_mapping(loops({{Dim::C, 3}, {Dim::K, 2}}), loops({{Dim::P, 4}})));
    ASSERT_TRUE(e.valid());
    const auto& rf_y = e.nest.levels[1].space(DataSpace::outputs);
    const auto& dram_y = e.nest.levels[0].space(DataSpace::outputs);
    EXPECT_EQ(rf_y.drains, 24);
    EXPECT_EQ(rf_y.fills, 16);
    EXPECT_EQ(dram_y.updates, 24);
    EXPECT_EQ(dram_y.reads, 16);  // read-modify-write of the 16 returning partial sums
}

TEST(EvaluationByHand, OutputStationaryReusesWeightsAcrossTheInnerPixelLoop) {
    // DRAM: for k in 2, for p in 4; RF: for c in 3. The RF holds a weight row
    // (3), an input column (3) and one output.
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e =
        evaluate(testing::two_level(1, 1, 64), fw,
                 two_level_mapping(loops({{Dim::K, 2}, {Dim::P, 4}}), loops({{Dim::C, 3}})));
    ASSERT_TRUE(e.valid());
    const auto& rf = e.nest.levels[1];
    EXPECT_EQ(rf.space(DataSpace::weights).tile, 3);
    EXPECT_EQ(rf.space(DataSpace::weights).fills, 6);  // resident across p: 2 rows × 3
    EXPECT_EQ(rf.space(DataSpace::inputs).fills, 24);  // 8 (k, p) steps × 3
    EXPECT_EQ(rf.space(DataSpace::outputs).tile, 1);
    EXPECT_EQ(rf.space(DataSpace::outputs).drains, 8);  // each output once, complete
    EXPECT_EQ(rf.space(DataSpace::outputs).reads, 16);  // 24 updates − 8 first writes
}

TEST(EvaluationByHand, SlidingWindowRefetchesOnlyTheNewColumns) {
    // 1-D convolution: y[p] += w[r]·x[p + r], P=6, R=3; x has 8 words.
    // DRAM: for p in 3; RF: for p in 2, for r in 3. The RF input tile is
    // (2−1)+(3−1)+1 = 4 words; each step of the outer p moves it by 2, so it
    // keeps 2 words: fills = 4 + 2·(4 − 2) = 8 = the whole input, once.
    const PhaseProblem fw =
        make_phase_problem("l", Phase::fw, space_of({{Dim::P, 6}, {Dim::R, 3}}));
    const Evaluation e =
        evaluate(testing::two_level(1, 1, 64), fw,
                 two_level_mapping(loops({{Dim::P, 3}}), loops({{Dim::P, 2}, {Dim::R, 3}})));
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.nest.levels[1].space(DataSpace::inputs).tile, 4);
    EXPECT_EQ(e.nest.levels[1].space(DataSpace::inputs).fills, 8);
    EXPECT_EQ(e.nest.levels[0].space(DataSpace::inputs).reads, 8);
}

TEST(EvaluationByHand, TwoByTwoArrayMulticastsInputsAndReducesOutputs) {
    // K=2 on the rows (Y), C=2 on the columns (X), P=2 in each PE's RF.
    // Each PE: one weight, an input row of 2, an output row of 2.
    // Inputs x[c,p] are shared by the two PEs of a column (different k):
    // GLB reads 4, PEs receive 8 (multicast 2). Outputs y[k,p] are summed
    // over the two PEs of a row (different c): PEs send 8, GLB updates 4.
    const PhaseProblem fw =
        make_phase_problem("l", Phase::fw, space_of({{Dim::K, 2}, {Dim::C, 2}, {Dim::P, 2}}));
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(1).spatial_x = loops({{Dim::C, 2}});
    m.level(1).spatial_y = loops({{Dim::K, 2}});
    m.level(2).temporal = loops({{Dim::P, 2}});
    const ArchModel arch = testing::three_level(2, 2, 1024, 64);
    const Evaluation e = evaluate(arch, fw, m);
    ASSERT_TRUE(e.valid());
    const auto& glb = e.nest.levels[1];
    EXPECT_EQ(glb.space(DataSpace::weights).reads, 4);
    EXPECT_EQ(glb.space(DataSpace::weights).child_side_words, 4);  // unicast
    EXPECT_EQ(glb.space(DataSpace::inputs).reads, 4);
    EXPECT_EQ(glb.space(DataSpace::inputs).child_side_words, 8);  // multicast ×2
    EXPECT_EQ(glb.space(DataSpace::outputs).updates, 4);
    EXPECT_EQ(glb.space(DataSpace::outputs).child_side_words, 8);  // reduced ×2
    EXPECT_EQ(glb.space(DataSpace::outputs).reads, 0);             // only first writes
    EXPECT_EQ(e.nest.levels[2].utilized_instances, 4);
    EXPECT_EQ(e.cycles, 2);
    EXPECT_DOUBLE_EQ(e.utilization, 1.0);
    // Network energy: inputs are multicast along y (K varies down a column)
    // on the column broadcast (2 pJ/word × 8), outputs reduced along x (C
    // varies along a row) on the row reduction (3 pJ × 8), weights unicast
    // (4 pJ × 4).
    const EnergyBreakdown& b = e.energy;
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(0)), 16.0);
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(1)), 24.0);
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(2)), 16.0);
}

TEST(EvaluationByHand, AMulticastWithoutANetworkAlongItsAxisGoesUnicast) {
    // The same layer with the axes swapped: C down the rows (Y), K along the
    // columns (X). Inputs are now shared along x, where no broadcast network
    // runs, and partial sums meet along y, where no reduction network runs:
    // both travel unicast (4 pJ/word × 8 words each).
    const PhaseProblem fw =
        make_phase_problem("l", Phase::fw, space_of({{Dim::K, 2}, {Dim::C, 2}, {Dim::P, 2}}));
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(1).spatial_x = loops({{Dim::K, 2}});
    m.level(1).spatial_y = loops({{Dim::C, 2}});
    m.level(2).temporal = loops({{Dim::P, 2}});
    const Evaluation e = evaluate(testing::three_level(2, 2, 1024, 64), fw, m);
    ASSERT_TRUE(e.valid());
    const EnergyBreakdown& b = e.energy;
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(0)), 0.0);
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(1)), 0.0);
    EXPECT_DOUBLE_EQ(b.component_pj(b.network_component(2)), 4.0 * (4 + 8 + 8));
}

TEST(EvaluationByHand, IdlePesLowerUtilization) {
    // K=3 on a 1×4 array's columns: one column idles.
    const PhaseProblem fw =
        make_phase_problem("l", Phase::fw, space_of({{Dim::K, 3}, {Dim::C, 4}}));
    Mapping m;
    m.num_levels = 2;
    m.level(0) = {{}, loops({{Dim::K, 3}}), {}, DataSpaceSet::all()};
    m.level(1) = {loops({{Dim::C, 4}}), {}, {}, DataSpaceSet::all()};
    const Evaluation e = evaluate(testing::two_level(1, 4, 64), fw, m);
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.cycles, 4);
    EXPECT_DOUBLE_EQ(e.utilization, 12.0 / 16.0);
}

TEST(EvaluationByHand, BandwidthBoundLevelIsTheBottleneck) {
    ArchModel arch = testing::two_level(1, 1, 64);
    arch.levels[0].read_bandwidth = 0.5;  // DRAM: one word every two cycles
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e = evaluate(
        arch, fw, two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}})));
    ASSERT_TRUE(e.valid());
    // DRAM reads 6 (w) + 24 (x) + 0 (y) = 30 words at 0.5/cycle = 60 cycles > 24.
    EXPECT_EQ(e.level_cycles[0], 60);
    EXPECT_EQ(e.cycles, 60);
    EXPECT_EQ(e.bottleneck, 0);
}

TEST(EvaluationByHand, SharedBandwidthCarriesReadsAndWritesTogether) {
    ArchModel arch = testing::two_level(1, 1, 64);
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapping m = two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}}));
    // DRAM reads 6 (w) + 24 (x) and takes 8 updates (y): 38 words on one bus.
    arch.levels[0].shared_bandwidth = 0.5;
    Evaluation e = evaluate(arch, fw, m);
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.level_cycles[0], 76);
    EXPECT_EQ(e.cycles, 76);
    EXPECT_EQ(e.bottleneck, 0);
    // The same words with a bus each way of that width: the reads alone bind.
    arch.levels[0].shared_bandwidth = 0;
    arch.levels[0].read_bandwidth = 0.5;
    arch.levels[0].write_bandwidth = 0.5;
    e = evaluate(arch, fw, m);
    EXPECT_EQ(e.level_cycles[0], 60);
    // Every limit given applies: a wide shared bus leaves the read limit binding.
    arch.levels[0].shared_bandwidth = 4;
    EXPECT_EQ(evaluate(arch, fw, m).level_cycles[0], 60);
    // A shared limit tighter than both.
    arch.levels[0].shared_bandwidth = 0.25;
    EXPECT_EQ(evaluate(arch, fw, m).level_cycles[0], 152);
    // Energy does not depend on the bus: only leakage would, and there is none.
    EXPECT_DOUBLE_EQ(evaluate(arch, fw, m).energy_pj, e.energy_pj);
}

// A bandwidth so small that the level's cycles pass 2^53 is an error naming
// the layer, the level and which of its limits, not a wrapped count.
TEST(EvaluationByHand, AnUnrepresentableBandwidthBoundIsAnErrorNamingTheLimit) {
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapping m = two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}}));
    for (const auto& [limit, which] :
         {std::pair{&LevelModel::read_bandwidth, "read bandwidth"},
          std::pair{&LevelModel::shared_bandwidth, "shared read + write bandwidth"}}) {
        SCOPED_TRACE(which);
        ArchModel arch = testing::two_level(1, 1, 64);
        arch.levels[0].*limit = 1e-20;  // 30 or 38 words take ~3e21 cycles
        try {
            (void)evaluate(arch, fw, m);
            ADD_FAILURE() << "no error";
        } catch (const SpecError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("layer `l` (fw)"), std::string::npos) << what;
            EXPECT_NE(what.find("at storage level 0"), std::string::npos) << what;
            EXPECT_NE(what.find(which), std::string::npos) << what;
            EXPECT_NE(std::string(e.hint()).find("bandwidth"), std::string::npos) << e.hint();
        }
    }
}

TEST(EvaluationByHand, EnergyIsActionCountsTimesEnergyPerAction) {
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e =
        evaluate(testing::two_level(1, 1, 64), fw,
                 two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}})));
    // RF (read 1, write 2, update 3 pJ): reads 24 + 24 + 16, fills 6 + 24, updates 24.
    EXPECT_DOUBLE_EQ(e.energy.component_pj(1), 64 * 1.0 + 30 * 2.0 + 24 * 3.0);
    // DRAM (100 pJ): reads 6 + 24, updates 8.
    EXPECT_DOUBLE_EQ(e.energy.component_pj(0), 38 * 100.0);
    EXPECT_DOUBLE_EQ(e.energy.component_pj(e.energy.mac_component()), 24 * 0.5);
    EXPECT_DOUBLE_EQ(e.energy_pj, 64 + 60 + 72 + 3800 + 12);
}

TEST(EvaluationByHand, LeakageIsPowerTimesTime) {
    ArchModel arch = testing::two_level(1, 1, 64);
    arch.levels[1].leakage_mw = 2.0;  // 2 mW for 24 cycles at 1 GHz = 48 pJ
    arch.clock_ghz = 1.0;
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Evaluation e = evaluate(
        arch, fw, two_level_mapping(loops({{Dim::K, 2}, {Dim::C, 3}}), loops({{Dim::P, 4}})));
    EXPECT_DOUBLE_EQ(e.energy.action_pj(EnergyAction::leak), 48.0);
}

TEST(EvaluationByHand, ViolationsNameTheirKind) {
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const ArchModel arch = testing::two_level(1, 1, 8);
    // K factors multiply to 1, not 2.
    Evaluation e =
        evaluate(arch, fw, two_level_mapping(loops({{Dim::C, 3}}), loops({{Dim::P, 4}})));
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::factor_product);
    EXPECT_EQ(e.violation->dim, Dim::K);
    // Everything in the 8-word RF: w 6 + x 12 + y 8 = 26 words.
    e = evaluate(arch, fw, two_level_mapping({}, loops({{Dim::K, 2}, {Dim::C, 3}, {Dim::P, 4}})));
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::capacity);
    EXPECT_EQ(e.violation->actual, 26);
    EXPECT_EQ(e.violation->limit, 8);
    // Two columns on a 1×1 array.
    Mapping m = two_level_mapping(loops({{Dim::C, 3}, {Dim::P, 4}}), {});
    m.level(0).spatial_x = loops({{Dim::K, 2}});
    e = evaluate(arch, fw, m);
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::fanout_x);
}

}  // namespace
}  // namespace trainloop
