// The heaviest pair of half-tile pairing (Procrustes §IV-C; load_imbalance.hpp)
// when a half tile holds a few nonzeros. There the continuous form (moments of
// the heaviest of 2n paired normal-ish halves) misses that pairing small
// integers often balances a line exactly, and is off by tens of percent; this
// computes the distribution exactly instead:
//   - sorting 2n values and pairing the k-th smallest with the k-th largest
//     gives a heaviest pair ≤ t exactly when, for every u > t/2, the values
//     ≥ u are no more than the values ≤ t − u (each large value needs a small
//     enough partner, and the sorted pairing hands the k-th largest the k-th
//     smallest);
//   - with independent half counts of one distribution (a half tile's count
//     under the density model), P(heaviest ≤ t) is a dynamic program over the
//     multinomial counts of the values, drawn from both ends of the range at
//     once (one binomial for the next large value, one for the small values
//     that become eligible partners);
//   - the lines along the other array axis pair independently, so the wave's
//     heaviest pair is below t with probability P(heaviest ≤ t)^lines.
// Halves of different sizes (an odd extent cut in two) are taken as draws from
// the mixture of the two halves' distributions.
//
// Contract: pure; thread-safe (a small per-thread cache: the mapper's tiles
// and spreads repeat); allocates only on a cache miss.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "density/density_model.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// Half counts with a larger standard deviation than this, or more than this
// many halves per line, are left to the continuous form (which is within a
// few percent there: tests/sparse/test_imbalance_grid.cpp).
inline constexpr double kSmallPairSd = 1.5;
inline constexpr std::int64_t kMaxPairedTiles = 64;
// The largest half count the exact form covers.
inline constexpr std::size_t kMaxHalfCount = 24;

// P(the wave's heaviest pair ≤ t nonzeros), t = 0 .. 2·kMaxHalfCount.
struct PairedMaxDistribution {
    std::array<double, 2 * kMaxHalfCount + 1> cdf{};
    std::size_t top = 0;  // cdf[t] = 1 for t ≥ top

    double at(std::size_t t) const { return t >= top ? 1.0 : cdf[t]; }
    double mean() const;
};

// `along` tiles per line are cut into `half0` and `half1` and paired;
// `lines` lines pair independently. nullopt when the counts are not small, or
// the model is one the exact form does not cover (clustered, n_m).
std::optional<PairedMaxDistribution> small_count_paired_max(const DensityModel& model,
                                                            double density, const TensorTile& half0,
                                                            const TensorTile& half1,
                                                            DataSpace space, std::int64_t along,
                                                            std::int64_t lines);

}  // namespace trainloop
