#include "imbalance/expected_maximum.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <numbers>
#include <vector>

#include "common/log_gamma.hpp"

namespace trainloop {
namespace {

constexpr std::int64_t kTabulated = 4096;

double normal_pdf(double z) { return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi); }
double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

// ∫ z^j · n·φ(z)·Φ(z)^(n−1) dz over [−10, 12] (Simpson's rule, step 1/100).
NormalMaxMoments integrate(std::int64_t n) {
    constexpr double lo = -10.0;
    constexpr double hi = 12.0;
    constexpr int steps = 2200;
    const double h = (hi - lo) / steps;
    NormalMaxMoments m{0, 0, 0};
    for (int i = 0; i <= steps; ++i) {
        const double z = lo + h * i;
        const double w = (i == 0 || i == steps) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        const double cdf = normal_cdf(z);
        const double density =
            cdf <= 0 ? 0.0 : double(n) * normal_pdf(z) * std::exp(double(n - 1) * std::log(cdf));
        m.m1 += w * density * z;
        m.m2 += w * density * z * z;
        m.m3 += w * density * z * z * z;
    }
    m.m1 *= h / 3;
    m.m2 *= h / 3;
    m.m3 *= h / 3;
    return m;
}

// Entries are computed on first use, each once (std::call_once is a single
// atomic load afterwards).
struct LazyTable {
    std::array<NormalMaxMoments, kTabulated + 1> moments{};
    std::array<std::once_flag, kTabulated + 1> once{};
};

const NormalMaxMoments& tabulated(std::int64_t n) {
    static LazyTable table;
    const std::size_t i = std::size_t(n);
    std::call_once(table.once[i], [&] { table.moments[i] = integrate(n); });
    return table.moments[i];
}

// E[Y], E[Y²], E[Y³] of the standardized shifted gamma Y = g(Z) of the maximum
// Z of n normals, g(z) = (k·(a + b·z)³ − k)/√k, a = 1 − 1/(9k), b = 1/(3√k).
std::array<double, 3> transformed_moments(const NormalMaxMoments& z, double skew) {
    if (std::abs(skew) < 1e-4) return {z.m1, z.m2, z.m3};
    const double sign = skew < 0 ? -1.0 : 1.0;
    const double k = 4.0 / (skew * skew);
    const double a = 1.0 - 1.0 / (9.0 * k);
    const double b = 1.0 / (3.0 * std::sqrt(k));
    // A negative skew is the mirror image: the max of X is −(min of −X); the
    // min of n normals is −(max), so the moments of Z flip sign in odd powers.
    const double z1 = sign * z.m1;
    const double z3 = sign * z.m3;
    const double z2 = z.m2;
    // (a + b z)³ = a³ + 3a²b z + 3ab² z² + b³ z³; its powers need E[z^j] up to 9:
    // keep it to the mean, and take the spread from the normal moments (below).
    const double cube_mean = a * a * a + 3 * a * a * b * z1 + 3 * a * b * b * z2 + b * b * b * z3;
    const double y1 = sign * (k * cube_mean - k) / std::sqrt(k);
    return {y1, z.m2 - z.m1 * z.m1 + y1 * y1, 0.0};
}

// splitmix64 (Steele, Lea & Flood 2014): a portable, seeded stream.
std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

double uniform01(std::uint64_t& state) {
    return (double(splitmix(state) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

// A standardized shifted gamma (Pearson III) with this skew, from a standard
// normal z by the Wilson–Hilferty transform (bounded below at −2/skew).
double pearson_from_normal(double z, double skew) {
    if (std::abs(skew) < 1e-4) return z;
    const double sign = skew < 0 ? -1.0 : 1.0;
    const double k = 4.0 / (skew * skew);
    const double base = std::max(0.0, 1.0 - 1.0 / (9.0 * k) + sign * z / (3.0 * std::sqrt(k)));
    return sign * (k * base * base * base - k) / std::sqrt(k);
}

constexpr int kSkewBuckets = 17;  // skew −2, −1.75, ..., 2
double bucket_skew(int bucket) { return -2.0 + 0.25 * bucket; }

NormalMaxMoments simulate_pairing(std::int64_t n, double skew) {
    // Fewer samples for long lines (each sample sorts 2n values); ≥ 2,000.
    const int samples =
        int(std::clamp<std::int64_t>(400000 / std::max<std::int64_t>(n, 1), 2000, 20000));
    std::uint64_t state = 0x5EEDULL + std::uint64_t(n);
    std::vector<double> halves(std::size_t(2 * n));
    NormalMaxMoments m{0, 0, 0};
    for (int s = 0; s < samples; ++s) {
        for (std::size_t i = 0; i < halves.size(); i += 2) {
            // Box–Muller: two standard normals from two uniforms.
            const double r = std::sqrt(-2.0 * std::log(uniform01(state)));
            const double t = 2.0 * std::numbers::pi * uniform01(state);
            halves[i] = pearson_from_normal(r * std::cos(t), skew);
            halves[i + 1] = pearson_from_normal(r * std::sin(t), skew);
        }
        std::sort(halves.begin(), halves.end());
        double heaviest = -1e300;
        for (std::size_t i = 0; i < std::size_t(n); ++i) {
            heaviest = std::max(heaviest, halves[i] + halves[halves.size() - 1 - i]);
        }
        m.m1 += heaviest;
        m.m2 += heaviest * heaviest;
        m.m3 += heaviest * heaviest * heaviest;
    }
    m.m1 /= samples;
    m.m2 /= samples;
    m.m3 /= samples;
    return m;
}

const NormalMaxMoments& tabulated_pairing(std::int64_t n, int bucket) {
    static std::array<LazyTable, kSkewBuckets> tables;
    LazyTable& table = tables[std::size_t(bucket)];
    const std::size_t i = std::size_t(n);
    std::call_once(table.once[i],
                   [&] { table.moments[i] = simulate_pairing(n, bucket_skew(bucket)); });
    return table.moments[i];
}

}  // namespace

NormalMaxMoments paired_halves_max_moments(std::int64_t n, double skew) {
    if (n < 1) return {0, 0, 0};
    // Linear interpolation between the two nearest tabulated skews.
    const double position = (std::clamp(skew, -2.0, 2.0) + 2.0) / 0.25;
    const int lo = std::min(int(position), kSkewBuckets - 2);
    const double f = position - lo;
    const auto at = [&](int bucket) {
        return n <= kTabulated ? tabulated_pairing(n, bucket)
                               : simulate_pairing(n, bucket_skew(bucket));
    };
    const NormalMaxMoments a = at(lo);
    const NormalMaxMoments b = f > 0 ? at(lo + 1) : a;
    return {a.m1 + f * (b.m1 - a.m1), a.m2 + f * (b.m2 - a.m2), a.m3 + f * (b.m3 - a.m3)};
}

NormalMaxMoments normal_max_moments(std::int64_t n) {
    if (n <= 1) return {0, 1, 0};
    if (n <= kTabulated) return tabulated(n);
    return integrate(n);  // beyond any array the tests and shipped specs use
}

double expected_maximum(std::int64_t n, double mean, double sd, double skew) {
    if (n <= 1 || sd <= 0) return mean;
    // Wilson–Hilferty is accurate for |skew| up to ~2; beyond it the shape is capped.
    const double s = std::clamp(skew, -2.0, 2.0);
    return mean + sd * transformed_moments(normal_max_moments(n), s)[0];
}

MaximumMoments maximum_moments(std::int64_t n, double mean, double sd, double skew) {
    if (n <= 1 || sd <= 0) return {mean, sd, skew};
    const NormalMaxMoments z = normal_max_moments(n);
    const double s = std::clamp(skew, -2.0, 2.0);
    const auto y = transformed_moments(z, s);
    const double var = std::max(0.0, y[1] - y[0] * y[0]);
    // The maximum of normals is itself right-skewed; its skew from the table.
    const double zvar = z.m2 - z.m1 * z.m1;
    const double zskew = (z.m3 - 3 * z.m1 * z.m2 + 2 * z.m1 * z.m1 * z.m1) / std::pow(zvar, 1.5);
    return {mean + sd * y[0], sd * std::sqrt(var), zskew};
}

double expected_maximum_binomial(std::int64_t n, std::int64_t trials, double p) {
    if (trials <= 0 || p <= 0) return 0.0;
    if (p >= 1) return double(trials);
    const double mean = double(trials) * p;
    const double sd = std::sqrt(mean * (1.0 - p));
    const std::int64_t lo = std::max<std::int64_t>(0, std::int64_t(std::floor(mean - 12 * sd)) - 1);
    const std::int64_t hi =
        std::min<std::int64_t>(trials, std::int64_t(std::ceil(mean + 12 * sd)) + 1);
    // log pmf at lo, then the ratio recursion pmf(k+1) = pmf(k)·(T−k)/(k+1)·p/(1−p).
    const double log_ratio = std::log(p) - std::log1p(-p);
    double log_pmf = log_gamma(double(trials) + 1) - log_gamma(double(lo) + 1) -
                     log_gamma(double(trials - lo) + 1) + double(lo) * std::log(p) +
                     double(trials - lo) * std::log1p(-p);
    // Σ_{k≥0} P(max > k) = Σ_k (1 − F(k)^n); below lo, F ≈ 0 and each term is 1.
    double sum = double(lo);
    double cdf = 0;
    for (std::int64_t k = lo; k < hi; ++k) {
        cdf += std::exp(log_pmf);
        const double all_below = cdf >= 1.0 ? 1.0 : std::exp(double(n) * std::log(cdf));
        sum += 1.0 - all_below;
        if (all_below > 1.0 - 1e-15) break;
        log_pmf += std::log(double(trials - k)) - std::log(double(k + 1)) + log_ratio;
    }
    return sum;
}

double expected_maximum_discrete(std::int64_t n, const double* values, const double* probabilities,
                                 std::int64_t count) {
    if (count <= 0) return 0.0;
    // E[max] = v_0 + Σ_i (v_{i+1} − v_i)·(1 − F(v_i)^n).
    double sum = values[0];
    double cdf = 0;
    for (std::int64_t i = 0; i + 1 < count; ++i) {
        cdf += probabilities[i];
        const double all_below = cdf >= 1.0 ? 1.0 : std::pow(cdf, double(n));
        sum += (values[i + 1] - values[i]) * (1.0 - all_below);
    }
    return sum;
}

}  // namespace trainloop
