// The expected maximum of n independent, identically distributed values:
// the slowest of n PEs that run in lock-step (Procrustes §II-C: a wave lasts
// as long as its slowest PE).
//
// Contract: pure and thread-safe. The tables of the maximum of standard
// normals are computed once, on first use (function-local statics); after
// that every call is allocation-free.
//   - normal_max_moments(n): E[Z], E[Z²], E[Z³] of the maximum of n standard
//     normals, by numerical integration of n·φ(z)·Φ(z)^(n−1).
//   - expected_maximum(n, mean, sd, skew): a Pearson type III (shifted gamma)
//     distribution with these moments, whose quantiles follow the
//     Wilson–Hilferty transform of a normal (Wilson & Hilferty 1931):
//     X ≈ mean + sd·((1 − 1/(9k) + z/(3√k))³·k − k)/√k with k = 4/skew².
//     Since the transform is monotone, the maximum of n such X is the
//     transform of the maximum of n normals, whose moments are tabulated.
//   - expected_maximum_binomial(n, trials, p): exact, Σ_k (1 − F(k)^n).
//   - paired_halves_max_moments(n, skew): Procrustes' half-tile pairing
//     (§IV-C) of 2n standardized halves with this skew (Pearson III; sorted,
//     the i-th lightest paired with the i-th heaviest): the moments of the
//     heaviest of the n pairs. No closed form is known; it is estimated once
//     per (n, skew in steps of 0.25, interpolated) by a seeded simulation.
#pragma once

#include <cstdint>

namespace trainloop {

struct NormalMaxMoments {
    double m1 = 0;  // E[max]
    double m2 = 1;  // E[max²]
    double m3 = 0;  // E[max³]
};

NormalMaxMoments normal_max_moments(std::int64_t n);
NormalMaxMoments paired_halves_max_moments(std::int64_t n, double skew);

// mean + sd·(the standardized shifted gamma's expected maximum); sd = 0 → mean.
double expected_maximum(std::int64_t n, double mean, double sd, double skew);

// Raw moments of the maximum of n values with these moments (as above):
// mean, standard deviation and skewness of the maximum.
struct MaximumMoments {
    double mean = 0;
    double sd = 0;
    double skew = 0;
};
MaximumMoments maximum_moments(std::int64_t n, double mean, double sd, double skew);

// The expected maximum of n i.i.d. Binomial(trials, p) counts, exactly
// (summed over the counts within 12 standard deviations of the mean).
double expected_maximum_binomial(std::int64_t n, std::int64_t trials, double p);

// The same for counts with an arbitrary distribution given as a sorted list
// of distinct values and their probabilities (the tiles of an actual mask).
double expected_maximum_discrete(std::int64_t n, const double* values, const double* probabilities,
                                 std::int64_t count);

}  // namespace trainloop
