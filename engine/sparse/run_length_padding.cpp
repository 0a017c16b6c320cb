#include "sparse/run_length_padding.hpp"

#include <cmath>

namespace trainloop {
namespace {

// Σ_{k=0}^{K-1} (1 - Q^k) / x with x = 1 - Q: a second-order difference that
// cancels catastrophically in closed form when K·x is small, where its
// binomial series C(K,2) - C(K,3)x + C(K,4)x² - ... converges fast instead.
double sum_of_partial_geometric_sums(double K, double x, double geometric_sum) {
    if (K * x < 1e-3) {
        double term = K * (K - 1) / 2;  // C(K, 2)
        double sum = 0;
        for (int j = 1; j <= 6 && term != 0; ++j) {
            sum += term;
            term *= -x * (K - j - 1) / (j + 2);  // C(K, j+2) x^j (-1)^j from C(K, j+1) x^(j-1)
        }
        return sum;
    }
    return (K - geometric_sum) / x;
}

}  // namespace

double expected_rle_padding_entries(std::int64_t elements, double density, std::int64_t run_bits) {
    if (density <= 0 || density >= 1 || run_bits >= 62) return 0;
    const std::int64_t m = std::int64_t(1) << run_bits;  // elements one padding entry covers
    if (m >= elements) return 0;                         // no run can overflow the field
    // A nonzero at position i after g zeros needs floor(g/m) padding entries,
    // P(g ≥ k·m) = q^(k·m) for k·m ≤ i; summing over i and k with Q = q^m:
    //   E[padding] = d·Q·[m·Σ_{k<K}(1-Q^k)/(1-Q) + r·Σ_{k<K}Q^k],  E = K·m + r.
    const double K = double(elements / m);
    const double r = double(elements % m);
    const double log_Q = double(m) * std::log1p(-density);
    const double Q = std::exp(log_Q);
    const double x = -std::expm1(log_Q);                      // 1 - Q, accurately
    const double geometric_sum = -std::expm1(K * log_Q) / x;  // Σ_{k<K} Q^k
    return density * Q *
           (double(m) * sum_of_partial_geometric_sums(K, x, geometric_sum) + r * geometric_sum);
}

}  // namespace trainloop
