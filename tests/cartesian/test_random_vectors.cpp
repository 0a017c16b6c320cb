// expected_max_vectors (cartesian/random_vectors.hpp): the expected vector count
// of the slowest of several PEs whose nonzeros are Binomial, by hand on small
// cases and against sampling.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cartesian/random_vectors.hpp"

namespace trainloop {
namespace {

double expected(std::vector<std::int64_t> positions, double density, std::int64_t width) {
    return expected_max_vectors(positions, density, width);
}

TEST(RandomVectors, SmallCasesByHand) {
    EXPECT_DOUBLE_EQ(expected({}, 0.5, 4), 0.0);
    EXPECT_DOUBLE_EQ(expected({0, 0}, 0.5, 4), 0.0);
    EXPECT_NEAR(expected({1}, 0.5, 4), 0.5, 1e-12);        // one vector iff the element is nonzero
    EXPECT_NEAR(expected({1, 1}, 0.5, 4), 0.75, 1e-12);    // iff either is
    EXPECT_NEAR(expected({4}, 0.5, 4), 15.0 / 16, 1e-12);  // one vector unless all four are zero
    // Two elements, width 1: ⌈X/1⌉ = X ~ Binomial(2, 0.3).
    EXPECT_NEAR(expected({2}, 0.3, 1), 0.6, 1e-12);
    // max of Binomial(1, 0.3) and Binomial(2, 0.3), width 1: P(max>=1) + P(max>=2).
    EXPECT_NEAR(expected({1, 2}, 0.3, 1), (1 - 0.7 * 0.49) + 0.09, 1e-12);
}

TEST(RandomVectors, DenseIsTheLargestShareInVectors) {
    EXPECT_DOUBLE_EQ(expected({9, 13, 2}, 1.0, 4), 4.0);
    EXPECT_DOUBLE_EQ(expected({16}, 1.0, 4), 4.0);
}

TEST(RandomVectors, AgreesWithSampling) {
    std::mt19937_64 rng(11);
    struct Case {
        std::vector<std::int64_t> positions;
        double density;
        std::int64_t width;
    };
    for (const Case& c : {Case{{49}, 0.1, 4}, Case{std::vector<std::int64_t>(64, 392), 0.1, 4},
                          Case{{12, 12, 9, 6}, 0.3, 3},
                          Case{std::vector<std::int64_t>(8, 25), 0.5, 4}, Case{{3136}, 0.05, 4}}) {
        const int trials = 20000;
        double sum = 0;
        for (int t = 0; t < trials; ++t) {
            std::int64_t slowest = 0;
            for (const std::int64_t n : c.positions) {
                std::int64_t nonzeros = std::binomial_distribution<std::int64_t>(n, c.density)(rng);
                slowest = std::max(slowest, (nonzeros + c.width - 1) / c.width);
            }
            sum += static_cast<double>(slowest);
        }
        const double sampled = sum / trials;
        // The maximum's spread is below its range of a few vectors: 20,000 draws put the
        // mean within about 0.02 of its expectation.
        EXPECT_NEAR(expected_max_vectors(c.positions, c.density, c.width), sampled,
                    0.01 * sampled + 0.02)
            << c.positions.size() << " PEs of " << c.positions.front() << " at " << c.density;
    }
}

TEST(RandomVectors, AHugeShareCostsItsSpreadNotItsSize) {
    // 10^10 positions at 0.1: the mean is 2.5·10^8 vectors, the spread about 10^4; only the
    // counts near the mean are summed (a sum over every count would not finish here).
    const double v = expected({10'000'000'000}, 0.1, 4);
    EXPECT_NEAR(v, 2.5e8, 1.0);
    EXPECT_GE(v, 2.5e8);  // a ceiling rounds up
}

TEST(RandomVectors, MorePesWaitLonger) {
    // The slowest of more PEs draws more nonzeros; the mean does not move.
    const double one = expected({392}, 0.1, 4);
    const double eight = expected(std::vector<std::int64_t>(8, 392), 0.1, 4);
    const double sixty_four = expected(std::vector<std::int64_t>(64, 392), 0.1, 4);
    EXPECT_LT(one, eight);
    EXPECT_LT(eight, sixty_four);
    EXPECT_NEAR(one, 392 * 0.1 / 4, 0.6);  // about the mean count, rounded up
}

}  // namespace
}  // namespace trainloop
