#include "eval/random_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace trainloop {
namespace {

// P(X <= k·width) for k = 0, 1, ..., ⌈n / width⌉ − 1, X ~ Binomial(n, d), 0 < d < 1:
// the CDF at the vector boundaries, summed from the probability mass function
// (by lgamma, which stays finite for every n here).
std::vector<double> cdf_at_vector_boundaries(std::int64_t n, double d, std::int64_t width) {
    const std::int64_t vectors = (n + width - 1) / width;
    std::vector<double> cdf(static_cast<std::size_t>(vectors), 0.0);
    const double log_d = std::log(d);
    const double log_rest = std::log1p(-d);
    const double log_n_factorial = std::lgamma(static_cast<double>(n) + 1.0);
    double cumulative = 0.0;
    std::int64_t x = 0;
    for (std::int64_t k = 0; k < vectors; ++k) {
        for (; x <= k * width; ++x) {
            const double xd = static_cast<double>(x);
            cumulative += std::exp(log_n_factorial - std::lgamma(xd + 1.0) -
                                   std::lgamma(static_cast<double>(n - x) + 1.0) + xd * log_d +
                                   static_cast<double>(n - x) * log_rest);
        }
        cdf[static_cast<std::size_t>(k)] = std::min(cumulative, 1.0);
    }
    return cdf;
}

}  // namespace

double expected_max_vectors(std::span<const std::int64_t> positions, double density,
                            std::int64_t width) {
    std::int64_t largest = 0;
    for (const std::int64_t n : positions) largest = std::max(largest, n);
    const std::int64_t vectors = (largest + width - 1) / width;
    if (density >= 1.0) return static_cast<double>(vectors);
    // PEs with the same number of positions share one CDF; P(max <= k) is the product.
    std::map<std::int64_t, std::int64_t> pes_of_size;
    for (const std::int64_t n : positions)
        if (n > 0) ++pes_of_size[n];
    std::vector<std::pair<std::vector<double>, double>> cdfs;  // (CDF, PEs of that size)
    for (const auto& [n, count] : pes_of_size)
        cdfs.emplace_back(cdf_at_vector_boundaries(n, density, width), static_cast<double>(count));
    double expected = 0.0;
    for (std::int64_t k = 1; k <= vectors; ++k) {  // P(max >= k) = 1 − P(every X_p <= (k−1)·width)
        double all_below = 1.0;
        for (const auto& [cdf, count] : cdfs) {
            const auto i = static_cast<std::size_t>(k - 1);
            if (i < cdf.size()) all_below *= std::pow(cdf[i], count);
        }
        expected += 1.0 - all_below;
    }
    return expected;
}

}  // namespace trainloop
