// The per-PE workload standard deviation (LoadImbalance::workload_stddev):
// the spread of the PEs' work in a wave over its mean, the measure of Chen
// et al. 2024 Fig. 18, before any balancing scheme. Checked against the
// binomial's exact moments and the Monte-Carlo reference.
#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace trainloop
