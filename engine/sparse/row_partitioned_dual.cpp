#include "sparse/row_partitioned_dual.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace trainloop {
namespace {

// The nonzero count above which a row is cheaper as RP-BF: h + c·n > L.
double switch_nonzeros(const RowFormatFields& f) {
    return double(f.row_length - f.row_header_bits) / double(f.column_index_bits);
}

// Σ_n P(n)·cost(n) over the row's exact count distribution. `count` is the
// count of nonzeros or, when most elements are nonzero, of zeros (its pmf
// starts at a non-negligible P(0) either way: no underflow).
template <class Cost>
double expect_over_counts(std::int64_t L, double p, double variance, Cost cost) {
    const double binomial_variance = double(L) * p * (1 - p);
    const double rho = L > 1 ? (variance / binomial_variance - 1) / double(L - 1) : 0;
    if (rho >= 1 - 1e-12) return (1 - p) * cost(0) + p * cost(L);  // all or nothing
    double pmf = 0;
    double weighted = 0;
    double mass = 0;
    if (rho > 1e-9) {
        // Beta-binomial with the row's mean and variance (intra-row correlation rho).
        const double s = 1 / rho - 1;
        const double alpha = p * s;
        const double beta = (1 - p) * s;
        pmf = 1;
        for (std::int64_t i = 0; i < L; ++i) pmf *= (beta + double(i)) / (alpha + beta + double(i));
        for (std::int64_t k = 0; k <= L; ++k) {
            weighted += pmf * cost(k);
            mass += pmf;
            pmf *= double(L - k) / double(k + 1) * (alpha + double(k)) / (beta + double(L - k - 1));
        }
    } else {
        // Binomial: Bernoulli elements (or a model less spread than them, whose
        // spread this overstates).
        pmf = std::pow(1 - p, double(L));
        const double odds = p / (1 - p);
        for (std::int64_t k = 0; k <= L; ++k) {
            weighted += pmf * cost(k);
            mass += pmf;
            pmf *= double(L - k) / double(k + 1) * odds;
        }
    }
    return weighted / mass;
}

// E[(X - k)^+] for X ~ Normal(mean, sd²).
double normal_excess(double mean, double sd, double k) {
    if (sd <= 0) return std::max(mean - k, 0.0);
    const double z = (k - mean) / sd;
    const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
    const double upper_tail = 0.5 * std::erfc(z / std::numbers::sqrt2);
    return sd * pdf + (mean - k) * upper_tail;
}

}  // namespace

double rp_bf_switch_density(const RowFormatFields& f) {
    if (f.column_index_bits == 0) return f.row_length < f.row_header_bits ? 0.0 : 1.0;
    return std::clamp(switch_nonzeros(f) / double(f.row_length), 0.0, 1.0);
}

double expected_rp_dual_row_bits(const RowFormatFields& f, const TileOccupancy& row) {
    const std::int64_t L = f.row_length;
    const double mean = std::clamp(row.mean_nonzeros, 0.0, double(L));
    const double bf = rp_bf_row_bits(f);
    if (f.column_index_bits == 0) return std::min(rp_csr_row_bits(f, 0), bf);
    const double n_switch = switch_nonzeros(f);
    if (n_switch <= 0) return bf;                                // RP-BF for every count
    if (n_switch >= double(L)) return rp_csr_row_bits(f, mean);  // RP-CSR for every count
    // Chen et al. 2024 eqs. 5–9 per row: min(h + c·n, L), in expectation over n.
    const auto cost = [&](double n) { return std::min(rp_csr_row_bits(f, n), bf); };
    if (L <= kExactRowLength) {
        const double p = mean / double(L);
        if (p <= 0) return cost(0);
        if (p >= 1) return cost(double(L));
        if (p <= 0.5) {
            return expect_over_counts(L, p, row.variance,
                                      [&](std::int64_t n) { return cost(double(n)); });
        }
        return expect_over_counts(L, 1 - p, row.variance,
                                  [&](std::int64_t zeros) { return cost(double(L - zeros)); });
    }
    // Long rows: n ~ Normal, and the cost interpolated linearly between the
    // integer counts around the switch (k and k+1), where its slope drops
    // from c to L - (h + c·k), then to 0:
    //   h + c·n - (c - s)·(n - k)^+ - s·(n - k - 1)^+.
    const double sd = std::sqrt(row.variance);
    const double k = std::floor(n_switch);
    const double s = bf - rp_csr_row_bits(f, k);
    return rp_csr_row_bits(f, mean) -
           (double(f.column_index_bits) - s) * normal_excess(mean, sd, k) -
           s * normal_excess(mean, sd, k + 1);
}

}  // namespace trainloop
