#include "cartesian/random_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace trainloop {
namespace {

// The CDF of X ~ Binomial(n, d), 0 < d < 1, read at increasing points. Only
// the counts within 12 standard deviations of the mean are summed (below
// them the CDF is 0 and above them 1 to double precision), so the cost
// grows with the spread, not with n.
class BinomialCdf {
  public:
    BinomialCdf(std::int64_t n, double d) : n_(n), log_ratio_(std::log(d) - std::log1p(-d)) {
        const double mean = static_cast<double>(n) * d;
        const double sd = std::sqrt(mean * (1.0 - d));
        lo_ = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::floor(mean - 12 * sd)) - 1);
        hi_ = std::min<std::int64_t>(n, static_cast<std::int64_t>(std::ceil(mean + 12 * sd)) + 1);
        next_ = lo_;
        log_pmf_ =
            std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(lo_) + 1) -
            std::lgamma(static_cast<double>(n - lo_) + 1) + static_cast<double>(lo_) * std::log(d) +
            static_cast<double>(n - lo_) * std::log1p(-d);
    }

    std::int64_t lowest() const { return lo_; }

    // P(X <= x); x no smaller than at the previous call.
    double at(std::int64_t x) {
        if (x < lo_) return 0.0;
        if (x >= hi_) return 1.0;
        for (; next_ <= x; ++next_) {  // pmf(k+1) = pmf(k)·(n−k)/(k+1)·d/(1−d)
            cdf_ += std::exp(log_pmf_);
            log_pmf_ += std::log(static_cast<double>(n_ - next_)) -
                        std::log(static_cast<double>(next_ + 1)) + log_ratio_;
        }
        return std::min(cdf_, 1.0);
    }

  private:
    std::int64_t n_;
    double log_ratio_;
    std::int64_t lo_ = 0;
    std::int64_t hi_ = 0;
    std::int64_t next_ = 0;  // the next count whose probability is added
    double log_pmf_ = 0;     // log P(X = next_)
    double cdf_ = 0;         // P(X < next_)
};

}  // namespace

double expected_max_vectors(std::span<const std::int64_t> positions, double density,
                            std::int64_t width) {
    std::int64_t largest = 0;
    for (const std::int64_t n : positions) largest = std::max(largest, n);
    const std::int64_t vectors = (largest + width - 1) / width;
    if (density >= 1.0 || vectors == 0) return static_cast<double>(vectors);
    // PEs with the same number of positions share one CDF; P(max <= k) is the product.
    std::map<std::int64_t, double> pes_of_size;
    for (const std::int64_t n : positions)
        if (n > 0) pes_of_size[n] += 1.0;
    std::vector<std::pair<BinomialCdf, double>> cdfs;  // (CDF, PEs of that size)
    std::int64_t lowest = largest;
    for (const auto& [n, count] : pes_of_size) {
        cdfs.emplace_back(BinomialCdf(n, density), count);
        lowest = std::min(lowest, cdfs.back().first.lowest());
    }
    // P(max >= k) = 1 − P(every X_p <= (k−1)·width): 1 while (k−1)·width lies below
    // every PE's lowest likely count, then summed until it vanishes.
    const std::int64_t first = lowest / width + 1;  // (k−1)·width < lowest before it
    double expected = static_cast<double>(first - 1);
    for (std::int64_t k = first; k <= vectors; ++k) {
        double all_below = 1.0;
        for (auto& [cdf, count] : cdfs) all_below *= std::pow(cdf.at((k - 1) * width), count);
        expected += 1.0 - all_below;
        if (all_below > 1.0 - 1e-15) break;
    }
    return expected;
}

}  // namespace trainloop
