// The cost lower bound (bounds/lower_bound.hpp): no mapping the evaluator
// accepts is below it, on hand-built and shipped architectures, over random
// points of the mapspace and the mapper's best; and it counts the strided
// window's touched elements, not its bounding box.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "arch/arch_model.hpp"
#include "bounds/lower_bound.hpp"
#include "bounds/mac_serving_bound.hpp"
#include "constraints/architecture_spec.hpp"
#include "eval/evaluation.hpp"
#include "mapspace/mapspace.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using testing::space_of;

ArchModel shipped(const std::string& name) {
    return build_arch_model(
        load_architecture_spec(std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/" + name + ".yaml")
            .arch);
}

std::vector<IterationSpace> layers() {
    IterationSpace stem = space_of({{Dim::N, 4},
                                    {Dim::K, 64},
                                    {Dim::C, 3},
                                    {Dim::P, 56},
                                    {Dim::Q, 56},
                                    {Dim::R, 7},
                                    {Dim::S, 7}});
    stem.shape = conv_shape({2, 2});
    IterationSpace downsample =
        space_of({{Dim::N, 4}, {Dim::K, 128}, {Dim::C, 64}, {Dim::P, 28}, {Dim::Q, 28}});
    downsample.shape = conv_shape({2, 2});  // 1×1 stride 2: half the input rows are never read
    return {testing::resnet18_conv3x(), stem, downsample,
            space_of({{Dim::N, 16}, {Dim::K, 1000}, {Dim::C, 512}}),
            space_of(
                {{Dim::G, 32}, {Dim::N, 4}, {Dim::P, 14}, {Dim::Q, 14}, {Dim::R, 3}, {Dim::S, 3}})};
}

TEST(LowerBound, DistinctWordsCountAStridedWindowsTouchedElements) {
    IterationSpace s = space_of({{Dim::C, 2}, {Dim::P, 4}, {Dim::Q, 3}});
    s.shape = conv_shape({2, 2});
    const Projection inputs = projection_for(DataSpace::inputs, s);
    // Rows 0, 2, 4, 6 of the bounding box's 7; columns 0, 2, 4 of its 5.
    EXPECT_EQ(distinct_words(inputs, s.bounds), 2 * 4 * 3);
    EXPECT_EQ(footprint(inputs, s.bounds), 2 * 7 * 5);
    IterationSpace window = space_of({{Dim::P, 4}, {Dim::R, 3}});  // stride 1: all 6 rows
    EXPECT_EQ(distinct_words(projection_for(DataSpace::inputs, window), window.bounds), 6);
    IterationSpace dilated = space_of({{Dim::P, 2}, {Dim::R, 2}});
    dilated.shape = conv_shape({1, 1}, {3, 1});  // rows 0, 1, 3, 4
    EXPECT_EQ(distinct_words(projection_for(DataSpace::inputs, dilated), dilated.bounds), 4);
}

TEST(LowerBound, IsTheCompulsoryWorkOfAHandBuiltArchitecture) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);  // DRAM 200 pJ/word, MAC 1 pJ
    const IterationSpace s = space_of({{Dim::N, 2}, {Dim::K, 8}, {Dim::C, 5}});
    const CostLowerBound b = cost_lower_bound(arch, make_phase_problem("fc", Phase::fw, s));
    EXPECT_EQ(b.cycles, 5);  // ⌈80 MACs / 16 units⌉
    // 80 MACs × 1 pJ + (40 weights + 10 inputs + 16 outputs) × 200 pJ; no
    // leakage; and serving the MACs: the cheapest way is the DRAM sending each
    // weight once to the 2 PEs that use it (N) and each input once to 8 (K),
    // which fills the 16 units, and the outputs updated in the RF at 1 pJ per MAC.
    EXPECT_DOUBLE_EQ(b.energy_pj, 80.0 + 66.0 * 200.0 + 80.0);
    EXPECT_DOUBLE_EQ(b.offchip_words, 66.0);
}

// A small on-chip capacity forces more than the compulsory traffic (the
// segment term), and a narrow DRAM bounds the cycles; the on-chip levels'
// cheapest way to serve the MACs adds to the energy.
TEST(LowerBound, CapacityBandwidthAndServingTermsBite) {
    ArchModel arch = testing::three_level(2, 2, 16, 4);  // 16 + 4·4 = 32 words on chip
    const IterationSpace s = space_of({{Dim::N, 8}, {Dim::K, 16}, {Dim::C, 16}});
    const PhaseProblem fc = make_phase_problem("fc", Phase::fw, s);
    EXPECT_DOUBLE_EQ(on_chip_capacity_words(arch), 32.0);
    // 2,048 MACs; a segment does at most 32^1.5 = 181 of them: 12 segments.
    EXPECT_DOUBLE_EQ(capacity_traffic_words(fc, 32.0), 32.0 * 11);
    const double compulsory = 16 * 16 + 8 * 16 + 8 * 16;  // 512 words
    CostLowerBound b = cost_lower_bound(arch, fc);
    EXPECT_DOUBLE_EQ(b.offchip_words, compulsory);  // 352 < 512: the compulsory words rule
    const IterationSpace big = space_of({{Dim::N, 64}, {Dim::K, 64}, {Dim::C, 64}});
    const PhaseProblem gemm = make_phase_problem("gemm", Phase::fw, big);
    b = cost_lower_bound(arch, gemm);
    EXPECT_DOUBLE_EQ(b.offchip_words, capacity_traffic_words(gemm, 32.0));
    EXPECT_GT(b.offchip_words, 3.0 * 64 * 64);
    // The energy adds the larger of the extra DRAM words (200 pJ each) and
    // serving the MACs (here: the RF, 1 pJ per MAC per tensor and 1 pJ per
    // operand word filled, below the GLB's 6 pJ / 4 MACs under it).
    const double macs = 64.0 * 64 * 64;
    const double base = macs * 1 + 3.0 * 64 * 64 * 200;
    const double extra = (b.offchip_words - 3.0 * 64 * 64) * 200;
    const double serving = 2 * (macs + 64 * 64) + macs;
    EXPECT_DOUBLE_EQ(b.energy_pj, base + std::max(extra, serving));
    // A DRAM of ¼ word/cycle each way: the traffic takes longer than the MACs.
    arch.levels[0].read_bandwidth = 0.25;
    arch.levels[0].write_bandwidth = 0.25;
    b = cost_lower_bound(arch, gemm);
    EXPECT_EQ(b.cycles, std::int64_t(std::ceil(capacity_traffic_words(gemm, 32.0) / 0.5)));
    EXPECT_GT(b.cycles, std::int64_t(macs / 4));
    // One bus of ¼ word/cycle for both: every off-chip word on it.
    arch.levels[0].read_bandwidth = 0;
    arch.levels[0].write_bandwidth = 0;
    arch.levels[0].shared_bandwidth = 0.25;
    b = cost_lower_bound(arch, gemm);
    EXPECT_EQ(b.cycles, std::int64_t(std::ceil(capacity_traffic_words(gemm, 32.0) / 0.25)));
}

// The serving term's minimization: Σ a/m over 1 ≤ m ≤ cap, Π m ≤ product.
TEST(LowerBound, LeastServingSumIsTheConstrainedMinimum) {
    // Unconstrained caps: equal shares, each m = ∛64 = 4.
    EXPECT_NEAR(least_serving_sum({1, 1, 1}, {100, 100, 100}, 64), 3.0 / 4, 1e-12);
    // Caps that bind: m = 2 for the first, the rest share 64 / 2.
    EXPECT_NEAR(least_serving_sum({1, 1, 1}, {2, 100, 100}, 64), 1.0 / 2 + 2.0 / std::sqrt(32.0),
                1e-12);
    // Larger energies get more multicast: a / m equal among the free ones.
    EXPECT_NEAR(least_serving_sum({8, 1, 1}, {1e9, 1e9, 1e9}, 8), 3.0, 1e-12);
    // A product that cannot reach the caps, and caps below the product.
    EXPECT_NEAR(least_serving_sum({1, 2, 3}, {1, 1, 1}, 1000), 6.0, 1e-12);
    // Against a grid search of the same problem: never above it, and close.
    const std::array<double, 3> a{5, 0.5, 2};
    const std::array<double, 3> cap{16, 3, 40};
    const double product = 50;
    double grid = 1e300;
    for (double x = 1; x <= cap[0]; x += 0.01) {
        for (double y = 1; y <= cap[1]; y += 0.01) {
            const double z = std::min(cap[2], product / (x * y));
            if (z < 1) continue;
            grid = std::min(grid, a[0] / x + a[1] / y + a[2] / z);
        }
    }
    const double exact = least_serving_sum(a, cap, product);
    EXPECT_LE(exact, grid + 1e-12);
    EXPECT_GT(exact, grid * 0.999);
}

// Serving the MACs: on one PE with a cheap register file and nothing on chip
// to force off-chip traffic, the serving term is the whole difference from
// the compulsory work: three accesses per MAC at the RF (no multicast on one
// MAC unit) and each operand filled into it once.
TEST(LowerBound, ServingTermCountsTheInnermostKeepersAccesses) {
    ArchModel arch = testing::three_level(1, 1, 1 << 20, 1 << 16);
    arch.levels[1].read_pj = arch.levels[1].write_pj = arch.levels[1].update_pj = 1000;
    const IterationSpace s = space_of({{Dim::N, 4}, {Dim::K, 8}, {Dim::C, 16}});
    const PhaseProblem fc = make_phase_problem("fc", Phase::fw, s);
    const double macs = 4.0 * 8 * 16;
    const double weights = 8 * 16, inputs = 4 * 16, outputs = 4 * 8;
    const double compulsory = macs * 1 + (weights + inputs + outputs) * 200;
    const CostLowerBound b = cost_lower_bound(arch, fc);
    EXPECT_DOUBLE_EQ(b.energy_pj, compulsory + 3 * macs + weights + inputs);
}

// Property: on every layer, phase and architecture, random points of the
// mapspace that the evaluator accepts, and the mapper's best, are at or above
// the bound in cycles and in energy.
TEST(LowerBound, NoEvaluatedMappingIsBelowIt) {
    // The last two: so little on-chip storage that the capacity term rules,
    // and a DRAM narrow enough that its bandwidth does.
    ArchModel narrow = testing::three_level(4, 4, 4096, 256);
    narrow.levels[0].read_bandwidth = 1;
    narrow.levels[0].write_bandwidth = 0.5;
    const std::vector<ArchModel> archs = {
        shipped("procrustes_baseline_16x16"), shipped("procrustes_baseline_32x32"),
        testing::three_level(4, 4, 4096, 256), testing::three_level(2, 2, 512, 64), narrow};
    std::mt19937_64 rng(13);
    int capacity_ruled = 0;   // layer-phases where the capacity term exceeds the compulsory words
    int bandwidth_ruled = 0;  // and where DRAM bandwidth, not the array, bounds the cycles
    for (std::size_t a = 0; a < archs.size(); ++a) {
        const ArchModel& arch = archs[a];
        for (const IterationSpace& space : layers()) {
            const Mapspace mapspace = Mapspace::build(arch, space, {});
            for (Phase phase : kAllPhases) {
                const PhaseProblem problem = make_phase_problem("layer", phase, space);
                const CostLowerBound bound = cost_lower_bound(arch, problem);
                double compulsory = 0;
                for (DataSpace s : kAllDataSpaces) {
                    compulsory += double(distinct_words(problem.projection(s), space.bounds));
                }
                capacity_ruled += bound.offchip_words > compulsory ? 1 : 0;
                bandwidth_ruled +=
                    bound.cycles * arch.num_macs() > space.macs() + arch.num_macs() ? 1 : 0;
                int valid = 0;
                for (int n = 0; n < 400; ++n) {
                    const Evaluation e =
                        evaluate(arch, problem, mapspace.to_mapping(mapspace.random_point(rng)));
                    if (!e.valid()) continue;
                    ++valid;
                    EXPECT_GE(e.cycles, bound.cycles) << "arch " << a << " " << to_string(space);
                    EXPECT_GE(e.energy_pj, bound.energy_pj * (1 - 1e-12))
                        << "arch " << a << " " << to_string(space);
                    EXPECT_GE(offchip_words(e), bound.offchip_words)
                        << "arch " << a << " " << to_string(space);
                }
                SearchOptions options;
                options.budget.max_evaluations = 2000;
                options.threads = 1;
                const SearchResult best = search(arch, problem, mapspace, options);
                ASSERT_TRUE(best.best) << to_string(space);
                EXPECT_GE(best.best->cycles, bound.cycles);
                EXPECT_GE(best.best->energy_pj, bound.energy_pj * (1 - 1e-12));
                EXPECT_GE(best.best->offchip_words, bound.offchip_words);
                EXPECT_GT(valid, 0) << "arch " << a << " " << to_string(space);
                // Not vacuous: the bound is a sizeable part of what the mapper finds.
                EXPECT_GT(bound.energy_pj, 0.02 * best.best->energy_pj) << to_string(space);
            }
        }
    }
    EXPECT_GT(capacity_ruled, 5);
    EXPECT_GT(bandwidth_ruled, 5);
}

}  // namespace
}  // namespace trainloop

namespace trainloop {
namespace {

// The architecture's constraints bound its multicast and its keepers: on the
// Cambricon-X-like baseline the rows hold output channels (fw), input
// channels (bw) or dw's entries (wu), and the PEs' registers and input pool,
// which may hold the phase's output, are made to bypass it (so the output is
// served from the buffers, not from a register per PE; without that rule the
// bound tightened nowhere). The bound with them is at least the bound
// without them, higher on some layer-phase, and still below every mapping the
// constrained mapspace offers (and the mapper's best).
TEST(LowerBound, TheArchitecturesConstraintsTightenItAndItHolds) {
    const ArchitectureSpec spec = load_architecture_spec(
        std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/eager_pruning_cx_baseline.yaml");
    ASSERT_FALSE(spec.constraints.empty());
    const ArchModel arch = build_arch_model(spec.arch);
    std::mt19937_64 rng(17);
    int tighter = 0;
    for (const IterationSpace& space : layers()) {
        for (Phase phase : kAllPhases) {
            const PhaseProblem problem = make_phase_problem("layer", phase, space);
            const MappingConstraints constraints = constraints_for_phase(spec.constraints, phase);
            const CostLowerBound loose = cost_lower_bound(arch, problem);
            const CostLowerBound bound = cost_lower_bound(arch, problem, &constraints);
            EXPECT_GE(bound.energy_pj, loose.energy_pj) << to_string(space);
            tighter += bound.energy_pj > 1.01 * loose.energy_pj ? 1 : 0;
            const Mapspace mapspace =
                Mapspace::build(arch, space, MapspaceConstraints{std::nullopt, true, constraints});
            int valid = 0;
            for (int n = 0; n < 300; ++n) {
                const Evaluation e =
                    evaluate(arch, problem, mapspace.to_mapping(mapspace.random_point(rng)));
                if (!e.valid()) continue;
                ++valid;
                EXPECT_GE(e.energy_pj, bound.energy_pj * (1 - 1e-12)) << to_string(space);
                EXPECT_GE(e.cycles, bound.cycles) << to_string(space);
            }
            EXPECT_GT(valid, 0) << to_string(space) << " " << phase_name(phase);
            SearchOptions options;
            options.budget.max_evaluations = 2000;
            options.threads = 1;
            const SearchResult best = search(arch, problem, mapspace, options);
            ASSERT_TRUE(best.best) << to_string(space);
            EXPECT_GE(best.best->energy_pj, bound.energy_pj * (1 - 1e-12)) << to_string(space);
        }
    }
    EXPECT_GT(tighter, 5) << tighter;
}

}  // namespace
}  // namespace trainloop
