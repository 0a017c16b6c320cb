// E[⌈W/c⌉] for flexible allocation (imbalance/expected_ceiling.hpp), and of
// the maximum of several copies: the lattice sum equals the threshold sum,
// the limit is within half a cycle of both where it is taken, and the
// dispatch never runs a long sum.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "imbalance/expected_ceiling.hpp"

namespace trainloop {
namespace {

TEST(ExpectedCeiling, ADegenerateNormalGivesTheCeilingOfItsMean) {
    // σ tiny against c and r: all the mass at one lattice point.
    const CeilingWork w{.mean = 1000, .sd = 1e-3, .integral = true, .lattice = 10};
    EXPECT_NEAR(expected_ceiling_by_thresholds(w, 64), std::ceil(1000.0 / 64), 1e-9);
    EXPECT_NEAR(expected_ceiling_by_lattice(w, 64), std::ceil(1000.0 / 64), 1e-9);
    EXPECT_NEAR(expected_ceiling(w, 64), std::ceil(1000.0 / 64), 1e-9);
}

// A random lattice r (MACs per nonzero), cycle width c and spread σ, from a
// fraction of a step to 30 steps of the wider of the two: where the two sums
// must agree term for term.
struct SumCase {
    double r, c, sd;
};
SumCase random_sum_case(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double r = std::floor(1 + 200 * unit(rng));
    const double c = std::floor(1 + 300 * unit(rng));
    return {r, c, (0.2 + 30 * unit(rng)) * std::max(r, c)};
}

TEST(ExpectedCeiling, TheLatticeSumIsTheThresholdSumReordered) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 300; ++i) {
        const auto [r, c, sd] = random_sum_case(rng);
        const double mean = (unit(rng) < 0.2 ? 2 : 12) * sd * unit(rng) + 20 * r;
        const CeilingWork w{.mean = mean, .sd = sd, .integral = true, .lattice = r};
        const double thresholds = expected_ceiling_by_thresholds(w, c);
        EXPECT_NEAR(expected_ceiling_by_lattice(w, c), thresholds, 1e-7 * thresholds + 1e-9)
            << "r " << r << " c " << c << " mean " << mean << " sd " << sd;
    }
}

TEST(ExpectedCeiling, TheLimitIsWithinHalfACycleAndExactWhenTheFractionsAreUniform) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 200; ++i) {
        const double r = std::floor(1 + 50 * unit(rng));
        const double c = std::floor(1 + 50 * unit(rng));
        const double sd = (5 + 60 * unit(rng)) * std::max(r, c);
        const double mean = 10 * sd + 1000 * r * unit(rng);
        const CeilingWork w{.mean = mean, .sd = sd, .integral = true, .lattice = r};
        const double sum = expected_ceiling_by_thresholds(w, c);
        EXPECT_NEAR(expected_ceiling_limit(w, c), sum, 0.5);
        // σ over many periods of the fractions (lcm(r, c)): the limit is exact.
        const double period = std::lcm(std::int64_t(r), std::int64_t(c));
        if (sd > 3 * period) {
            EXPECT_NEAR(expected_ceiling_limit(w, c), sum, 1e-6 * sum);
        }
    }
    // Continuous work: ½ a cycle of rounding once σ spans a few cycles.
    const CeilingWork continuous{.mean = 5e4, .sd = 400, .integral = false, .lattice = 1};
    EXPECT_NEAR(expected_ceiling_limit(continuous, 100),
                expected_ceiling_by_thresholds(continuous, 100), 1e-9);
}

TEST(ExpectedCeiling, TheDispatchAgreesWithTheSumsAndStaysShort) {
    // A heavily reused weight on 2,048 PEs (the AlexNet conv1 case in the
    // header): 10^5 threshold terms, a few hundred lattice points.
    const CeilingWork reused{.mean = 4.2e9, .sd = 8.1e6, .integral = true, .lattice = 774400};
    EXPECT_GT(2 * 9 * reused.sd / 2048, 50000.0);
    EXPECT_NEAR(expected_ceiling(reused, 2048), expected_ceiling_by_thresholds(reused, 2048),
                1e-9 * expected_ceiling(reused, 2048));
    // Many cycles and many lattice points: the limit, within half a cycle.
    const CeilingWork broad{.mean = 1e9, .sd = 2e6, .integral = true, .lattice = 3};
    EXPECT_NEAR(expected_ceiling(broad, 2048), expected_ceiling_by_thresholds(broad, 2048), 0.5);
    EXPECT_EQ(expected_ceiling(broad, 2048), expected_ceiling_limit(broad, 2048));
}

// The maximum of `count` copies (line indexing's lines, flexible allocation's
// instances): the lattice sum is the threshold sum reordered, below `upper`
// as well; the dispatch takes the limit at the maximum's mean only past
// kMaxExpectedMaxCeilingTerms terms each way, within half a cycle there.
TEST(ExpectedMaxCeiling, TheLatticeSumIsTheThresholdSumReordered) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int i = 0; i < 300; ++i) {
        const auto [r, c, sd] = random_sum_case(rng);
        const double mean = 12 * sd * unit(rng) + 20 * r;
        const auto count = std::int64_t(1 + 200 * unit(rng));
        const double upper = unit(rng) < 0.3 ? mean + sd : 1e18;
        const CeilingWork w{.mean = mean, .sd = sd, .integral = true, .lattice = r};
        const double thresholds = expected_max_ceiling_by_thresholds(w, c, count, upper);
        EXPECT_NEAR(expected_max_ceiling_by_lattice(w, c, count, upper), thresholds,
                    1e-7 * thresholds + 1e-9)
            << "r " << r << " c " << c << " mean " << mean << " sd " << sd << " count " << count;
    }
    // One copy is E[⌈W/c⌉].
    const CeilingWork one{.mean = 5000, .sd = 300, .integral = true, .lattice = 7};
    EXPECT_NEAR(expected_max_ceiling_by_thresholds(one, 64, 1, 1e18),
                expected_ceiling_by_thresholds(one, 64), 1e-9);
}

TEST(ExpectedMaxCeiling, TheDispatchTakesTheLimitOnlyWhereEachSumIsLong) {
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int limits = 0;
    for (int i = 0; i < 300; ++i) {
        const double r = std::floor(1 + 50 * unit(rng));
        const double c = std::floor(1 + 50 * unit(rng));
        const double sd = (0.1 + 20 * unit(rng)) * std::max(r, c);
        const double mean = 10 * sd + 1000 * r * unit(rng);
        const auto count = std::int64_t(2 + 500 * unit(rng));
        const CeilingWork w{.mean = mean, .sd = sd, .integral = true, .lattice = r};
        const double sum = expected_max_ceiling_by_thresholds(w, c, count, 1e18);
        // The maximum's mean, by the sum over thresholds of a fine lattice.
        const double max_mean =
            expected_max_ceiling_by_thresholds(
                {.mean = mean, .sd = sd, .integral = false, .lattice = 1}, 1e-3 * sd, count, 1e18) *
            1e-3 * sd;
        const double dispatched = expected_max_ceiling(w, c, count, max_mean, 1e18);
        const bool long_sums = 18 * sd / c > double(kMaxExpectedMaxCeilingTerms) &&
                               18 * sd / r > double(kMaxExpectedMaxCeilingTerms);
        limits += long_sums;
        EXPECT_NEAR(dispatched, sum, long_sums ? 0.5 : 1e-7 * sum)
            << "r " << r << " c " << c << " sd " << sd << " count " << count;
    }
    EXPECT_GT(limits, 30);
}

}  // namespace
}  // namespace trainloop
