// The expected largest nonzero count among the distinct tiles of a wave when
// counts are small (a standard deviation of a few nonzeros): there the
// continuous approximations of expected_maximum.hpp miss the discreteness
// and the bounds of the count, so the order statistics are summed exactly,
// E[max] = Σ_k (1 − P(max ≤ k)), from the count's distribution:
//   uniform    Binomial(T, d);
//   n_m        the whole blocks plus a sum of hypergeometric partial blocks
//              (the exact convolution);
//   mask       the empirical distribution over the mask's aligned tiles
//              (at any spread, not only for small counts);
//   clustered  P(max ≤ k) = (E_q[F(k | q)^g])^H: H independent groups of g
//              tiles sharing their clusters; given the clusters' mean
//              density q the g counts are Binomial(T, q) (exact for one
//              cluster per tile; for u clusters, q — the mean of u beta
//              densities — is taken as a beta with the same mean and
//              variance/u). E_q by Gauss–Legendre quadrature over q's
//              quantiles (Boost.Math's inverse incomplete beta), denser in
//              the tails, which decide the maximum.
//
// Contract: pure; thread-safe (a small per-thread cache of results: the
// mapper's tiles and spreads repeat); allocation-free except for `mask`.
#pragma once

#include <cstdint>
#include <optional>

#include "density/density_model.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// Counts with a larger standard deviation than this are left to the
// continuous forms (nullopt).
inline constexpr double kSmallCountSd = 8.0;

// `distinct` tiles, of which groups of distinct/groups share their clusters.
std::optional<double> small_count_expected_max(const DensityModel& model, double density,
                                               const TensorTile& tile, DataSpace space,
                                               std::int64_t distinct, std::int64_t groups);

}  // namespace trainloop
