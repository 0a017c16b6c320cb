// The per-PE workload standard deviation (LoadImbalance::workload_stddev):
// the spread of the PEs' work in a wave over its mean, the measure of Chen
// et al. 2024 Fig. 18, before any balancing scheme. Checked against the
// binomial's exact moments and the Monte-Carlo reference.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "imbalance/balancing_schemes.hpp"
#include "imbalance_fixtures.hpp"

namespace trainloop {
namespace {

using testing::Dataflow;
using testing::weight_sparse_case;

const ClusteredModel kPerFilter{ClusterDistribution::beta, 0.5, ClusterUnit::filter};

TEST(WorkloadStddev, UniformWeightsMatchTheBinomial) {
    // C,K on 16×16 PEs: 256 distinct tiles of 4×4 weights, each nonzero with
    // probability 0.3. A PE's nonzeros are binomial(16, 0.3): sd/mean =
    // sqrt(16·0.3·0.7)/(16·0.3) = 0.3819…; over 256 PEs the expected population
    // variance is (255/256)·σ².
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, UniformModel{}, 0.3);
    const double binomial = std::sqrt(16 * 0.3 * 0.7) / (16 * 0.3) * std::sqrt(255.0 / 256.0);
    EXPECT_NEAR(c.run(ImbalanceMethod::closed_form).workload_stddev, binomial, 1e-12);
    EXPECT_NEAR(c.run(ImbalanceMethod::monte_carlo, 200).workload_stddev, binomial, 0.02);
}

TEST(WorkloadStddev, ClusteredWeightsAgreeWithMonteCarlo) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, kPerFilter, 0.2);
    const double cf = c.run(ImbalanceMethod::closed_form).workload_stddev;
    const double mc = c.run(ImbalanceMethod::monte_carlo, 200).workload_stddev;
    EXPECT_GT(cf, 0.3) << "per-filter clusters add to the binomial spread";
    EXPECT_NEAR(cf, mc, 0.1 * mc);
}

TEST(WorkloadStddev, PesWithIdenticalWorkHaveNone) {
    // K,N with one K row: the 16 columns hold copies of the same weights.
    const auto c = weight_sparse_case(Dataflow::KN, 16, 1, 4, 4, 10, UniformModel{}, 0.3);
    EXPECT_EQ(c.run(ImbalanceMethod::closed_form).workload_stddev, 0.0);
    EXPECT_EQ(c.run(ImbalanceMethod::monte_carlo, 20).workload_stddev, 0.0);
}

TEST(WorkloadStddev, BalancingDoesNotChangeThePartitionsSpread) {
    // The measure is of the mapping's partition (seed 003's "dimension-based"
    // baseline), the same whatever the scheme then does with it.
    const auto none = weight_sparse_case(Dataflow::KN, 16, 16, 4, 16, 20, kPerFilter, 0.1);
    const auto stealing = weight_sparse_case(Dataflow::KN, 16, 16, 4, 16, 20, kPerFilter, 0.1,
                                             LoadBalancingScheme::two_level_work_stealing);
    EXPECT_GT(none.run(ImbalanceMethod::closed_form).workload_stddev, 0.0);
    EXPECT_EQ(none.run(ImbalanceMethod::closed_form).workload_stddev,
              stealing.run(ImbalanceMethod::closed_form).workload_stddev);
}

// What Chen et al.'s two balancing steps leave (Fig. 18): the coarse step
// clips every PE's deviation to ±10 % of the mean, stealing divides what is
// left by the torus neighbourhood (5) when the slowest PE's excess pays for it.
TEST(WorkloadStddev, TheCoarseStepClipsDeviationsAtTheTolerance) {
    // A spread well inside ±10 %: nothing to clip.
    const auto narrow = weight_sparse_case(Dataflow::CK, 16, 16, 64, 64, 20, UniformModel{}, 0.5);
    const LoadImbalance n = narrow.run(ImbalanceMethod::closed_form);
    ASSERT_LT(n.workload_stddev, 0.02);
    EXPECT_NEAR(n.workload_stddev_coarse, n.workload_stddev, 1e-6 * n.workload_stddev);
    // A wide one (binomial(16, 0.3): 0.38): what is left cannot exceed the tolerance.
    const auto wide = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, UniformModel{}, 0.3);
    const LoadImbalance w = wide.run(ImbalanceMethod::closed_form);
    EXPECT_GT(w.workload_stddev, 0.3);
    EXPECT_LT(w.workload_stddev_coarse, 0.1);
    EXPECT_GT(w.workload_stddev_coarse, 0.08) << "most PEs are beyond ±10 %: near the clip";
    // The clipped normal's second moment at a = t/σ = 1: σ²(erf(1/√2) − 2φ(1)) + 2t²(1 − Φ(1)).
    const double sigma = 0.1;
    const double expected = std::sqrt(
        sigma * sigma *
            (std::erf(1 / std::sqrt(2.0)) - 2 * std::exp(-0.5) / std::sqrt(2 * std::numbers::pi)) +
        2 * 0.01 * 0.5 * std::erfc(1 / std::sqrt(2.0)));
    EXPECT_NEAR(balancing::coarse_workload_stddev(sigma), expected, 1e-12);
    EXPECT_EQ(balancing::coarse_workload_stddev(0.0), 0.0);
}

TEST(WorkloadStddev, StealingSharesWhatTheCoarseStepLeavesWithFiveNeighbours) {
    // Each nonzero weight used 50 times: a PE's mean work is 16 · 0.3 · 50 =
    // 240 MACs, the slowest PE's excess after the coarse step 24 MACs, well
    // past the 3 that pay for the NoC round trip.
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, UniformModel{}, 0.3,
                                      LoadBalancingScheme::none, 1, 50);
    for (ImbalanceMethod method : {ImbalanceMethod::closed_form, ImbalanceMethod::monte_carlo}) {
        const LoadImbalance r = c.run(method, 200);
        EXPECT_NEAR(r.workload_stddev_two_level, r.workload_stddev_coarse / 5.0, 1e-12)
            << int(method);
        EXPECT_LT(r.workload_stddev_coarse, r.workload_stddev);
    }
    // Used twice: a mean of 9.6 MACs, an excess below 1 MAC does not pay
    // for the round trip, nothing is stolen.
    const auto small = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, UniformModel{}, 0.3);
    const LoadImbalance t = small.run(ImbalanceMethod::closed_form);
    EXPECT_GT(t.workload_stddev_coarse, 0.0);
    EXPECT_EQ(t.workload_stddev_two_level, t.workload_stddev_coarse);
}

TEST(WorkloadStddev, TheBalancedSpreadsAgreeWithMonteCarlo) {
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, kPerFilter, 0.2);
    const LoadImbalance cf = c.run(ImbalanceMethod::closed_form);
    const LoadImbalance mc = c.run(ImbalanceMethod::monte_carlo, 200);
    EXPECT_NEAR(cf.workload_stddev_coarse, mc.workload_stddev_coarse,
                0.1 * mc.workload_stddev_coarse);
    EXPECT_NEAR(cf.workload_stddev_two_level, mc.workload_stddev_two_level,
                0.1 * mc.workload_stddev_two_level);
}

TEST(WorkloadStddev, TheMappersInnerLoopLeavesTheBalancedSpreadsOut) {
    // ImbalanceOptions::balanced_spreads = false: the same cycles and spread
    // as partitioned, the two reported-only spreads not computed.
    const auto c = weight_sparse_case(Dataflow::CK, 16, 16, 4, 4, 50, UniformModel{}, 0.3,
                                      LoadBalancingScheme::two_level_work_stealing, 1, 50);
    const LoadImbalance full = c.run(ImbalanceMethod::closed_form);
    ImbalanceOptions lean;
    lean.balanced_spreads = false;
    const LoadImbalance inner =
        estimate_load_imbalance(c.arch, c.problem, c.mapping, c.nest, c.densities, lean);
    EXPECT_EQ(inner.cycles, full.cycles);
    EXPECT_EQ(inner.workload_stddev, full.workload_stddev);
    EXPECT_GT(full.workload_stddev_coarse, 0.0);
    EXPECT_EQ(inner.workload_stddev_coarse, 0.0);
    EXPECT_EQ(inner.workload_stddev_two_level, 0.0);
    // What the mapper derives for the mappings it keeps is what the full estimate reports.
    const BalancedSpreads derived = balanced_spreads(inner);
    EXPECT_EQ(derived.coarse, full.workload_stddev_coarse);
    EXPECT_EQ(derived.two_level, full.workload_stddev_two_level);
}

}  // namespace
}  // namespace trainloop
