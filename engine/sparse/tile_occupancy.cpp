#include "sparse/tile_occupancy.hpp"

#include <algorithm>
#include <cmath>

#include "common/log_gamma.hpp"
#include "sparse/mask_tiles.hpp"

namespace trainloop {
namespace {

// Bernoulli elements: the count is Binomial(E, d) (moments: any statistics text).
TileOccupancy binomial(double density, double elements) {
    const double q = 1.0 - density;
    return {density * elements, density * q * elements, std::pow(q, elements),
            elements * density * q * (q - density)};
}

// Even spread: ⌊x⌋ or ⌊x⌋ + 1 nonzeros, x = d·E, the second with probability
// p = x − ⌊x⌋ (a two-point distribution: variance p(1 − p), third central
// moment p(1 − p)(1 − 2p)); empty only when ⌊x⌋ = 0, with probability 1 − p.
TileOccupancy even(double density, double elements) {
    const double x = std::min(density * elements, elements);
    const double low = std::floor(x);
    const double p = x - low;
    return {x, p * (1 - p), low == 0 ? 1 - p : 0.0, p * (1 - p) * (1 - 2 * p)};
}

// Hypergeometric(N, K, E): a tile of E of the tensor's N elements, K of them
// nonzero (K = ⌈d·N⌉). Mean E·K/N, variance E·(K/N)·(1 − K/N)·(N − E)/(N − 1),
// third central moment E·K·(N − K)·(N − E)·(N − 2K)·(N − 2E) / (N³·(N − 1)·(N − 2)),
// P(0) = C(N − K, E) / C(N, E) (any statistics text). N unknown (0): binomial.
TileOccupancy hypergeometric(double density, double elements, std::int64_t population) {
    if (population <= 0) return binomial(density, elements);
    const double N = double(population);
    const double E = std::min(elements, N);
    const double K = hypergeometric_nonzeros(density, N);
    const double p = K / N;
    const double variance = N > 1 ? E * p * (1 - p) * (N - E) / (N - 1) : 0.0;
    const double third = N > 2 ? E * K * (N - K) * (N - E) * (N - 2 * K) * (N - 2 * E) /
                                     (N * N * N * (N - 1) * (N - 2))
                               : 0.0;
    const double empty = E > N - K ? 0.0 : std::exp(log_choose(N - K, E) - log_choose(N, E));
    return {E * p, variance, empty, third};
}

// N:M blocks along one axis; each line holds floor(L/M) whole blocks (exactly
// N nonzeros each) and a partial block of r = L mod M elements whose count is
// Hypergeometric(population M, successes N, draws r).
TileOccupancy n_m(const NMModel& model, const TensorTile& tile, DataSpace space) {
    const int axis = tensor_axis_index(space, model.axis);
    const double density = model.density();
    if (axis < 0 || axis >= tile.rank) return binomial(density, double(tile.elements()));
    const std::int64_t length = tile.extent[std::size_t(axis)];
    const double lines = double(tile.elements() / length);
    const std::int64_t whole = length / model.m;
    const double r = double(length % model.m);
    const double M = double(model.m);
    const double N = double(model.n);
    TileOccupancy out;
    out.mean_nonzeros = lines * (double(whole) * N + r * N / M);
    if (r == 0 || M <= 1) {
        out.probability_empty = out.mean_nonzeros == 0 ? 1.0 : 0.0;
        return out;
    }
    // Hypergeometric moments (e.g. Johnson, Kotz & Kemp, Univariate Discrete Distributions, §6.3).
    const double var = r * (N / M) * (1.0 - N / M) * (M - r) / (M - 1.0);
    const double skew = var > 0 && M > 2 ? (M - 2.0 * N) * std::sqrt(M - 1.0) * (M - 2.0 * r) /
                                               (std::sqrt(r * N * (M - N) * (M - r)) * (M - 2.0))
                                         : 0.0;
    out.variance = lines * var;
    out.third_central_moment = lines * skew * var * std::sqrt(var);
    double p_zero = 1.0;  // P(no nonzero in the partial block) = C(M−N, r) / C(M, r)
    for (std::int64_t i = 0; i < std::int64_t(r); ++i)
        p_zero *= std::max(0.0, (M - N - double(i)) / (M - double(i)));
    out.probability_empty = whole > 0 && model.n > 0 ? 0.0 : std::pow(p_zero, lines);
    return out;
}

// Clusters with beta densities: each of the u clusters of the tile holds
// m = E/u elements and a BetaBinomial(m, α, β) count.
TileOccupancy clustered(const ClusteredModel& model, double density, const TensorTile& tile,
                        DataSpace space, bool with_empty) {
    const BetaParameters b = cluster_beta(density, model.cv);
    const double elements = double(tile.elements());
    if (b.variance <= 0) return binomial(density, elements);
    const ClusterSplit split = cluster_split(model, tile, space);
    const double u = split.clusters;
    const double m = split.elements_per_cluster;
    const double a = b.alpha;
    const double s = b.alpha + b.beta;
    // Beta-binomial moments (Johnson, Kotz & Kemp §6.7.2).
    const double var1 = m * a * b.beta * (s + m) / (s * s * (s + 1.0));
    const double skew1 = (s + 2.0 * m) * (b.beta - a) / (s + 2.0) *
                         std::sqrt((1.0 + s) / (m * a * b.beta * (m + s)));
    // P(cluster empty) = B(α, β+m) / B(α, β).
    const double log_p0 =
        with_empty ? log_gamma(b.beta + m) + log_gamma(s) - log_gamma(b.beta) - log_gamma(s + m)
                   : -HUGE_VAL;
    return {density * elements, u * var1, std::exp(u * log_p0), u * skew1 * var1 * std::sqrt(var1)};
}

TileOccupancy from_mask(const MaskTensor& mask, const TensorTile& tile, DataSpace space) {
    const MaskTileCounts counts = mask_tile_counts(mask, tile, space);
    TileOccupancy out;
    const double n = double(counts.counts.size());
    if (n == 0) return out;
    double empty = 0;
    for (std::int64_t c : counts.counts) {
        out.mean_nonzeros += double(c);
        empty += c == 0;
    }
    out.mean_nonzeros /= n;
    for (std::int64_t c : counts.counts) {
        const double d = double(c) - out.mean_nonzeros;
        out.variance += d * d;
        out.third_central_moment += d * d * d;
    }
    out.variance /= n;
    out.third_central_moment /= n;
    out.probability_empty = empty / n;
    // Scale from the clipped tile to the requested one (a tile larger than the mask).
    const double scale = double(tile.elements()) / double(counts.tile_elements);
    if (scale != 1.0) {
        out.mean_nonzeros *= scale;
        out.variance *= scale;
        out.third_central_moment *= scale;
    }
    return out;
}

}  // namespace

ClusterSplit cluster_split(const ClusteredModel& model, const TensorTile& tile, DataSpace space) {
    const int axis = cluster_axis_index(model.unit, space);
    const double u = axis >= 0 && axis < tile.rank ? double(tile.extent[std::size_t(axis)])
                                                   : double(tile.rows());
    return {u, double(tile.elements()) / u};
}

bool axis_identifies_cluster(const ClusteredModel& model, int axis, const TensorTile& tile,
                             DataSpace space) {
    const int cluster_axis = cluster_axis_index(model.unit, space);
    return cluster_axis >= 0 ? axis == cluster_axis : axis + 1 < tile.rank;
}

int half_cut_axis(const DensityModel& model, const TensorTile& tile, DataSpace space) {
    const ClusteredModel* clustered = clustered_model(model);
    int best = -1;
    bool best_separates = false;
    for (int a = 0; a < tile.rank; ++a) {
        const std::int64_t e = tile.extent[std::size_t(a)];
        if (e < 2) continue;
        const bool separates = clustered && axis_identifies_cluster(*clustered, a, tile, space);
        const bool better = best < 0 || (separates && !best_separates) ||
                            (separates == best_separates && e > tile.extent[std::size_t(best)]);
        if (better) {
            best = a;
            best_separates = separates;
        }
    }
    return best;
}

TensorTile half_of(const TensorTile& tile, int axis) {
    TensorTile half = tile;
    if (axis >= 0)
        half.extent[std::size_t(axis)] =
            std::max<std::int64_t>(1, tile.extent[std::size_t(axis)] / 2);
    return half;
}

namespace {

TileOccupancy occupancy(const DensityModel& model, double density, const TensorTile& tile,
                        DataSpace space, bool with_empty) {
    struct Visit {
        double density;
        const TensorTile& tile;
        DataSpace space;
        bool with_empty;
        TileOccupancy operator()(const UniformModel&) const {
            return binomial(density, double(tile.elements()));
        }
        TileOccupancy operator()(const EvenModel&) const {
            return even(density, double(tile.elements()));
        }
        TileOccupancy operator()(const HypergeometricModel& m) const {
            return hypergeometric(density, double(tile.elements()), m.population);
        }
        TileOccupancy operator()(const NMModel& m) const { return n_m(m, tile, space); }
        TileOccupancy operator()(const ClusteredModel& m) const {
            return clustered(m, density, tile, space, with_empty);
        }
        TileOccupancy operator()(const MaskModel& m) const {
            return m.mask ? from_mask(*m.mask, tile, space)
                          : binomial(density, double(tile.elements()));
        }
    };
    return std::visit(Visit{density, tile, space, with_empty}, model);
}

}  // namespace

TileOccupancy tile_occupancy(const DensityModel& model, double density, const TensorTile& tile,
                             DataSpace space) {
    return occupancy(model, density, tile, space, true);
}

TileOccupancy tile_count_moments(const DensityModel& model, double density, const TensorTile& tile,
                                 DataSpace space) {
    return occupancy(model, density, tile, space, false);
}

}  // namespace trainloop
