// Imperfect factors in the mapspace (MapspaceConstraints::imperfect_factors):
// a dimension whose divisors leave array columns idle gets the spatial factor
// that takes the fewest steps through it, and the temporal loops factor the
// padded bound. Every point is structurally valid, the search reaches the
// padded mapping's fewer cycles, and without the option nothing changes.
#include <gtest/gtest.h>

#include <random>

#include "bounds/lower_bound.hpp"
#include "eval/mapping_check.hpp"
#include "nest/padding.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"
#include "support/flat_loops.hpp"
#include "support/random_mapping.hpp"

namespace trainloop {
namespace {

using testing::space_of;

// ResNet-18's classifier at batch 16 on a 16×16 array: K = 1000's divisors
// put at most 10 output channels on the 16 columns.
const IterationSpace kFc = space_of({{Dim::N, 16}, {Dim::K, 1000}, {Dim::C, 512}});

ArchModel arch16() { return testing::three_level(16, 16, 1 << 20, 1 << 12); }

std::int64_t widest_k(const Mapspace& space) {
    std::int64_t widest = 0;
    for (const SpatialChoice& c : space.spatial_choices()) {
        widest = std::max(widest, c.total[Dim::K]);
    }
    return widest;
}

TEST(ImperfectMapspace, AddsTheFewestStepsFactorAndPadsTheTemporalBound) {
    const ArchModel arch = arch16();
    const Mapspace perfect = Mapspace::build(arch, kFc, {parse_dataflow("K,N"), true});
    EXPECT_EQ(widest_k(perfect), 10);
    MapspaceConstraints imperfect{parse_dataflow("K,N"), true};
    imperfect.imperfect_factors = true;
    const Mapspace padded = Mapspace::build(arch, kFc, imperfect);
    EXPECT_EQ(widest_k(padded), 16);
    bool found = false;
    for (std::uint32_t s = 0; s < padded.spatial_choices().size(); ++s) {
        if (padded.spatial_choices()[s].total[Dim::K] != 16) continue;
        EXPECT_EQ(padded.temporal_bound(s, Dim::K), 63);  // 16 · 63 = 1,008 ≥ 1,000
        found = true;
    }
    EXPECT_TRUE(found);
    // N = 16 divides the rows: no padded choice for it.
    for (const SpatialChoice& c : padded.spatial_choices()) {
        EXPECT_EQ(16 % c.total[Dim::N], 0);
    }
}

TEST(ImperfectMapspace, RandomPointsAndNeighboursAreValidAndDoTheProblemsMacs) {
    const ArchModel arch = arch16();
    MapspaceConstraints constraints{std::nullopt, true};
    constraints.imperfect_factors = true;
    const Mapspace space = Mapspace::build(arch, kFc, constraints);
    const PhaseProblem fw = make_phase_problem("fc", Phase::fw, kFc);
    std::mt19937_64 rng(5);
    MapPoint p = space.random_point(rng);
    int padded = 0;
    for (int i = 0; i < 3000; ++i) {
        const Mapping m = space.to_mapping(p);
        ASSERT_EQ(check_mapping_structure(arch, kFc, m), std::nullopt);
        const Evaluation e = evaluate(arch, fw, m);
        if (e.valid()) {
            EXPECT_EQ(e.nest.macs, kFc.macs());
        }
        bool pads = false;
        for (Dim d : kAllDims) pads = pads || m.total_factor(d) != kFc.bounds[d];
        padded += pads ? 1 : 0;
        p = i % 10 == 0 ? space.random_point(rng) : space.neighbor(p, rng);
    }
    EXPECT_GT(padded, 100);
}

// The fewest cycles, 20,000 evaluations on one thread (deterministic).
SearchOptions fewest_cycles_search() {
    SearchOptions o;
    o.objective = Objective::latency;
    o.budget.max_evaluations = 20000;
    o.threads = 1;
    return o;
}

TEST(ImperfectMapspace, TheSearchUsesEveryColumnForFewerCycles) {
    const ArchModel arch = arch16();
    const PhaseProblem fw = make_phase_problem("fc", Phase::fw, kFc);
    const SearchOptions o = fewest_cycles_search();
    MapspaceConstraints constraints{parse_dataflow("K,N"), true};
    const SearchResult perfect = search(arch, fw, Mapspace::build(arch, kFc, constraints), o);
    constraints.imperfect_factors = true;
    const SearchResult padded = search(arch, fw, Mapspace::build(arch, kFc, constraints), o);
    ASSERT_TRUE(perfect.best && padded.best);
    // 10 columns: 100 K-steps of 512 C and one N-step of 16 rows; 16 columns: 63 K-steps.
    EXPECT_EQ(perfect.best->cycles, 100 * 512);
    EXPECT_EQ(padded.best->cycles, 63 * 512);
    EXPECT_EQ(padded.best->mapping.total_factor(Dim::K), 1008);
}

// A row of 32 PEs over a 13 × 13 map's output positions (FlexFlow's rows,
// Lu et al., HPCA 2017): whole factors of P and Q fill 13 PEs; padding the
// window dimensions, only with imperfect_windows, fills 26 (P13 × Q2 over Q
// padded to 14), in 7 steps of Q instead of 13.
TEST(ImperfectMapspace, PadsTheWindowDimensionsOnlyWhenAsked) {
    const IterationSpace conv =
        space_of({{Dim::K, 8}, {Dim::C, 4}, {Dim::P, 13}, {Dim::Q, 13}, {Dim::R, 3}, {Dim::S, 3}});
    const ArchModel arch = testing::three_level(1, 32, 1 << 20, 1 << 12);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv);
    const SearchOptions o = fewest_cycles_search();
    MapspaceConstraints constraints{parse_dataflow("PQ,K"), true};
    constraints.imperfect_factors = true;
    const DimSet one_term_set{Dim::N, Dim::K, Dim::C, Dim::G};
    const DimSet window_set{Dim::P, Dim::Q, Dim::R, Dim::S};
    EXPECT_EQ(constraints.paddable(conv.shape), one_term_set);
    const SearchResult one_term = search(arch, fw, Mapspace::build(arch, conv, constraints), o);
    constraints.imperfect_windows = true;
    EXPECT_EQ(constraints.paddable(conv.shape), one_term_set | window_set);
    const Mapspace windows = Mapspace::build(arch, conv, constraints);
    EXPECT_EQ(windows.paddable(), one_term_set | window_set);
    const SearchResult padded = search(arch, fw, windows, o);
    ASSERT_TRUE(one_term.best && padded.best);
    const std::int64_t per_position = 8 * 4 * 3 * 3;  // K · C · R · S
    EXPECT_EQ(one_term.best->cycles, 13 * per_position);
    EXPECT_EQ(padded.best->cycles, 7 * per_position);
    const Mapping& m = padded.best->mapping;
    EXPECT_EQ(m.total_factor(Dim::P) * m.total_factor(Dim::Q), 13 * 14);
    // The MACs stay the layer's; the padded mapping passes the structural check.
    EXPECT_EQ(check_mapping_structure(arch, conv, m), std::nullopt);
    EXPECT_EQ(evaluate(arch, fw, m).nest.macs, conv.macs());
    // The lower bound for a mapspace that pads windows holds for its points.
    const CostLowerBound bound = cost_lower_bound(arch, fw, nullptr, windows.paddable());
    std::mt19937_64 rng(3);
    int checked = 0;
    for (int i = 0; i < 2000; ++i) {
        const Evaluation e = evaluate(arch, fw, windows.to_mapping(windows.random_point(rng)));
        if (!e.valid()) continue;
        ++checked;
        EXPECT_GE(e.energy_pj, bound.energy_pj * (1 - 1e-9));
        EXPECT_GE(e.nest.compute_cycles, bound.cycles);
    }
    EXPECT_GT(checked, 100);
}

// The cycles a machine that skips padded iterations takes (Timeloop's
// remainder tile), by brute force: the temporal iterations in which some
// spatial position does a real MAC. The evaluator's closed form
// (nest/padding.hpp) must agree.
std::int64_t clipped_compute_cycles(const IterationSpace& real, const Mapping& m) {
    const testing::FlatLoops flat = testing::flat_loops(m, 0);
    std::vector<testing::FlatLoop> temporal, spatial;
    for (const testing::FlatLoop& l : flat.loops) (l.temporal ? temporal : spatial).push_back(l);
    std::int64_t busy = 0;
    std::vector<std::int64_t> t(temporal.size(), 0);
    do {
        bool any_real = false;
        std::vector<std::int64_t> p(spatial.size(), 0);
        do {
            DimBounds at{};
            testing::add_offsets(at, temporal, t);
            testing::add_offsets(at, spatial, p);
            bool real_point = true;
            for (Dim d : kAllDims) real_point = real_point && at[d] < real.bounds[d];
            any_real = any_real || real_point;
        } while (!any_real && testing::next_iteration(p, spatial));
        busy += any_real ? 1 : 0;
    } while (testing::next_iteration(t, temporal));
    return busy;
}

TEST(ImperfectMapspace, PaddedCyclesAreARemainderTiles) {
    // K = 10 on 4 columns: 4 (padded to 12, 3 steps) beside the divisors 1 and 2.
    const IterationSpace small = space_of({{Dim::N, 3}, {Dim::K, 10}, {Dim::C, 6}});
    const ArchModel arch = testing::three_level(3, 4, 1 << 12, 1 << 8);
    MapspaceConstraints constraints{parse_dataflow("K,N"), true};
    constraints.imperfect_factors = true;
    const Mapspace space = Mapspace::build(arch, small, constraints);
    const PhaseProblem fw = make_phase_problem("small", Phase::fw, small);
    std::mt19937_64 rng(23);
    int padded = 0;
    for (int n = 0; n < 300; ++n) {
        const Mapping m = space.to_mapping(space.random_point(rng));
        if (m.total_factor(Dim::K) == 10) continue;
        ++padded;
        const Evaluation e = evaluate(arch, fw, m);
        EXPECT_EQ(e.nest.compute_cycles, clipped_compute_cycles(small, m));
    }
    EXPECT_GT(padded, 50);
    // Any padding, anywhere: random mappings of the layer padded to N = 4,
    // K = 12 (temporal and spatial loops at every level).
    IterationSpace both = small;
    both.bounds[Dim::N] = 4;
    both.bounds[Dim::K] = 12;
    int checked = 0;
    for (int n = 0; n < 300; ++n) {
        const Mapping m = testing::random_mapping(arch, both, rng);
        const Evaluation e = evaluate(arch, fw, m);
        if (!e.valid()) continue;
        ++checked;
        EXPECT_EQ(e.nest.compute_cycles, clipped_compute_cycles(small, m));
    }
    EXPECT_GT(checked, 100);
    // A mapping file may pad a temporal loop instead: the steps wholly in the
    // padding are skipped, as a remainder tile skips them.
    Mapping temporal;
    temporal.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) temporal.level(i).keep = DataSpaceSet::all();
    temporal.level(0).temporal = testing::loops({{Dim::N, 3}, {Dim::C, 6}, {Dim::K, 4}});
    temporal.level(2).temporal = testing::loops({{Dim::K, 3}});
    const Evaluation e = evaluate(arch, fw, temporal);
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.nest.compute_cycles, 3 * 6 * 10);
    EXPECT_EQ(clipped_compute_cycles(small, temporal), 3 * 6 * 10);
}

// Mapspace::remainder_tile: one level below the outermost gets a tile of a
// paddable dimension, the outermost takes ⌈bound / inner tile⌉ steps; the
// other dimensions and levels are untouched, the extent stays within
// [bound, 2 · bound), and without imperfect factors there is no such move.
TEST(ImperfectMapspace, ARemainderTileLeavesTheRemainderToTheOutermostLevel) {
    const IterationSpace fc = space_of({{Dim::N, 16}, {Dim::K, 16}, {Dim::C, 106}});
    const ArchModel arch = arch16();
    MapspaceConstraints constraints{parse_dataflow("K,N"), true};
    std::mt19937_64 rng(7);
    const Mapspace perfect = Mapspace::build(arch, fc, constraints);
    EXPECT_EQ(perfect.remainder_tile(perfect.random_point(rng), rng), std::nullopt);
    constraints.imperfect_factors = true;
    const Mapspace space = Mapspace::build(arch, fc, constraints);
    int moved = 0;
    int remainders = 0;
    for (int n = 0; n < 2000; ++n) {
        const MapPoint from = space.random_point(rng);
        const auto to = space.remainder_tile(from, rng);
        if (!to) continue;
        ++moved;
        const Mapping m = space.to_mapping(*to);
        ASSERT_EQ(check_mapping_structure(arch, fc, m), std::nullopt);
        // One dimension changes, and only at the outermost level and one other.
        std::vector<Dim> changed;
        for (Dim d : kAllDims) {
            int inner_levels = 0;  // changed levels below the outermost
            for (std::size_t i = 1; i < space.num_levels(); ++i) {
                inner_levels += to->factors[i][d] != from.factors[i][d] ? 1 : 0;
            }
            if (inner_levels == 0 && to->factors[0][d] == from.factors[0][d]) continue;
            changed.push_back(d);
            EXPECT_LE(inner_levels, 1);
        }
        ASSERT_LE(changed.size(), 1u);
        if (changed.empty()) continue;
        const Dim d = changed.front();
        EXPECT_TRUE(one_term_dims(fc.shape).contains(d));
        const std::int64_t bound = space.temporal_bound(to->spatial, d);
        std::int64_t inner = 1;
        for (std::size_t i = 1; i < space.num_levels(); ++i) inner *= to->factors[i][d];
        EXPECT_EQ(to->factors[0][d], (bound + inner - 1) / inner);
        EXPECT_GE(m.total_factor(d), fc.bounds[d]);
        EXPECT_LT(m.total_factor(d), 2 * fc.bounds[d]);
        remainders += m.total_factor(d) != fc.bounds[d] ? 1 : 0;
    }
    EXPECT_GT(moved, 1000);
    EXPECT_GT(remainders, moved / 2);  // C = 106 = 2 · 53 has few tiles without one
}

// Where a buffer holds a tile no divisor gives, the search takes a remainder
// tile: K = 106 = 2 · 53 output channels, one MAC unit, a global buffer of
// 2,048 words, RegFiles of 64. The best mapping with perfect factors (the
// whole mapspace, searched) splits K as 2 · 53 · 1 over DRAM, the global
// buffer and the RegFile; the search with remainder tiles found 2 · 9 · 6
// (108, the second DRAM step a partial one) for 7 % less energy. The cycles
// do not grow: the padded steps are skipped (nest/padding.hpp).
TEST(ImperfectMapspace, TheSearchTakesARemainderTileWhereNoDivisorFitsTheBuffer) {
    const IterationSpace fc = space_of({{Dim::N, 64}, {Dim::K, 106}, {Dim::C, 64}});
    const ArchModel arch = testing::three_level(1, 1, 2048, 64);
    const PhaseProblem fw = make_phase_problem("fc", Phase::fw, fc);
    SearchOptions o;
    o.objective = Objective::energy;
    o.threads = 2;
    o.strategy = SearchStrategy::exhaustive;
    o.budget.max_evaluations = 0;
    MapspaceConstraints constraints{parse_dataflow("C,N"), true};
    const SearchResult perfect = search(arch, fw, Mapspace::build(arch, fc, constraints), o);
    ASSERT_TRUE(perfect.exhausted);
    constraints.imperfect_factors = true;
    o.strategy = SearchStrategy::anneal;
    o.budget.max_evaluations = kConvergingBudget;
    o.budget.stop_when_converged = true;
    const SearchResult padded = search(arch, fw, Mapspace::build(arch, fc, constraints), o);
    ASSERT_TRUE(perfect.best && padded.best);
    EXPECT_GT(padded.best->mapping.total_factor(Dim::K), 106);
    EXPECT_LT(padded.best->energy_pj, 0.95 * perfect.best->energy_pj)
        << padded.best->energy_pj << " vs " << perfect.best->energy_pj;
    EXPECT_EQ(padded.best->cycles, perfect.best->cycles);
    EXPECT_EQ(padded.best->cycles, 64 * 106 * 64);
}

// `map` notes where perfect factors leave part of an axis idle that padding
// would fill; not where a divisor would fill it, nor on a padded mapping.
TEST(ImperfectMapspace, IdleAxisHintOnlyWhereNoDivisorFillsTheAxis) {
    const ArchModel arch = arch16();
    const auto spread_k = [](std::int64_t bound, std::int64_t k_across) {
        Mapping m;
        m.num_levels = 3;
        for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
        m.level(0).temporal =
            testing::loops({{Dim::N, 16}, {Dim::C, 512}, {Dim::K, bound / k_across}});
        m.level(1).spatial_x = testing::loops({{Dim::K, k_across}});
        return m;
    };
    const auto hint = idle_axis_hint(arch, kFc, spread_k(1000, 10));
    ASSERT_TRUE(hint.has_value());
    EXPECT_EQ(hint->dim, Dim::K);
    EXPECT_TRUE(hint->x);
    EXPECT_EQ(hint->instances, 10);
    EXPECT_EQ(hint->padded, 16);
    EXPECT_EQ(hint->fanout, 16);
    // K = 64: 8 of 16 columns, but 16 divides 64: the search's business, not padding's.
    IterationSpace k64 = kFc;
    k64.bounds[Dim::K] = 64;
    EXPECT_EQ(idle_axis_hint(arch, k64, spread_k(64, 8)), std::nullopt);
    // Already padded (K16 · 63 = 1,008): nothing to suggest.
    Mapping padded = spread_k(1008, 16);
    EXPECT_EQ(idle_axis_hint(arch, kFc, padded), std::nullopt);
}

}  // namespace
}  // namespace trainloop
