// RLE padding entries (engine/sparse/run_length_padding.hpp) against an
// exhaustive enumeration of masks and a long-double summation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "sparse/run_length_padding.hpp"

namespace trainloop {
namespace {

// E[padding] by enumerating every mask of `elements` elements: a nonzero
// after g zeros needs floor(g / 2^run_bits) padding entries; trailing zeros
// need none.
double enumerated_padding(int elements, double density, int run_bits) {
    const int m = 1 << run_bits;
    double expected = 0;
    for (std::uint32_t mask = 0; mask < (1u << elements); ++mask) {
        const int nonzeros = __builtin_popcount(mask);
        const double probability =
            std::pow(density, nonzeros) * std::pow(1 - density, elements - nonzeros);
        int run = 0;
        int padding = 0;
        for (int i = 0; i < elements; ++i) {
            if (mask & (1u << i)) {
                padding += run / m;
                run = 0;
            } else {
                ++run;
            }
        }
        expected += probability * padding;
    }
    return expected;
}

TEST(RlePadding, MatchesEveryMaskOfSmallTiles) {
    for (int elements = 1; elements <= 12; ++elements) {
        for (int run_bits : {1, 2, 3}) {
            for (double d : {0.05, 0.3, 0.7}) {
                EXPECT_NEAR(expected_rle_padding_entries(elements, d, run_bits),
                            enumerated_padding(elements, d, run_bits), 1e-12)
                    << elements << " elements, " << run_bits << "-bit runs, density " << d;
            }
        }
    }
}

// d·Σ_{k=1}^{K} q^(k·m)·(E - k·m) summed term by term in long double.
double summed_padding(std::int64_t elements, double density, int run_bits) {
    const std::int64_t m = std::int64_t(1) << run_bits;
    long double sum = 0;
    const long double Q = std::pow(1.0L - density, (long double)m);
    long double Qk = 1;
    for (std::int64_t k = 1; k * m <= elements - 1; ++k) {
        Qk *= Q;
        sum += Qk * (long double)(elements - k * m);
    }
    return double(density * sum);
}

TEST(RlePadding, StaysAccurateForLargeTilesAndTinyDensities) {
    // K·(1-Q) crosses the series/closed-form switch (1e-3) near d = 1e-8 here.
    const std::int64_t elements = 100'000;
    for (double d : {1e-10, 5e-9, 1e-8, 1.5e-8, 1e-6, 1e-3, 0.1, 0.5, 0.99}) {
        const double expected = summed_padding(elements, d, 3);
        EXPECT_NEAR(expected_rle_padding_entries(elements, d, 3), expected, 1e-9 * expected + 1e-15)
            << "density " << d;
    }
}

TEST(RlePadding, IsZeroWhenNoRunCanOverflowOrNothingIsZero) {
    EXPECT_EQ(expected_rle_padding_entries(8, 0.3, 3), 0.0);  // runs of at most 7 zeros
    EXPECT_EQ(expected_rle_padding_entries(1000, 0.0, 3), 0.0);
    EXPECT_EQ(expected_rle_padding_entries(1000, 1.0, 3), 0.0);
    EXPECT_GT(expected_rle_padding_entries(9, 0.3, 3), 0.0);  // 8 zeros then a nonzero
}

}  // namespace
}  // namespace trainloop
