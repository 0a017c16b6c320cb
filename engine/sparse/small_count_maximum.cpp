#include "sparse/small_count_maximum.hpp"

#include <algorithm>
#include <array>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "sparse/expected_maximum.hpp"
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
    const auto log_choose = [](double n, double k) {
        return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
    };
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
            for (std::int64_t j = 0; j <= top; ++j) next[a + std::size_t(j)] += pmf[a] * part[std::size_t(j)];
        }
        size += std::size_t(top);
        std::copy(next.begin(), next.begin() + std::ptrdiff_t(size), pmf.begin());
    }
    return base + max_from_pmf(pmf.data(), size, distinct);
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

struct ClusteredKey {
    double density, cv, clusters;
    std::int64_t elements, per_group, groups;
    bool operator==(const ClusteredKey&) const = default;
};

struct CacheEntry {
    bool valid = false;
    ClusteredKey key{};
    double value = 0;
};

double clustered_max(const BetaParameters& cluster, double density, double clusters,
                     std::int64_t elements, std::int64_t per_group, std::int64_t groups) {
    // The tile's mean cluster density q as a beta whose variance makes the
    // count's total variance exact: T·μ(1−μ) + T(T−1)·Var(q) = T(μ(1−μ) − v) + T·m·v
    // (tile_occupancy), so Var(q) = v·(m − 1)/(T − 1); one cluster: v.
    const double T_elements = double(elements);
    const double m = T_elements / clusters;
    const double var = elements > 1 ? cluster.variance * (m - 1.0) / (T_elements - 1.0) : cluster.variance;
    if (var <= 0) return expected_maximum_binomial(per_group * groups, elements, density);
    const double sum = density * (1.0 - density) / var - 1.0;
    const double a = density * sum;
    const double b = (1.0 - density) * sum;
    // Nodes in quantile space: panels [0, .02], [.02, .98], [.98, 1].
    constexpr std::array<double, 4> edges = {0.0, 0.02, 0.98, 1.0};
    std::array<double, 3 * kGauss> q{};
    std::array<double, 3 * kGauss> weight{};
    const GaussRule& g = gauss_rule();
    for (std::size_t p = 0; p < 3; ++p) {
        const double half = (edges[p + 1] - edges[p]) / 2;
        const double mid = (edges[p + 1] + edges[p]) / 2;
        for (std::size_t i = 0; i < std::size_t(kGauss); ++i) {
            q[p * kGauss + i] = boost::math::ibeta_inv(a, b, mid + half * g.x[i]);
            weight[p * kGauss + i] = half * g.w[i];
        }
    }
    // Per node, the Binomial(T, q) cdf, advanced one k at a time in log space.
    std::array<double, 3 * kGauss> cdf{};
    const double T = double(elements);
    double expected = 0;
    for (std::int64_t k = 0; k < elements; ++k) {
        const double log_choose = std::lgamma(T + 1) - std::lgamma(double(k) + 1) - std::lgamma(T - double(k) + 1);
        double group_below = 0;  // E_q[F(k | q)^g]
        for (std::size_t j = 0; j < q.size(); ++j) {
            const double qj = std::clamp(q[j], 1e-300, 1.0 - 1e-16);
            cdf[j] += std::exp(log_choose + double(k) * std::log(qj) + (T - double(k)) * std::log1p(-qj));
            group_below += weight[j] * std::pow(std::min(cdf[j], 1.0), double(per_group));
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
        std::optional<double> operator()(const NMModel& m) const { return n_m_max(m, tile, space, distinct); }
        std::optional<double> operator()(const MaskModel& m) const {
            return m.mask ? mask_max(*m.mask, tile, space, distinct) : std::nullopt;
        }
        std::optional<double> operator()(const ClusteredModel& m) const {
            const BetaParameters b = cluster_beta(density, m.cv);
            if (b.variance <= 0) return expected_maximum_binomial(distinct, tile.elements(), density);
            const ClusterSplit split = cluster_split(m, tile, space);
            const std::int64_t g = std::max<std::int64_t>(1, groups);
            const ClusteredKey key{density, m.cv, split.clusters, tile.elements(), distinct / g, g};
            thread_local std::array<CacheEntry, 64> cache{};
            const std::size_t slot =
                std::size_t((std::hash<double>{}(density) ^ std::hash<double>{}(m.cv * 7 + split.clusters) ^
                             std::size_t(tile.elements() * 31 + distinct * 17 + g)) %
                            cache.size());
            if (cache[slot].valid && cache[slot].key == key) return cache[slot].value;
            const double value = clustered_max(b, density, split.clusters, tile.elements(), distinct / g, g);
            cache[slot] = {true, key, value};
            return value;
        }
    };
    // An actual mask's empirical distribution is exact at any spread (its
    // tiles are all there is; a continuous form would extrapolate past them).
    if (!std::holds_alternative<MaskModel>(model)) {
        const TileOccupancy occ = tile_occupancy(model, density, tile, space);
        if (std::sqrt(occ.variance) > kSmallCountSd) return std::nullopt;
    }
    return std::visit(Visit{density, tile, space, distinct, groups}, model);
}

}  // namespace trainloop
