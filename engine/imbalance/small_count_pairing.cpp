#include "imbalance/small_count_pairing.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "sparse/mask_tiles.hpp"

namespace trainloop {
namespace {

using Pmf = std::vector<double>;

Pmf binomial_pmf(std::int64_t trials, double p) {
    Pmf pmf(std::size_t(trials + 1), 0.0);
    if (p <= 0) {
        pmf[0] = 1;
        return pmf;
    }
    if (p >= 1) {
        pmf.back() = 1;
        return pmf;
    }
    // Log space: (1 − p)^trials underflows for long trials.
    double log_pk = double(trials) * std::log1p(-p);
    const double log_odds = std::log(p) - std::log1p(-p);
    for (std::int64_t k = 0; k <= trials; ++k) {
        if (k > 0) log_pk += std::log(double(trials - k + 1) / double(k)) + log_odds;
        pmf[std::size_t(k)] = std::exp(log_pk);
    }
    return pmf;
}

// A half tile's count distribution (the mixture of the two halves'), or
// empty when the model is not covered.
Pmf half_count_pmf(const DensityModel& model, double density, const TensorTile& half0,
                   const TensorTile& half1, DataSpace space) {
    if (std::holds_alternative<UniformModel>(model)) {
        Pmf a = binomial_pmf(half0.elements(), density);
        const Pmf b = binomial_pmf(half1.elements(), density);
        if (b.size() > a.size()) a.resize(b.size(), 0.0);
        for (std::size_t k = 0; k < a.size(); ++k) a[k] = 0.5 * (a[k] + (k < b.size() ? b[k] : 0));
        return a;
    }
    if (const auto* m = std::get_if<MaskModel>(&model); m && m->mask) {
        const MaskTileCounts counts = mask_tile_counts(*m->mask, half0, space);
        if (counts.counts.empty()) return {};
        const std::int64_t top = *std::max_element(counts.counts.begin(), counts.counts.end());
        Pmf pmf(std::size_t(top + 1), 0.0);
        for (std::int64_t c : counts.counts)
            pmf[std::size_t(c)] += 1.0 / double(counts.counts.size());
        return pmf;
    }
    return {};
}

// P(the sorted pairing of 2n i.i.d. values with pmf `p` on 0..h has every
// pair ≤ t). Values u = h, h−1, …, down to the smallest u > t/2 are taken in
// turn with the values ≤ t − u that become their eligible partners; the state
// is (A = values ≥ u, B = values ≤ t − u), and every state must keep A ≤ B.
double line_below(const Pmf& p, std::int64_t n2, std::int64_t t) {
    const std::int64_t h = std::int64_t(p.size()) - 1;
    if (t >= 2 * h) return 1.0;
    const std::int64_t u_min = t / 2 + 1;
    const std::size_t width = std::size_t(n2 + 1);
    std::vector<double> state(width * width, 0.0);  // [A][B]
    std::vector<double> next(width * width, 0.0);
    state[0] = 1.0;
    double mass = 1.0;              // probability mass of the values not yet drawn
    std::int64_t bottom_done = -1;  // values 0..bottom_done are in B
    for (std::int64_t u = h; u >= u_min; --u) {
        const double p_top = p[std::size_t(u)];
        double p_bottom = 0;
        const std::int64_t bottom_to = std::min(t - u, u - 1);
        for (std::int64_t v = bottom_done + 1; v <= bottom_to; ++v) p_bottom += p[std::size_t(v)];
        bottom_done = std::max(bottom_done, bottom_to);
        const double q_top = mass > 0 ? std::clamp(p_top / mass, 0.0, 1.0) : 0.0;
        const double rest = mass - p_top;
        const double q_bottom = rest > 0 ? std::clamp(p_bottom / rest, 0.0, 1.0) : 0.0;
        // The binomials for every number of values still undrawn.
        std::vector<Pmf> top(width);
        std::vector<Pmf> bottom(width);
        for (std::size_t r = 0; r < width; ++r) {
            top[r] = binomial_pmf(std::int64_t(r), q_top);
            bottom[r] = binomial_pmf(std::int64_t(r), q_bottom);
        }
        std::fill(next.begin(), next.end(), 0.0);
        for (std::int64_t a = 0; a <= n2; ++a) {
            for (std::int64_t b = a; a + b <= n2; ++b) {
                const double w = state[std::size_t(a) * width + std::size_t(b)];
                if (w < 1e-300) continue;
                const std::int64_t remaining = n2 - a - b;
                for (std::int64_t c = 0; c <= remaining; ++c) {
                    const double wc = w * top[std::size_t(remaining)][std::size_t(c)];
                    if (wc < 1e-18) continue;  // far below what the sum resolves
                    const Pmf& below = bottom[std::size_t(remaining - c)];
                    // A large value needs a partner: b + d ≥ a + c.
                    for (std::int64_t d = std::max<std::int64_t>(0, a + c - b); d <= remaining - c;
                         ++d) {
                        const double wd = wc * below[std::size_t(d)];
                        if (wd < 1e-18) continue;
                        next[std::size_t(a + c) * width + std::size_t(b + d)] += wd;
                    }
                }
            }
        }
        state.swap(next);
        mass = rest - p_bottom;
    }
    double total = 0;
    for (double w : state) total += w;
    return std::min(total, 1.0);
}

struct CacheKey {
    std::uint8_t model = 0;
    DataSpace space = DataSpace::weights;
    double density = 0;
    std::int64_t half0 = 0;
    std::int64_t half1 = 0;
    std::int64_t along = 0;
    std::int64_t lines = 0;
    bool operator==(const CacheKey&) const = default;
};

struct CacheEntry {
    bool valid = false;
    CacheKey key{};
    std::optional<PairedMaxDistribution> value;
};

std::optional<PairedMaxDistribution> compute(const DensityModel& model, double density,
                                             const TensorTile& half0, const TensorTile& half1,
                                             DataSpace space, std::int64_t along,
                                             std::int64_t lines) {
    if (along < 1 || along > kMaxPairedTiles) return std::nullopt;
    Pmf pmf = half_count_pmf(model, density, half0, half1, space);
    if (pmf.empty()) return std::nullopt;
    double mean = 0;
    double second = 0;
    for (std::size_t k = 0; k < pmf.size(); ++k) {
        mean += double(k) * pmf[k];
        second += double(k) * double(k) * pmf[k];
    }
    if (std::sqrt(std::max(0.0, second - mean * mean)) > kSmallPairSd) return std::nullopt;
    // Drop the negligible tail (its mass goes to the last value kept, which
    // can only raise the heaviest pair).
    std::size_t top = pmf.size();
    double tail = 0;
    while (top > 1 && tail + pmf[top - 1] < 1e-13) tail += pmf[--top];
    if (top - 1 > kMaxHalfCount) return std::nullopt;
    pmf.resize(top);
    pmf.back() += tail;
    PairedMaxDistribution out;
    const std::int64_t h = std::int64_t(top) - 1;
    out.top = std::size_t(2 * h);
    // From the top down: P(≤ t) falls with t; below the first t where it
    // vanishes, every smaller t has P(≤ t) = 0 too.
    for (std::int64_t t = 2 * h - 1; t >= 0; --t) {
        const double p = std::pow(line_below(pmf, 2 * along, t), double(lines));
        out.cdf[std::size_t(t)] = p;
        if (p < 1e-15) break;
    }
    return out;
}

}  // namespace

double PairedMaxDistribution::mean() const {
    double sum = 0;
    for (std::size_t t = 0; t < top; ++t) sum += 1.0 - cdf[t];
    return sum;
}

std::optional<PairedMaxDistribution> small_count_paired_max(const DensityModel& model,
                                                            double density, const TensorTile& half0,
                                                            const TensorTile& half1,
                                                            DataSpace space, std::int64_t along,
                                                            std::int64_t lines) {
    // An actual mask is not cached (the key would be a pointer).
    if (std::holds_alternative<MaskModel>(model)) {
        return compute(model, density, half0, half1, space, along, lines);
    }
    const CacheKey key{std::uint8_t(model.index()),
                       space,
                       density,
                       half0.elements(),
                       half1.elements(),
                       along,
                       lines};
    thread_local std::array<CacheEntry, 512> cache{};
    const std::size_t hash =
        (std::hash<double>{}(density)*31 + std::size_t(key.half0 * 1000003 + key.half1)) * 131 +
        std::size_t(along * 257 + lines);
    CacheEntry& entry = cache[hash % cache.size()];
    if (entry.valid && entry.key == key) return entry.value;
    entry = {true, key, compute(model, density, half0, half1, space, along, lines)};
    return entry.value;
}

}  // namespace trainloop
