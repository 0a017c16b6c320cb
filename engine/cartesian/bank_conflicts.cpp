#include "cartesian/bank_conflicts.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace trainloop {

double probability_max_occupancy_at_most(std::int64_t balls, std::int64_t banks,
                                         std::int64_t limit) {
    if (limit >= balls) return 1.0;
    if (limit < 0) return 0.0;
    if (limit * banks < balls) return 0.0;
    // ways[r]: probability that the bins processed so far took balls − r of
    // the balls, each at most `limit`, with r left for the remaining bins.
    std::vector<double> left(static_cast<std::size_t>(balls) + 1, 0.0);
    left[static_cast<std::size_t>(balls)] = 1.0;
    for (std::int64_t bins_left = banks; bins_left >= 1; --bins_left) {
        std::vector<double> next(left.size(), 0.0);
        const double p = 1.0 / static_cast<double>(bins_left);
        for (std::int64_t r = 0; r <= balls; ++r) {
            const double here = left[static_cast<std::size_t>(r)];
            if (here == 0.0) continue;
            if (bins_left == 1) {  // the last bin takes every ball left
                if (r <= limit) next[0] += here;
                continue;
            }
            // Binomial(r, p) for j = 0..min(r, limit), by the ratio of terms.
            double term = std::pow(1.0 - p, static_cast<double>(r));
            for (std::int64_t j = 0; j <= std::min(r, limit); ++j) {
                next[static_cast<std::size_t>(r - j)] += here * term;
                term *= static_cast<double>(r - j) / static_cast<double>(j + 1) * p / (1.0 - p);
            }
        }
        left = std::move(next);
    }
    return std::clamp(left[0], 0.0, 1.0);
}

double expected_max_occupancy(std::int64_t balls, std::int64_t banks) {
    if (balls <= 0) return 0.0;
    if (banks == 1) return static_cast<double>(balls);
    double expected = 0.0;
    for (std::int64_t m = 1; m <= balls; ++m) {
        const double at_least = 1.0 - probability_max_occupancy_at_most(balls, banks, m - 1);
        expected += at_least;
        if (at_least < 1e-15) break;  // the tail beyond is smaller still
    }
    return expected;
}

}  // namespace trainloop
