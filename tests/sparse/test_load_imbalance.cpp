// The load-imbalance model: the dense case, the wave shape, the schemes, and
// the shapes of Procrustes figs. 5 and 13.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "imbalance/expected_maximum.hpp"
#include "imbalance/wave_shape.hpp"
#include "imbalance_fixtures.hpp"

namespace trainloop {
namespace {

using testing::Dataflow;
using testing::weight_sparse_case;

const ClusteredModel kPerFilter{ClusterDistribution::beta, 0.5, ClusterUnit::filter};

TEST(LoadImbalance, DenseOperandsDoNotApplyAndGiveTheDenseCycles) {
    const auto c = weight_sparse_case(Dataflow::CK, 8, 8, 4, 4, 10, UniformModel{}, 1.0);
    for (auto method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        const LoadImbalance r = c.run(method);
        EXPECT_FALSE(r.applies);
        EXPECT_EQ(r.cycles, double(c.nest.compute_cycles));
        EXPECT_EQ(r.imbalance_cycles, 0.0);
        EXPECT_EQ(r.waves, 10);
    }
}

TEST(LoadImbalance, NoComputeSkippingMeansNoImbalance) {
    auto c = weight_sparse_case(Dataflow::CK, 8, 8, 4, 4, 10, UniformModel{}, 0.1);
    c.arch.compute_skip = PhaseDataSpaces{};
    const LoadImbalance r = c.run(ImbalanceMethod::closed_form);
    EXPECT_FALSE(r.applies);
    EXPECT_EQ(r.cycles, double(c.nest.compute_cycles));
}

TEST(LoadImbalance, AnOutputMaskSkipsLikeAnOperand) {
    // In wu the weights' data space is the output dw: a density below 1 there
    // is its known-zero mask (pruned weights' gradients), and skipping
    // conditioned on it spreads work over the PEs like an operand's zeros.
    auto c = weight_sparse_case(Dataflow::CK, 4, 4, 2, 2, 3, UniformModel{}, 0.1);
    c.problem = make_phase_problem("l", Phase::wu, c.problem.space);
    c.nest = analyze_nest(c.problem, c.mapping);
    ASSERT_EQ(c.problem.output(), DataSpace::weights);
    const WaveShape w = wave_shape(c.arch, c.problem, c.mapping, c.densities);
    ASSERT_EQ(w.num_operands, 1u);
    EXPECT_EQ(w.operands[0].space, DataSpace::weights);
    const LoadImbalance masked = c.run(ImbalanceMethod::closed_form);
    EXPECT_TRUE(masked.applies);
    EXPECT_LT(masked.cycles, double(c.nest.compute_cycles));
    c.densities.spaces[DataSpace::weights].density = 1.0;  // no mask
    EXPECT_FALSE(c.run(ImbalanceMethod::closed_form).applies);
}

TEST(LoadImbalance, WaveShapeOfACKMapping) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 8, 3, 5, 7, UniformModel{}, 0.5);
    const WaveShape w = wave_shape(c.arch, c.problem, c.mapping, c.densities);
    EXPECT_EQ(w.pe_level, 1u);
    EXPECT_EQ(w.waves, 7);
    EXPECT_EQ(w.pes_x, 16);
    EXPECT_EQ(w.pes_y, 8);
    EXPECT_EQ(w.pe_macs, 2 * 3 * 5);
    ASSERT_EQ(w.num_operands, 1u);
    EXPECT_EQ(w.operands[0].tile.elements(), 15);
    EXPECT_EQ(w.distinct_x, 16);  // C indexes the weights
    EXPECT_EQ(w.distinct_y, 8);
}

TEST(LoadImbalance, DenseMinibatchAxisGivesIdenticalWork) {
    // K,N: N along x does not index the weights, so the 16 columns hold copies.
    const auto c = weight_sparse_case(Dataflow::KN, 16, 8, 3, 5, 7, kPerFilter, 0.2);
    const WaveShape w = wave_shape(c.arch, c.problem, c.mapping, c.densities);
    EXPECT_EQ(w.distinct_x, 1);
    EXPECT_EQ(w.distinct_y, 8);
    EXPECT_EQ(w.operands[0].cluster_groups(), 8);
}

TEST(LoadImbalance, SharedFiltersAreOneClusterGroup) {
    // C,K with per-filter clusters: the 16 PEs of a row share their filters.
    const auto c = weight_sparse_case(Dataflow::CK, 16, 8, 3, 5, 7, kPerFilter, 0.2);
    const WaveShape w = wave_shape(c.arch, c.problem, c.mapping, c.densities);
    EXPECT_EQ(w.operands[0].distinct(), 128);
    EXPECT_EQ(w.operands[0].clusters_x, 1);
    EXPECT_EQ(w.operands[0].clusters_y, 8);
}

TEST(LoadImbalance, OneWeightPerPEIsExact) {
    // Each PE holds one weight used twice: its work is 0 or 2; the slowest of
    // 64 PEs does 2 unless all weights are zero.
    const double d = 0.03;
    const auto c = weight_sparse_case(Dataflow::CK, 8, 8, 1, 1, 5, UniformModel{}, d);
    const LoadImbalance r = c.run(ImbalanceMethod::closed_form);
    EXPECT_TRUE(r.applies);
    EXPECT_NEAR(r.cycles, 5 * 2 * (1 - std::pow(1 - d, 64)), 1e-9);
    EXPECT_NEAR(r.balanced_cycles, 5 * 2 * d, 1e-12);
    EXPECT_NEAR(r.imbalance_pct, 100 * (r.cycles / r.balanced_cycles - 1), 1e-9);
}

TEST(LoadImbalance, MonteCarloIsSeededAndDeterministic) {
    const auto c = weight_sparse_case(Dataflow::CK, 8, 8, 4, 4, 50, kPerFilter, 0.2);
    ImbalanceOptions o;
    o.method = ImbalanceMethod::monte_carlo;
    const auto run = [&](std::uint64_t seed) {
        o.seed = seed;
        return estimate_load_imbalance(c.arch, c.problem, c.mapping, c.nest, c.densities, o).cycles;
    };
    EXPECT_EQ(run(3), run(3));
    EXPECT_NE(run(3), run(4));
}

TEST(LoadImbalance, HistogramFractionsSumToOne) {
    const auto c = weight_sparse_case(Dataflow::CK, 8, 8, 4, 4, 50, kPerFilter, 0.2);
    const LoadImbalance r = c.run(ImbalanceMethod::closed_form, 256, true);
    ASSERT_EQ(r.histogram.size(), 11u);
    double sum = 0;
    for (const OverheadBin& b : r.histogram) sum += b.fraction_of_waves;
    EXPECT_NEAR(sum, 1.0, 1e-12);
    EXPECT_EQ(r.histogram[0].lower_pct, 0.0);
    EXPECT_EQ(r.histogram[0].upper_pct, 10.0);
    EXPECT_TRUE(c.run(ImbalanceMethod::closed_form).histogram.empty());
}

double fraction_below(const LoadImbalance& r, double pct) {
    double f = 0;
    for (const OverheadBin& b : r.histogram) f += b.upper_pct <= pct ? b.fraction_of_waves : 0.0;
    return f;
}

// Procrustes fig. 5: C,K, no balancing, ~10 %-dense clustered weights — typical
// per-wave overheads of tens of percent.
TEST(LoadImbalanceSanity, CKWithoutBalancingLosesTensOfPercent) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 16, 16, 200, kPerFilter, 0.1,
                                      LoadBalancingScheme::none, 3);
    const LoadImbalance cf = c.run(ImbalanceMethod::closed_form);
    const LoadImbalance mc = c.run(ImbalanceMethod::monte_carlo, 200, true);
    EXPECT_GT(cf.imbalance_pct, 20.0);
    EXPECT_LT(cf.imbalance_pct, 150.0);
    EXPECT_LT(fraction_below(mc, 10.0), 0.1) << "most waves should lose more than 10 %";
}

// Procrustes fig. 13: K,N with half-tile pairing along K — most waves within 10 %.
TEST(LoadImbalanceSanity, KNWithHalfTilePairingIsMostlyWithinTenPercent) {
    const auto none = weight_sparse_case(Dataflow::KN, 16, 16, 16, 16, 200, kPerFilter, 0.1,
                                         LoadBalancingScheme::none, 3);
    const auto paired = weight_sparse_case(Dataflow::KN, 16, 16, 16, 16, 200, kPerFilter, 0.1,
                                           LoadBalancingScheme::half_tile_pairing, 3);
    const LoadImbalance mc = paired.run(ImbalanceMethod::monte_carlo, 200, true);
    const LoadImbalance cf = paired.run(ImbalanceMethod::closed_form);
    EXPECT_GT(fraction_below(mc, 10.0), 0.5);
    EXPECT_LT(cf.cycles, none.run(ImbalanceMethod::closed_form).cycles);
    EXPECT_NEAR(cf.cycles, mc.cycles, 0.05 * mc.cycles);
    EXPECT_GT(cf.balancing_words, 0.0);
    EXPECT_EQ(cf.balancing_cycles, 0.0);
}

TEST(LoadImbalanceSchemes, PairingAlongADenseAxisChangesNothing) {
    auto c = weight_sparse_case(Dataflow::KN, 16, 16, 4, 16, 20, kPerFilter, 0.1,
                                LoadBalancingScheme::half_tile_pairing, 3);
    c.arch.load_balancing.axis = ArrayAxis::x;  // N: identical tiles along it
    auto none = c;
    none.arch.load_balancing = {};
    EXPECT_DOUBLE_EQ(c.run(ImbalanceMethod::closed_form).cycles,
                     none.run(ImbalanceMethod::closed_form).cycles);
}

TEST(LoadImbalanceSchemes, EachSchemeBeatsNoneAndReportsItsCosts) {
    const auto none = weight_sparse_case(Dataflow::CK, 16, 16, 4, 16, 50, kPerFilter, 0.1,
                                         LoadBalancingScheme::none, 3);
    const double base = none.run(ImbalanceMethod::closed_form).cycles;
    for (auto scheme :
         {LoadBalancingScheme::half_tile_pairing, LoadBalancingScheme::two_level_work_stealing,
          LoadBalancingScheme::flexible_allocation}) {
        SCOPED_TRACE(std::string(load_balancing_scheme_name(scheme)));
        const auto c =
            weight_sparse_case(Dataflow::CK, 16, 16, 4, 16, 50, kPerFilter, 0.1, scheme, 3);
        const LoadImbalance cf = c.run(ImbalanceMethod::closed_form);
        const LoadImbalance mc = c.run(ImbalanceMethod::monte_carlo, 50);
        EXPECT_LT(cf.cycles, base);
        EXPECT_GT(cf.balancing_words, 0.0);
        EXPECT_NEAR(cf.cycles, mc.cycles, 0.05 * mc.cycles);
        EXPECT_NEAR(cf.balanced_cycles, mc.balanced_cycles, 0.03 * mc.balanced_cycles);
    }
}

// Eager Pruning's adder tree (DRACT) is a
// pipeline whose configuration travels with the weights (§4.2–4.3), so its
// depth is paid once per layer and phase, not per wave.
TEST(LoadImbalanceSchemes, FlexibleAllocationPaysTheAdderTreeDepthOnce) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 16, 50, kPerFilter, 0.1,
                                      LoadBalancingScheme::flexible_allocation, 3);
    for (ImbalanceMethod method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        const LoadImbalance r = c.run(method, 50);
        EXPECT_DOUBLE_EQ(r.balancing_cycles, 8.0);  // log2(256), once
        // Evenly spread work: within a rounding cycle per wave of the balanced time.
        EXPECT_LE(r.cycles - r.balancing_cycles, r.balanced_cycles + 50 * 1.0 + 1e-9);
        EXPECT_GE(r.cycles - r.balancing_cycles, r.balanced_cycles - 1e-9);
    }
}

// A dense layer on flexible allocation has no imbalance at all: every wave
// is the same, the work divides evenly (charging the tree per wave showed 31 %).
TEST(LoadImbalanceSchemes, FlexibleAllocationOfEvenWorkIsBalancedButForTheTreeFill) {
    const auto c = weight_sparse_case(Dataflow::CK, 32, 64, 4, 4, 40, UniformModel{}, 0.5,
                                      LoadBalancingScheme::flexible_allocation, 1, 9);
    const LoadImbalance r = c.run(ImbalanceMethod::monte_carlo, 40);
    EXPECT_DOUBLE_EQ(r.balancing_cycles, 11.0);  // log2(2048)
    EXPECT_LT(r.imbalance_pct, 100.0 * (11.0 + 40 * 1.0) / r.balanced_cycles + 1e-9);
    EXPECT_LT(r.imbalance_pct, 10.0);
}

// fw on an 8 × 8 array, one weight per PE (C along x, K along y), 16 waves
// along `wave_dim` (K, C or P); the PEs keep only their weights, so the
// inputs stream.
testing::ImbalanceCase sixteen_waves(
    Dim wave_dim, double density,
    LoadBalancingScheme scheme = LoadBalancingScheme::flexible_allocation) {
    testing::ImbalanceCase c;
    c.arch = testing::two_level(8, 8, 1 << 30);
    c.arch.compute_skip.insert(DataSpace::weights);
    c.arch.load_balancing.scheme = scheme;
    if (scheme == LoadBalancingScheme::line_indexing) c.arch.load_balancing.axis = ArrayAxis::x;
    const auto bound = [wave_dim](Dim d, std::int64_t spread) {
        return wave_dim == d ? 16 * spread : spread;
    };
    c.problem = make_phase_problem(
        "l", Phase::fw,
        testing::space_of(
            {{Dim::K, bound(Dim::K, 8)}, {Dim::C, bound(Dim::C, 8)}, {Dim::P, bound(Dim::P, 1)}}));
    c.mapping.num_levels = 2;
    c.mapping.level(0).keep = DataSpaceSet::all();
    c.mapping.level(1).keep = DataSpaceSet{};
    c.mapping.level(1).keep.insert(DataSpace::weights);
    c.mapping.level(0).temporal = testing::loops({{wave_dim, 16}});
    c.mapping.level(0).spatial_x = testing::loops({{Dim::C, 8}});
    c.mapping.level(0).spatial_y = testing::loops({{Dim::K, 8}});
    c.nest = analyze_nest(c.problem, c.mapping);
    c.densities.spaces[DataSpace::weights] = {density, UniformModel{}};
    return c;
}

// Eager Pruning §4.1-4.2, eq. (9): DRACT loads the nonzero weights of as many
// filters as fit into the PEs, so waves that differ only in their filters
// (K) share the PEs; waves over output positions (P) hold the same weights
// and do not. At a quarter of the weights, one weight per PE: a wave alone
// takes a cycle unless all 64 weights are pruned; 16 filter waves packed take
// about 16 / 4.
TEST(LoadImbalanceSchemes, FlexibleAllocationPacksWavesThatDifferOnlyInTheirFilters) {
    const auto filters = sixteen_waves(Dim::K, 0.25);
    const auto positions = sixteen_waves(Dim::P, 0.25);
    EXPECT_EQ(
        wave_shape(filters.arch, filters.problem, filters.mapping, filters.densities).packed_waves,
        16);
    EXPECT_EQ(wave_shape(positions.arch, positions.problem, positions.mapping, positions.densities)
                  .packed_waves,
              1);
    const double tree = 6.0;  // log2(64), once
    for (ImbalanceMethod method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        SCOPED_TRACE(method == ImbalanceMethod::closed_form ? "closed form" : "Monte Carlo");
        const LoadImbalance packed = filters.run(method, 4096);
        const LoadImbalance alone = positions.run(method, 4096);
        EXPECT_NEAR(alone.cycles - tree, 16.0, 0.01);
        // Monte Carlo draws the 16 waves' 1,024 weights once: sd 0.22 cycles.
        EXPECT_NEAR(packed.balanced_cycles, 4.0,
                    method == ImbalanceMethod::closed_form ? 1e-9 : 0.75);
        EXPECT_GE(packed.cycles - tree, packed.balanced_cycles - 1e-9);
        // One group of 16 waves: rounded up once.
        EXPECT_LE(packed.cycles - tree, packed.balanced_cycles + 1.0 + 1e-9);
    }
    // Dense: every wave fills the PEs, packed or not.
    EXPECT_DOUBLE_EQ(sixteen_waves(Dim::K, 1.0).run(ImbalanceMethod::closed_form).cycles,
                     sixteen_waves(Dim::P, 1.0).run(ImbalanceMethod::closed_form).cycles);
}

// Cambricon-X's rows as Eager Pruning describes them (§4.1, §5.2): "16 PEs in
// a row serve one output", fed its filter's nonzero weights, and "idleness
// will occur in rows with lighter workloads". With C along x and K along y, a
// row's 16 PEs hold one filter: line indexing along x spreads each row's work
// over its PEs and waits for the busiest row. Per-filter clusters make the
// rows differ, and it then falls behind flexible allocation's whole-array
// spread; both stay ahead of no balancing.
TEST(LoadImbalanceSchemes, LineIndexingBalancesEachRowAndWaitsForTheBusiest) {
    const auto make = [](LoadBalancingScheme scheme, const DensityModel& model) {
        auto c = weight_sparse_case(Dataflow::CK, 16, 8, 1, 4, 400, model, 0.3, scheme, 1, 2);
        c.arch.load_balancing.axis = scheme == LoadBalancingScheme::line_indexing
                                         ? std::optional<ArrayAxis>(ArrayAxis::x)
                                         : std::nullopt;
        return c;
    };
    std::map<std::string, double> lines_over_flexible;
    for (const auto& [name, model] : std::vector<std::pair<std::string, DensityModel>>{
             {"uniform", UniformModel{}}, {"per filter", kPerFilter}}) {
        SCOPED_TRACE(name);
        const auto lines = make(LoadBalancingScheme::line_indexing, model);
        const LoadImbalance cf = lines.run(ImbalanceMethod::closed_form);
        const LoadImbalance mc = lines.run(ImbalanceMethod::monte_carlo, 4096);
        // A row's sum is normal in the closed form; per-filter clusters skew it
        // (the schemes' grid allows 8 %: test_imbalance_grid.cpp).
        EXPECT_NEAR(cf.cycles, mc.cycles, (name == "uniform" ? 0.05 : 0.08) * mc.cycles);
        EXPECT_EQ(cf.balancing_axis, 0);
        const LoadImbalance none =
            make(LoadBalancingScheme::none, model).run(ImbalanceMethod::closed_form);
        const LoadImbalance flexible =
            make(LoadBalancingScheme::flexible_allocation, model).run(ImbalanceMethod::closed_form);
        EXPECT_LT(cf.cycles, none.cycles);
        EXPECT_LE(flexible.cycles - flexible.balancing_cycles, cf.cycles * (1 + 1e-9));
        lines_over_flexible[name] = cf.cycles / (flexible.cycles - flexible.balancing_cycles);
    }
    EXPECT_GT(lines_over_flexible["per filter"], lines_over_flexible["uniform"] * 1.05);
}

// A row runs back to back the waves that feed its outputs with more of its
// filter (C tiles), not those that start new outputs (K tiles). One weight per
// PE at a quarter density: a C wave alone takes a cycle unless a row's 8
// weights are all pruned; 16 packed take about 16 / 4, plus the busiest row's excess.
TEST(LoadImbalanceSchemes, LineIndexingPacksTheWavesThatFeedTheSameOutputs) {
    const auto channels = sixteen_waves(Dim::C, 0.25, LoadBalancingScheme::line_indexing);
    const auto filters = sixteen_waves(Dim::K, 0.25, LoadBalancingScheme::line_indexing);
    EXPECT_EQ(wave_shape(channels.arch, channels.problem, channels.mapping, channels.densities)
                  .line_packed_waves,
              16);
    EXPECT_EQ(wave_shape(filters.arch, filters.problem, filters.mapping, filters.densities)
                  .line_packed_waves,
              1);
    for (ImbalanceMethod method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        SCOPED_TRACE(method == ImbalanceMethod::closed_form ? "closed form" : "Monte Carlo");
        const LoadImbalance packed = channels.run(method, 4096);
        const LoadImbalance alone = filters.run(method, 4096);
        EXPECT_GT(alone.cycles, 15.0);
        EXPECT_LE(alone.cycles, 16.01);
        EXPECT_GT(packed.cycles, 4.0);
        EXPECT_LT(packed.cycles, 8.0);
    }
}

// A line of line indexing ends at an instance of the level that feeds the
// PEs: Eager Pruning's CX baseline has four sub-systems, each with its own
// rows of 16 PEs and indexing module (§5.2). 16 × 8 PEs in two sub-systems
// side by side along x, C spread 2 across them and 8 within each, K along y:
// each array row is two lines of 8 tiles, so the lines are those of an 8 × 16
// array of one sub-system (C 8 along x, K 16 along y), and wait longer than
// one 16-tile line per row.
TEST(LoadImbalanceSchemes, LineIndexingLinesEndAtTheInstancesThatFeedThePEs) {
    const auto make = [](std::int64_t subsystems, std::int64_t x, std::int64_t y) {
        testing::ImbalanceCase c;
        c.arch.pe_rows = y;
        c.arch.pe_columns = x;
        c.arch.num_levels = 3;
        c.arch.levels[0] = testing::level(1, 1, 1, -1, 100, 100, 100);
        c.arch.levels[1] = testing::level(subsystems, subsystems, 1, 1 << 20, 6, 6, 6);
        c.arch.levels[2] = testing::level(x * y, x, y, 1 << 20, 1, 1, 1);
        c.arch.compute_skip.insert(DataSpace::weights);
        c.arch.load_balancing.scheme = LoadBalancingScheme::line_indexing;
        c.arch.load_balancing.axis = ArrayAxis::x;
        c.problem = make_phase_problem(
            "l", Phase::fw,
            testing::space_of({{Dim::N, 40}, {Dim::K, y}, {Dim::C, 4 * x}, {Dim::R, 3}}));
        c.mapping.num_levels = 3;
        for (std::size_t i = 0; i < 3; ++i) c.mapping.level(i).keep = DataSpaceSet::all();
        c.mapping.level(0).temporal = testing::loops({{Dim::N, 20}});
        c.mapping.level(0).spatial_x = testing::loops({{Dim::C, subsystems}});
        c.mapping.level(1).spatial_x = testing::loops({{Dim::C, x / subsystems}});
        c.mapping.level(1).spatial_y = testing::loops({{Dim::K, y}});
        c.mapping.level(2).temporal = testing::loops({{Dim::N, 2}, {Dim::C, 4}, {Dim::R, 3}});
        c.nest = analyze_nest(c.problem, c.mapping);
        c.densities.spaces[DataSpace::weights] = {0.3, UniformModel{}};
        return c;
    };
    const auto split = make(2, 16, 8);
    const auto narrow = make(1, 8, 16);
    const auto whole = make(1, 16, 8);
    const WaveShape w = wave_shape(split.arch, split.problem, split.mapping, split.densities);
    EXPECT_EQ(w.distinct_x, 16);
    EXPECT_EQ(w.local_distinct_x, 8);
    EXPECT_EQ(w.operands[0].local_distinct_x, 8);
    EXPECT_EQ(
        wave_shape(whole.arch, whole.problem, whole.mapping, whole.densities).local_distinct_x, 16);
    const LoadImbalance cf = split.run(ImbalanceMethod::closed_form);
    EXPECT_DOUBLE_EQ(cf.cycles, narrow.run(ImbalanceMethod::closed_form).cycles);
    EXPECT_GT(cf.cycles, whole.run(ImbalanceMethod::closed_form).cycles * 1.02);
    const LoadImbalance mc = split.run(ImbalanceMethod::monte_carlo, 4096);
    EXPECT_NEAR(cf.cycles, mc.cycles, 0.05 * mc.cycles);
    EXPECT_GT(mc.cycles, whole.run(ImbalanceMethod::monte_carlo, 4096).cycles * 1.02);

    // Per-channel clusters with the channels across the sub-systems and the
    // filters within: each line holds one channel cluster set, in the closed
    // form and in the Monte Carlo's enumeration alike.
    auto channels = split;
    channels.problem = make_phase_problem(
        "l", Phase::fw, testing::space_of({{Dim::N, 40}, {Dim::K, 8}, {Dim::C, 64}, {Dim::R, 3}}));
    channels.mapping.level(1).spatial_x = testing::loops({{Dim::K, 8}});
    channels.mapping.level(1).spatial_y = testing::loops({{Dim::C, 8}});
    channels.nest = analyze_nest(channels.problem, channels.mapping);
    channels.densities.spaces[DataSpace::weights] = {
        0.3, ClusteredModel{ClusterDistribution::beta, 0.5, ClusterUnit::channel}};
    const WaveShape cw =
        wave_shape(channels.arch, channels.problem, channels.mapping, channels.densities);
    EXPECT_EQ(cw.operands[0].clusters_x, 2);
    EXPECT_EQ(cw.operands[0].local_clusters_x, 1);
    const double channels_mc = channels.run(ImbalanceMethod::monte_carlo, 4096).cycles;
    EXPECT_NEAR(channels.run(ImbalanceMethod::closed_form).cycles, channels_mc, 0.08 * channels_mc);
}

// Flexible allocation within an instance of the level that feeds the PEs:
// each of Eager Pruning's sub-systems has its own adder tree (§4.2, §5.2), so
// a wave's work is pooled per sub-system and the wave waits for the busiest.
// 16 × 8 PEs in two sub-systems along x (C spread 2 across them, 8 within
// each, K 8 along y): each sub-system's 64 tiles are pooled on their own,
// which takes longer than pooling all 128, and at least as long as one
// sub-system of 64 tiles alone (closed form: 3,182 against 3,109 and 3,085
// cycles over 400 waves; Monte Carlo 3,186 against 3,109).
TEST(LoadImbalanceSchemes, FlexibleAllocationPoolsWithinEachInstance) {
    const auto make = [](std::int64_t subsystems, std::int64_t x) {
        testing::ImbalanceCase c;
        c.arch.pe_rows = 8;
        c.arch.pe_columns = x;
        c.arch.num_levels = 3;
        c.arch.levels[0] = testing::level(1, 1, 1, -1, 100, 100, 100);
        c.arch.levels[1] = testing::level(subsystems, subsystems, 1, 1 << 20, 6, 6, 6);
        c.arch.levels[2] = testing::level(x * 8, x, 8, 1 << 20, 1, 1, 1);
        c.arch.compute_skip.insert(DataSpace::weights);
        c.arch.load_balancing.scheme = LoadBalancingScheme::flexible_allocation;
        c.problem = make_phase_problem(
            "l", Phase::fw,
            testing::space_of({{Dim::N, 800}, {Dim::K, 8}, {Dim::C, 4 * x}, {Dim::R, 3}}));
        c.mapping.num_levels = 3;
        for (std::size_t i = 0; i < 3; ++i) c.mapping.level(i).keep = DataSpaceSet::all();
        c.mapping.level(0).temporal = testing::loops({{Dim::N, 400}});
        c.mapping.level(0).spatial_x = testing::loops({{Dim::C, subsystems}});
        c.mapping.level(1).spatial_x = testing::loops({{Dim::C, x / subsystems}});
        c.mapping.level(1).spatial_y = testing::loops({{Dim::K, 8}});
        c.mapping.level(2).temporal = testing::loops({{Dim::N, 2}, {Dim::C, 4}, {Dim::R, 3}});
        c.nest = analyze_nest(c.problem, c.mapping);
        c.densities.spaces[DataSpace::weights] = {0.3, UniformModel{}};
        return c;
    };
    const auto split = make(2, 16);
    const auto alone = make(1, 8);
    const auto pooled = make(1, 16);
    const LoadImbalance cf = split.run(ImbalanceMethod::closed_form);
    const LoadImbalance mc = split.run(ImbalanceMethod::monte_carlo, 4096);
    const double alone_cf = alone.run(ImbalanceMethod::closed_form).cycles;
    const double pooled_cf = pooled.run(ImbalanceMethod::closed_form).cycles;
    const double pooled_mc = pooled.run(ImbalanceMethod::monte_carlo, 4096).cycles;
    EXPECT_GE(cf.cycles, alone_cf);
    EXPECT_GT(cf.cycles, pooled_cf * 1.015);
    EXPECT_NEAR(cf.cycles, mc.cycles, 0.01 * mc.cycles);
    EXPECT_GT(mc.cycles, pooled_mc * 1.015);

    // Clustered weights: per filter (the sub-systems share the filters' cluster
    // sets, so their sums differ only in their own parts: taken as independent,
    // the closed form gave 3,380 cycles against the Monte Carlo's 3,103) and
    // per channel (each sub-system has its own channels' sets).
    for (ClusterUnit unit : {ClusterUnit::filter, ClusterUnit::channel}) {
        auto clustered = split;
        clustered.densities.spaces[DataSpace::weights] = {
            0.3, ClusteredModel{ClusterDistribution::beta, 0.5, unit}};
        const double clustered_mc = clustered.run(ImbalanceMethod::monte_carlo, 4096).cycles;
        EXPECT_NEAR(clustered.run(ImbalanceMethod::closed_form).cycles, clustered_mc,
                    0.03 * clustered_mc);
    }

    // Four filter tiles packed into each sub-system's PEs (K 4 over the waves,
    // WaveShape::packed_waves): each sub-system's sum over the packed waves.
    auto packed = split;
    packed.problem = make_phase_problem(
        "l", Phase::fw,
        testing::space_of({{Dim::N, 800}, {Dim::K, 32}, {Dim::C, 64}, {Dim::R, 3}}));
    packed.mapping.level(0).temporal = testing::loops({{Dim::N, 100}, {Dim::K, 4}});
    packed.nest = analyze_nest(packed.problem, packed.mapping);
    EXPECT_EQ(
        wave_shape(packed.arch, packed.problem, packed.mapping, packed.densities).packed_waves, 4);
    const double packed_mc = packed.run(ImbalanceMethod::monte_carlo, 4096).cycles;
    EXPECT_NEAR(packed.run(ImbalanceMethod::closed_form).cycles, packed_mc, 0.01 * packed_mc);
    // Per-filter clusters: the packed waves hold other filters, so other cluster draws.
    packed.densities.spaces[DataSpace::weights] = {
        0.3, ClusteredModel{ClusterDistribution::beta, 0.5, ClusterUnit::filter}};
    const double packed_clustered_mc = packed.run(ImbalanceMethod::monte_carlo, 4096).cycles;
    EXPECT_NEAR(packed.run(ImbalanceMethod::closed_form).cycles, packed_clustered_mc,
                0.03 * packed_clustered_mc);
}

// Half-tile pairing moves, per wave, one half tile
// into every PE (half its weight nonzeros) and half its partial sums back,
// each over the mean partner distance (n + 1)/3 along the balancing axis.
TEST(LoadImbalanceSchemes, PairingMovesHalfTilesAlongTheBalancingAxis) {
    // K,N: K (the sparse dimension) along y, 16 PEs; N along x.
    const auto c = weight_sparse_case(Dataflow::KN, 16, 16, 4, 16, 20, UniformModel{}, 0.1,
                                      LoadBalancingScheme::half_tile_pairing, 3);
    for (ImbalanceMethod method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        const LoadImbalance r = c.run(method, 20);
        const double weight_nonzeros = 0.1 * 4 * 16 * 3 * 3;  // k_t × c_t × r × s × density
        const double partial_sums = 4 * 2;                    // k_t × the PE's N (reuse)
        const double per_wave = 256 * (weight_nonzeros / 2 + partial_sums / 2);
        EXPECT_NEAR(r.balancing_words, 20 * per_wave, 1e-6 * r.balancing_words);
        EXPECT_NEAR(r.balancing_word_hops, r.balancing_words * 17.0 / 3.0,
                    1e-9 * r.balancing_word_hops);
        EXPECT_EQ(r.balancing_axis, 1);
    }
}

TEST(LoadImbalanceSchemes, TwoLevelStealingCapsTheExcess) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 16, 50, kPerFilter, 0.1,
                                      LoadBalancingScheme::two_level_work_stealing, 3);
    const LoadImbalance r = c.run(ImbalanceMethod::closed_form);
    // Coarse ≤ 10 % over the mean, a fifth of it left after stealing, plus the NoC round trip.
    EXPECT_LE(r.cycles - r.balancing_cycles, r.balanced_cycles * 1.02 + 50 * 0.5 + 1e-9);
    EXPECT_DOUBLE_EQ(r.balancing_cycles, 50 * 8.0);
}

TEST(ExpectedMaximum, NormalTableMatchesKnownValues) {
    // E[max of 2 standard normals] = 1/√π; of 3 = 3/(2√π).
    EXPECT_NEAR(normal_max_moments(2).m1, 1 / std::sqrt(std::numbers::pi), 1e-6);
    EXPECT_NEAR(normal_max_moments(3).m1, 1.5 / std::sqrt(std::numbers::pi), 1e-6);
    EXPECT_NEAR(normal_max_moments(2).m2, 1.0, 1e-6);
}

TEST(ExpectedMaximum, SkewedMaximumOfExponentials) {
    // Exponential(1): mean 1, sd 1, skew 2; E[max of n] = H_n (harmonic number).
    double h = 0;
    for (int i = 1; i <= 16; ++i) h += 1.0 / i;
    EXPECT_NEAR(expected_maximum(16, 1.0, 1.0, 2.0), h, 0.05 * h);
}

TEST(ExpectedMaximum, BinomialExact) {
    // Max of 3 Bernoulli(0.5): 1 − 0.5³.
    EXPECT_NEAR(expected_maximum_binomial(3, 1, 0.5), 0.875, 1e-12);
    EXPECT_NEAR(expected_maximum_binomial(1, 10, 0.3), 3.0, 1e-9);
}

}  // namespace
}  // namespace trainloop

namespace trainloop {
namespace {

// A hypergeometric operand (an exact count of nonzeros in the tensor): the
// closed form (its pmf's order statistics) against the Monte-Carlo sampler
// (draws without replacement), tiles drawn independently in both. On a 2×2
// array a PE's tile is a quarter of the tensor, so the counts spread
// visibly less than binomial ones (variance × (N − E)/(N − 1) ≈ 3/4), and
// the slowest PE finishes sooner.
TEST(LoadImbalance, HypergeometricClosedFormMatchesMonteCarlo) {
    // Densities whose ⌈d·N⌉ is exact on these tensors (4·t² weights), as
    // the evaluator makes them (with_tensor_sizes).
    for (double density : {0.25, 0.5}) {
        for (std::int64_t t : {4, 8}) {  // a one-element tile is Bernoulli either way
            const std::int64_t side = 2;
            const std::int64_t weights = side * side * t * t;  // one wave's: the tensor
            const auto c = weight_sparse_case(Dataflow::CK, side, side, t, t, 1000,
                                              HypergeometricModel{weights}, density);
            const double closed = c.run(ImbalanceMethod::closed_form).cycles;
            const double sampled = c.run(ImbalanceMethod::monte_carlo, 2000).cycles;
            EXPECT_NEAR(closed, sampled, 0.03 * sampled) << density << " tile " << t * t;
            const auto uniform =
                weight_sparse_case(Dataflow::CK, side, side, t, t, 1000, UniformModel{}, density);
            const double binomial = uniform.run(ImbalanceMethod::closed_form).cycles;
            EXPECT_LE(closed, binomial * (1 + 1e-12)) << density << " tile " << t * t;
            if (t == 8 && density == 0.5) {
                EXPECT_LT(closed, 0.995 * binomial);
            }
        }
    }
}

}  // namespace
}  // namespace trainloop
