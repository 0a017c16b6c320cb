#include "imbalance/small_count_maximum.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "common/log_gamma.hpp"
#include "common/overloaded.hpp"
#include "imbalance/expected_maximum.hpp"
#include "sparse/mask_tiles.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop {
namespace {

constexpr std::size_t kMaxSupport = 1024;

// Σ_k (1 − F(k)^n) over a pmf on 0..size−1.
double max_from_pmf(const double* pmf, std::size_t size, std::int64_t n) {
    double sum = 0;
    double cdf = 0;
    for (std::size_t k = 0; k + 1 < size; ++k) {
        cdf += pmf[k];
        const double all_below = cdf >= 1.0 ? 1.0 : std::pow(cdf, double(n));
        sum += 1.0 - all_below;
        if (all_below > 1.0 - 1e-15) break;
    }
    return sum;
}

std::optional<double> n_m_max(const NMModel& m, const TensorTile& tile, DataSpace space,
                              std::int64_t distinct) {
    const int axis = tensor_axis_index(space, m.axis);
    if (axis < 0 || axis >= tile.rank) return std::nullopt;
    const std::int64_t length = tile.extent[std::size_t(axis)];
    const std::int64_t lines = tile.elements() / length;
    const std::int64_t r = length % m.m;
    const double base = double(lines * (length / m.m) * m.n);
    const std::int64_t top = std::min(m.n, r);
    if (r == 0 || top == 0) return base;
    if (std::size_t(lines * top + 1) > kMaxSupport) return std::nullopt;
    // Hypergeometric(M, N, r): C(N,j)·C(M−N, r−j) / C(M, r).
    std::array<double, 64> part{};
    if (top >= std::int64_t(part.size())) return std::nullopt;
    for (std::int64_t j = 0; j <= top; ++j) {
        if (r - j > m.m - m.n) continue;
        part[std::size_t(j)] = std::exp(log_choose(double(m.n), double(j)) +
                                        log_choose(double(m.m - m.n), double(r - j)) -
                                        log_choose(double(m.m), double(r)));
    }
    std::array<double, kMaxSupport> pmf{};
    std::array<double, kMaxSupport> next{};
    pmf[0] = 1.0;
    std::size_t size = 1;
    for (std::int64_t l = 0; l < lines; ++l) {  // convolve the lines' partial blocks
        std::fill(next.begin(), next.begin() + std::ptrdiff_t(size) + top, 0.0);
        for (std::size_t a = 0; a < size; ++a) {
            for (std::int64_t j = 0; j <= top; ++j)
                next[a + std::size_t(j)] += pmf[a] * part[std::size_t(j)];
        }
        size += std::size_t(top);
        std::copy(next.begin(), next.begin() + std::ptrdiff_t(size), pmf.begin());
    }
    return base + max_from_pmf(pmf.data(), size, distinct);
}

// The largest of `distinct` Hypergeometric(N, K = ⌈d·N⌉, E) counts, from
// their pmf C(K, k)·C(N − K, E − k) / C(N, E); nullopt past the support bound.
std::optional<double> hypergeometric_max(const HypergeometricModel& m, double density,
                                         const TensorTile& tile, std::int64_t distinct) {
    if (m.population <= 0) return std::nullopt;
    const double N = double(m.population);
    const double E = std::min(double(tile.elements()), N);
    const double K = hypergeometric_nonzeros(density, N);
    const std::int64_t low = std::int64_t(std::max(0.0, E - (N - K)));
    const std::int64_t high = std::int64_t(std::min(E, K));
    if (std::size_t(high + 1) > kMaxSupport) return std::nullopt;
    std::array<double, kMaxSupport> pmf{};
    for (std::int64_t k = low; k <= high; ++k) {
        pmf[std::size_t(k)] = std::exp(log_choose(K, double(k)) + log_choose(N - K, E - double(k)) -
                                       log_choose(N, E));
    }
    return max_from_pmf(pmf.data(), std::size_t(high + 1), distinct);
}

std::optional<double> mask_max(const MaskTensor& mask, const TensorTile& tile, DataSpace space,
                               std::int64_t distinct) {
    const MaskTileCounts counts = mask_tile_counts(mask, tile, space);
    if (counts.counts.empty() || counts.tile_elements != tile.elements()) return std::nullopt;
    // Its distribution: the tiles' counts (a histogram up to the fullest tile).
    const std::int64_t top = *std::max_element(counts.counts.begin(), counts.counts.end());
    std::vector<double> pmf(std::size_t(top + 1), 0.0);
    for (std::int64_t c : counts.counts) pmf[std::size_t(c)] += 1.0 / double(counts.counts.size());
    return max_from_pmf(pmf.data(), pmf.size(), distinct);
}

// Gauss–Legendre nodes and weights on [−1, 1] (Newton on P_n; Numerical
// Recipes' gauleg), computed once.
constexpr int kGauss = 16;
struct GaussRule {
    std::array<double, kGauss> x{};
    std::array<double, kGauss> w{};
};
const GaussRule& gauss_rule() {
    static const GaussRule rule = [] {
        GaussRule g;
        for (int i = 0; i < kGauss; ++i) {
            double z = std::cos(std::numbers::pi * (i + 0.75) / (kGauss + 0.5));
            double derivative = 1;
            for (int iteration = 0; iteration < 100; ++iteration) {
                double p1 = 1;
                double p2 = 0;
                for (int j = 0; j < kGauss; ++j) {
                    const double p3 = p2;
                    p2 = p1;
                    p1 = ((2.0 * j + 1.0) * z * p2 - j * p3) / (j + 1);
                }
                derivative = kGauss * (z * p1 - p2) / (z * z - 1.0);
                const double step = p1 / derivative;
                z -= step;
                if (std::abs(step) < 1e-15) break;
            }
            g.x[std::size_t(i)] = z;
            g.w[std::size_t(i)] = 2.0 / ((1.0 - z * z) * derivative * derivative);
        }
        return g;
    }();
    return rule;
}

// The per-thread cache: the mapper evaluates many mappings whose tiles and
// spreads repeat. Masks are not cached (the key would be a pointer).
struct CacheKey {
    std::uint8_t model = 0;
    DataSpace space = DataSpace::weights;
    char axis = 0;
    std::uint8_t unit = 0;
    double density = 0;
    double parameter = 0;  // cv, or n + m/1024 for N:M
    std::array<std::int64_t, 5> extent{};
    std::int64_t distinct = 0;
    std::int64_t groups = 0;
    bool operator==(const CacheKey&) const = default;
};

struct CacheEntry {
    bool valid = false;
    CacheKey key{};
    std::optional<double> value;
};

CacheKey key_of(const DensityModel& model, double density, const TensorTile& tile, DataSpace space,
                std::int64_t distinct, std::int64_t groups) {
    CacheKey k;
    k.model = std::uint8_t(model.index());
    k.space = space;
    k.density = density;
    // Every parameter of the model is part of the key.
    std::visit(overloaded{
                   [](const UniformModel&) {},
                   [](const EvenModel&) {},
                   [&k](const HypergeometricModel& h) { k.parameter = double(h.population); },
                   [&k](const NMModel& nm) {
                       k.axis = nm.axis;
                       k.parameter = double(nm.n) + double(nm.m) / 1024.0;
                       k.unit = std::uint8_t(nm.m >> 8);
                   },
                   [&k](const ClusteredModel& c) {
                       k.parameter = c.cv;
                       k.unit = std::uint8_t(c.unit);
                   },
                   // Never cached: small_count_expected_max() answers masks directly.
                   [](const MaskModel&) {},
               },
               model);
    for (std::uint8_t a = 0; a < tile.rank; ++a) k.extent[a] = tile.extent[a];
    k.distinct = distinct;
    k.groups = groups;
    return k;
}

std::size_t hash_of(const CacheKey& k) {
    std::size_t h = std::hash<double>{}(k.density) * 31 + std::hash<double>{}(k.parameter);
    for (std::int64_t e : k.extent) h = h * 1000003 + std::size_t(e);
    return h * 31 + std::size_t(k.distinct * 17 + k.groups) + k.model;
}

double clustered_max(const BetaParameters& cluster, double density, double clusters,
                     std::int64_t elements, std::int64_t per_group, std::int64_t groups) {
    // The tile's mean cluster density q as a beta whose variance makes the
    // count's total variance exact: T·μ(1−μ) + T(T−1)·Var(q) = T(μ(1−μ) − v) + T·m·v
    // (tile_occupancy), so Var(q) = v·(m − 1)/(T − 1); one cluster: v.
    const double T_elements = double(elements);
    const double m = T_elements / clusters;
    const double var =
        elements > 1 ? cluster.variance * (m - 1.0) / (T_elements - 1.0) : cluster.variance;
    if (var <= 0) return expected_maximum_binomial(per_group * groups, elements, density);
    const double sum = density * (1.0 - density) / var - 1.0;
    const double a = density * sum;
    const double b = (1.0 - density) * sum;
    // Nodes: E_q[h] = ∫ h(q)·q^(a−1)(1−q)^(b−1) dq / B(a, b), split at the mean c.
    // A side whose density is singular at its end (a < 1 below, b < 1 above)
    // is substituted (q = c·t^(1/a), so q^(a−1) dq = c^a/a dt; likewise above);
    // a regular side is integrated directly over 12 standard deviations (the
    // upper tail decides the maximum). Gauss–Legendre on each side; weights in
    // log space (c^a underflows for concentrated clusters), normalized to 1.
    const double c = a / (a + b);
    const double sd = std::sqrt(var);
    std::array<double, 2 * kGauss> q{};
    std::array<double, 2 * kGauss> weight{};
    const GaussRule& g = gauss_rule();
    const auto log_density = [&](double x) {
        return (a - 1.0) * std::log(x) + (b - 1.0) * std::log1p(-x);
    };
    const double lo = std::max(0.0, c - 12.0 * sd);
    const double hi = std::min(1.0, c + 12.0 * sd);
    for (std::size_t i = 0; i < std::size_t(kGauss); ++i) {
        const double t = 0.5 * (g.x[i] + 1.0);
        const double log_w = std::log(0.5 * g.w[i]);
        if (a < 1.0) {
            q[i] = c * std::pow(t, 1.0 / a);
            weight[i] = log_w + a * std::log(c) - std::log(a) + (b - 1.0) * std::log1p(-q[i]);
        } else {
            q[i] = lo + (c - lo) * t;
            weight[i] = log_w + std::log(c - lo) + log_density(q[i]);
        }
        const std::size_t j = kGauss + i;
        if (b < 1.0) {
            const double gap = (1.0 - c) * std::pow(t, 1.0 / b);
            q[j] = 1.0 - gap;
            weight[j] = log_w + b * std::log1p(-c) - std::log(b) + (a - 1.0) * std::log1p(-gap);
        } else {
            q[j] = c + (hi - c) * t;
            weight[j] = q[j] >= 1.0 ? -1e300 : log_w + std::log(hi - c) + log_density(q[j]);
        }
    }
    const double top = *std::max_element(weight.begin(), weight.end());
    double total = 0;
    for (double& w : weight) total += (w = std::exp(w - top));
    for (double& w : weight) w /= total;
    // Per node, the Binomial(T, q) pmf by its ratio recursion in log space
    // (pmf(k+1)/pmf(k) = (T−k)/(k+1) · q/(1−q)) and its cdf.
    const double T = double(elements);
    std::array<double, 2 * kGauss> cdf{};
    std::array<double, 2 * kGauss> log_pmf{};
    std::array<double, 2 * kGauss> log_odds{};
    for (std::size_t j = 0; j < q.size(); ++j) {
        const double qj = std::clamp(q[j], 1e-300, 1.0 - 1e-16);
        log_pmf[j] = T * std::log1p(-qj);
        log_odds[j] = std::log(qj) - std::log1p(-qj);
    }
    double expected = 0;
    for (std::int64_t k = 0; k < elements; ++k) {
        if (k > 0) {
            const double log_step = std::log((T - double(k) + 1.0) / double(k));
            for (std::size_t j = 0; j < q.size(); ++j) log_pmf[j] += log_step + log_odds[j];
        }
        double group_below = 0;  // E_q[F(k | q)^g]
        for (std::size_t j = 0; j < q.size(); ++j) {
            if (cdf[j] < 1.0 - 1e-15) cdf[j] = std::min(1.0, cdf[j] + std::exp(log_pmf[j]));
            group_below += cdf[j] >= 1.0 - 1e-15 ? weight[j]
                           : cdf[j] <= 0.0
                               ? 0.0
                               : weight[j] * std::exp(double(per_group) * std::log(cdf[j]));
        }
        const double all_below = std::pow(std::min(group_below, 1.0), double(groups));
        expected += 1.0 - all_below;
        if (all_below > 1.0 - 1e-13) break;
    }
    return expected;
}

}  // namespace

std::optional<double> small_count_expected_max(const DensityModel& model, double density,
                                               const TensorTile& tile, DataSpace space,
                                               std::int64_t distinct, std::int64_t groups) {
    struct Visit {
        double density;
        const TensorTile& tile;
        DataSpace space;
        std::int64_t distinct;
        std::int64_t groups;
        std::optional<double> operator()(const UniformModel&) const {
            return expected_maximum_binomial(distinct, tile.elements(), density);
        }
        std::optional<double> operator()(const EvenModel&) const {
            // The largest of `distinct` two-point counts: the ceiling unless
            // every one is the floor.
            const TileOccupancy o = tile_occupancy(EvenModel{}, density, tile, space);
            const double low = std::floor(o.mean_nonzeros);
            const double p = o.mean_nonzeros - low;
            return low + 1.0 - std::pow(1.0 - p, double(distinct));
        }
        std::optional<double> operator()(const HypergeometricModel& m) const {
            if (m.population <= 0)
                return expected_maximum_binomial(distinct, tile.elements(), density);
            return hypergeometric_max(m, density, tile, distinct);
        }
        std::optional<double> operator()(const NMModel& m) const {
            return n_m_max(m, tile, space, distinct);
        }
        std::optional<double> operator()(const MaskModel& m) const {
            return m.mask ? mask_max(*m.mask, tile, space, distinct) : std::nullopt;
        }
        std::optional<double> operator()(const ClusteredModel& m) const {
            const BetaParameters b = cluster_beta(density, m.cv);
            if (b.variance <= 0)
                return expected_maximum_binomial(distinct, tile.elements(), density);
            const ClusterSplit split = cluster_split(m, tile, space);
            const std::int64_t g = std::max<std::int64_t>(1, groups);
            return clustered_max(b, density, split.clusters, tile.elements(), distinct / g, g);
        }
    };
    // An actual mask's empirical distribution is exact at any spread (its
    // tiles are all there is; a continuous form would extrapolate past them).
    if (std::holds_alternative<MaskModel>(model)) {
        return std::visit(Visit{density, tile, space, distinct, groups}, model);
    }
    thread_local std::array<CacheEntry, 128> cache{};
    const CacheKey key = key_of(model, density, tile, space, distinct, groups);
    CacheEntry& entry = cache[hash_of(key) % cache.size()];
    if (entry.valid && entry.key == key) return entry.value;
    const TileOccupancy occ = tile_count_moments(model, density, tile, space);
    const std::optional<double> value =
        std::sqrt(occ.variance) > kSmallCountSd
            ? std::nullopt
            : std::visit(Visit{density, tile, space, distinct, groups}, model);
    entry = {true, key, value};
    return value;
}

}  // namespace trainloop
