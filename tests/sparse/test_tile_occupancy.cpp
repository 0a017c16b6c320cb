// Tile occupancy of every density model against brute-force sampling of
// whole tensors (an independent sampler: element by element).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "imbalance/small_count_maximum.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop {
namespace {

struct Sampled {
    double mean = 0;
    double variance = 0;
    double third = 0;
    double empty = 0;
};

// Weights tiles [g=1, k, c, r=1, s=1] of a tensor of `tiles` × k_t filters:
// counts per tile from elements drawn by `element(k, c)`.
template <typename Element>
Sampled sample_tiles(std::int64_t tiles, std::int64_t k_t, std::int64_t c_t, Element element) {
    std::vector<double> counts;
    for (std::int64_t t = 0; t < tiles; ++t) {
        double n = 0;
        for (std::int64_t k = 0; k < k_t; ++k) {
            for (std::int64_t c = 0; c < c_t; ++c) n += element(t * k_t + k, c);
        }
        counts.push_back(n);
    }
    Sampled s;
    for (double c : counts) s.mean += c;
    s.mean /= double(counts.size());
    for (double c : counts) {
        s.variance += (c - s.mean) * (c - s.mean);
        s.third += (c - s.mean) * (c - s.mean) * (c - s.mean);
        s.empty += c == 0;
    }
    s.variance /= double(counts.size());
    s.third /= double(counts.size());
    s.empty /= double(counts.size());
    return s;
}

TensorTile weights_tile(std::int64_t k, std::int64_t c) {
    TensorTile t;
    t.extent = {1, k, c, 1, 1};
    return t;
}

void expect_matches(const TileOccupancy& o, const Sampled& s, double tolerance) {
    EXPECT_NEAR(o.mean_nonzeros, s.mean, tolerance * std::max(1.0, s.mean));
    EXPECT_NEAR(o.variance, s.variance, 2 * tolerance * std::max(1.0, s.variance));
    EXPECT_NEAR(o.probability_empty, s.empty, tolerance);
    const double skew_model =
        o.variance > 0 ? o.third_central_moment / std::pow(o.variance, 1.5) : 0;
    const double skew_sampled = s.variance > 0 ? s.third / std::pow(s.variance, 1.5) : 0;
    EXPECT_NEAR(skew_model, skew_sampled, 0.15 + 4 * tolerance);
}

TEST(TileOccupancy, UniformIsBinomial) {
    const TileOccupancy o =
        tile_occupancy(UniformModel{}, 0.25, weights_tile(4, 5), DataSpace::weights);
    EXPECT_DOUBLE_EQ(o.mean_nonzeros, 5.0);
    EXPECT_DOUBLE_EQ(o.variance, 20 * 0.25 * 0.75);
    EXPECT_DOUBLE_EQ(o.probability_empty, std::pow(0.75, 20));
    EXPECT_DOUBLE_EQ(o.third_central_moment, 20 * 0.25 * 0.75 * 0.5);
}

TEST(TileOccupancy, UniformAgainstSampling) {
    std::mt19937_64 rng(7);
    std::bernoulli_distribution bit(0.1);
    const Sampled s =
        sample_tiles(40000, 3, 7, [&](std::int64_t, std::int64_t) { return bit(rng); });
    expect_matches(tile_occupancy(UniformModel{}, 0.1, weights_tile(3, 7), DataSpace::weights), s,
                   0.02);
}

// Even spread (Sparseloop's fixed-structured): the floor or the ceiling of
// d·E, the ceiling with the fractional part's probability; against the
// moments of that two-point distribution summed directly.
TEST(TileOccupancy, EvenIsTheFloorOrTheCeilingOfTheMean) {
    struct Case {
        double density;
        std::int64_t k;
        std::int64_t c;
    };
    for (const Case& t : {Case{0.2, 2, 3}, Case{0.1, 1, 3}, Case{0.4, 4, 5}, Case{0.5, 2, 2}}) {
        const double x = t.density * double(t.k * t.c);
        const double low = std::floor(x);
        const double p = x - low;
        double mean = 0, var = 0, third = 0, empty = 0;
        for (const auto& [count, prob] : {std::pair{low, 1 - p}, std::pair{low + 1, p}}) {
            mean += prob * count;
            empty += count == 0 ? prob : 0;
        }
        for (const auto& [count, prob] : {std::pair{low, 1 - p}, std::pair{low + 1, p}}) {
            var += prob * (count - mean) * (count - mean);
            third += prob * std::pow(count - mean, 3);
        }
        const TileOccupancy o =
            tile_occupancy(EvenModel{}, t.density, weights_tile(t.k, t.c), DataSpace::weights);
        EXPECT_NEAR(o.mean_nonzeros, mean, 1e-12) << x;
        EXPECT_NEAR(o.variance, var, 1e-12) << x;
        EXPECT_NEAR(o.third_central_moment, third, 1e-12) << x;
        EXPECT_NEAR(o.probability_empty, empty, 1e-12) << x;
    }
    // Six elements at 0.2 (1.2 nonzeros) are never empty; three at 0.1 are,
    // with probability 0.7; uniform zeros would leave 0.8^6 and 0.9^3.
    EXPECT_EQ(
        tile_occupancy(EvenModel{}, 0.2, weights_tile(2, 3), DataSpace::weights).probability_empty,
        0.0);
    EXPECT_NEAR(
        tile_occupancy(EvenModel{}, 0.1, weights_tile(1, 3), DataSpace::weights).probability_empty,
        0.7, 1e-12);
}

// Hypergeometric(N, K = ⌈d·N⌉, E): against its pmf C(K,k)·C(N−K,E−k)/C(N,E)
// summed directly, and the expected maximum of independent tiles against
// Σ_k (1 − F(k)^n) over that pmf. Without a population it is binomial.
TEST(TileOccupancy, HypergeometricAgainstItsPmf) {
    const auto choose = [](double n, double k) {
        if (k < 0 || k > n) return 0.0;
        double c = 1;
        for (int i = 0; i < int(k); ++i) c = c * (n - i) / (i + 1);
        return c;
    };
    const double N = 40;
    const double density = 0.3;  // K = 12
    const double K = 12;
    const TensorTile tile = weights_tile(2, 5);  // E = 10
    const double E = 10;
    std::vector<double> pmf(11);
    double mean = 0;
    for (int k = 0; k <= 10; ++k) {
        pmf[std::size_t(k)] = choose(K, k) * choose(N - K, E - k) / choose(N, E);
        mean += k * pmf[std::size_t(k)];
    }
    double var = 0, third = 0;
    for (int k = 0; k <= 10; ++k) {
        var += pmf[std::size_t(k)] * (k - mean) * (k - mean);
        third += pmf[std::size_t(k)] * std::pow(k - mean, 3);
    }
    const TileOccupancy o =
        tile_occupancy(HypergeometricModel{std::int64_t(N)}, density, tile, DataSpace::weights);
    EXPECT_NEAR(o.mean_nonzeros, mean, 1e-12);
    EXPECT_NEAR(o.variance, var, 1e-12);
    EXPECT_NEAR(o.third_central_moment, third, 1e-12);
    EXPECT_NEAR(o.probability_empty, pmf[0], 1e-12);
    // Narrower than binomial: drawing without replacement.
    EXPECT_LT(o.variance,
              tile_occupancy(UniformModel{}, density, tile, DataSpace::weights).variance);
    // The expected largest of 6 such tiles.
    double max6 = 0, cdf = 0;
    for (int k = 0; k < 10; ++k) {
        cdf += pmf[std::size_t(k)];
        max6 += 1 - std::pow(cdf, 6);
    }
    const auto closed = small_count_expected_max(HypergeometricModel{std::int64_t(N)}, density,
                                                 tile, DataSpace::weights, 6, 1);
    ASSERT_TRUE(closed.has_value());
    EXPECT_NEAR(*closed, max6, 1e-9);
    // A tile as large as the tensor holds exactly K.
    const TileOccupancy whole =
        tile_occupancy(HypergeometricModel{10}, density, tile, DataSpace::weights);
    EXPECT_NEAR(whole.mean_nonzeros, 3, 1e-12);
    EXPECT_NEAR(whole.variance, 0, 1e-12);
    EXPECT_EQ(whole.probability_empty, 0.0);
    // No population yet: binomial, the same mean.
    const TileOccupancy unknown =
        tile_occupancy(HypergeometricModel{}, density, tile, DataSpace::weights);
    const TileOccupancy binomial =
        tile_occupancy(UniformModel{}, density, tile, DataSpace::weights);
    EXPECT_DOUBLE_EQ(unknown.variance, binomial.variance);
    EXPECT_DOUBLE_EQ(unknown.probability_empty, binomial.probability_empty);
}

TEST(TileOccupancy, NMWholeBlocksAreExact) {
    const TileOccupancy o =
        tile_occupancy(NMModel{2, 4, 'c'}, 0.5, weights_tile(3, 8), DataSpace::weights);
    EXPECT_DOUBLE_EQ(o.mean_nonzeros, 12.0);
    EXPECT_DOUBLE_EQ(o.variance, 0.0);
    EXPECT_DOUBLE_EQ(o.probability_empty, 0.0);
}

TEST(TileOccupancy, NMPartialBlocksAgainstSampling) {
    // 1:8 along c, tiles 3 elements wide along c: each line's count is hypergeometric.
    std::mt19937_64 rng(11);
    const std::int64_t k_t = 5;
    const std::int64_t c_t = 3;
    std::vector<std::int64_t> nonzero_at;  // per filter: the nonzero position in its first block
    const Sampled s = sample_tiles(40000, k_t, c_t, [&](std::int64_t k, std::int64_t c) {
        if (std::size_t(k) >= nonzero_at.size()) nonzero_at.push_back(std::int64_t(rng() % 8));
        return nonzero_at[std::size_t(k)] == c;
    });
    expect_matches(
        tile_occupancy(NMModel{1, 8, 'c'}, 0.125, weights_tile(k_t, c_t), DataSpace::weights), s,
        0.02);
}

TEST(TileOccupancy, ClusteredByFilterAgainstSampling) {
    std::mt19937_64 rng(5);
    const ClusteredModel model{ClusterDistribution::beta, 0.6, ClusterUnit::filter};
    const BetaParameters b = cluster_beta(0.1, 0.6);
    std::gamma_distribution<double> ga(b.alpha, 1.0);
    std::gamma_distribution<double> gb(b.beta, 1.0);
    std::vector<double> filter_density;
    const Sampled s = sample_tiles(30000, 2, 16, [&](std::int64_t k, std::int64_t) {
        if (std::size_t(k) >= filter_density.size()) {
            const double x = ga(rng);
            filter_density.push_back(x / (x + gb(rng)));
        }
        return std::bernoulli_distribution(filter_density[std::size_t(k)])(rng);
    });
    expect_matches(tile_occupancy(model, 0.1, weights_tile(2, 16), DataSpace::weights), s, 0.03);
}

TEST(TileOccupancy, ClusteredZeroCvIsUniform) {
    const TensorTile t = weights_tile(4, 4);
    const TileOccupancy c =
        tile_occupancy(ClusteredModel{ClusterDistribution::beta, 0.0, ClusterUnit::row}, 0.3, t,
                       DataSpace::weights);
    const TileOccupancy u = tile_occupancy(UniformModel{}, 0.3, t, DataSpace::weights);
    EXPECT_DOUBLE_EQ(c.variance, u.variance);
    EXPECT_DOUBLE_EQ(c.probability_empty, u.probability_empty);
}

TEST(TileOccupancy, MaskAveragesOverAlignedTiles) {
    // A [K=4, C=2] mask (fully connected weights) cut into 2×2 tiles: counts 3 and 0.
    auto mask = std::make_shared<MaskTensor>();
    mask->shape = {4, 2};
    mask->nonzero = {1, 1, 1, 0, 0, 0, 0, 0};
    mask->density = 3.0 / 8.0;
    const TileOccupancy o =
        tile_occupancy(MaskModel{mask}, mask->density, weights_tile(2, 2), DataSpace::weights);
    EXPECT_DOUBLE_EQ(o.mean_nonzeros, 1.5);
    EXPECT_DOUBLE_EQ(o.variance, 2.25);
    EXPECT_DOUBLE_EQ(o.probability_empty, 0.5);
}

}  // namespace
}  // namespace trainloop
