// E[⌈W / c⌉]: the expected cycles of work W shared evenly by c MAC units
// (flexible allocation, load_imbalance.cpp), for W normal with mean μ and
// standard deviation σ; when W counts whole nonzeros it lives on the lattice
// of multiples of r (MACs per nonzero), P(W ≥ m·r) = Q(((m − ½)·r − μ)/σ)
// (a continuity correction).
//
// Three ways to the same number, the cheapest that is exact enough:
//   - by thresholds: Σ_{k≥0} P(W > k·c), one term per cycle within μ ± 9σ;
//   - by lattice points: Σ_m P(W = m·r)·⌈m·r / c⌉, one term per lattice point
//     within μ ± 9σ (the same sum, reordered: fewer terms when r > c);
//   - when both would take more than kMaxExpectedCeilingTerms terms, σ spans
//     many cycles and many lattice points, so W/c's fractional part is near
//     uniform over its possible values and E[⌈W/c⌉] = μ/c + ρ: ρ = ½ for
//     continuous W (the error is below e^(−2π²σ²/c²), Poisson summation), and
//     for W on the lattice of integer r with integer c, the fractional parts
//     are the multiples of g = gcd(r, c) over c, so ρ = (c − g)/(2c) (the
//     rounding cycles_of() already adds for a single PE, where r = 1). That
//     limit is within half a cycle of the sum in every case.
// Before the limit, a wave of 2,048 PEs with a heavily reused weight (AlexNet
// conv1, r ≈ 7.7·10^5 MACs per weight) took about 10^5 terms per evaluation,
// about 1 ms, most of the mapper's time.
#pragma once

#include <cstdint>

namespace trainloop {

inline constexpr std::int64_t kMaxExpectedCeilingTerms = 2048;
// The same for the maximum of several copies, whose terms each cost a power
// as well: it runs for every sparse evaluation of an array of instances (a
// line, a sub-system), inside the mapper's loop. Past it σ spans more than 7
// cycles and 7 lattice points, and the maximum of up to 10^4 normals keeps
// at least 0.3 σ (normal order statistics: 0.83 σ for 2, 0.32 σ for 10^4),
// so over 2 cycles and 2 lattice points, and its fractions are
// near uniform: the limit is within half a cycle, and closer the more σ
// spans (tests/sparse/test_expected_ceiling.cpp).
inline constexpr std::int64_t kMaxExpectedMaxCeilingTerms = 128;

struct CeilingWork {
    double mean = 0;        // μ, MACs
    double sd = 0;          // σ > 0
    bool integral = false;  // W is a whole multiple of `lattice`
    double lattice = 1;     // r, MACs per nonzero (integral only)
};

// E[⌈W / per_cycle⌉] by the cheapest of the three ways above. A W that is the
// work of `shares` waves run as one (flexible allocation's packed waves) is
// shared out over them afterwards, so the limit's half cycle costs each wave
// at most 1/(2·shares): the sums stop at kMaxExpectedCeilingTerms / shares
// terms, which keeps a packed group's cost near one wave's.
double expected_ceiling(const CeilingWork& w, double per_cycle, double shares = 1);

// The two sums term by term, whatever their length (the reference for tests).
double expected_ceiling_by_thresholds(const CeilingWork& w, double per_cycle);
double expected_ceiling_by_lattice(const CeilingWork& w, double per_cycle);
// The uniform-fraction limit.
double expected_ceiling_limit(const CeilingWork& w, double per_cycle);

// E[⌈max of `count` independent copies of W / per_cycle⌉] (line indexing's
// lines, flexible allocation's instances: load_imbalance.cpp), W at most
// `upper`: by thresholds, Σ_{k·c < upper} (1 − (1 − P(W > k·c))^count), or
// by lattice points, Σ_m P(max = m·r)·⌈m·r / c⌉, whichever is shorter; when
// both would take more than kMaxExpectedMaxCeilingTerms terms, the
// uniform-fraction limit applied to `expected_max`, the maximum's mean (the
// caller's, with its skew).
double expected_max_ceiling(const CeilingWork& w, double per_cycle, std::int64_t count,
                            double expected_max, double upper);
double expected_max_ceiling_by_thresholds(const CeilingWork& w, double per_cycle,
                                          std::int64_t count, double upper);
double expected_max_ceiling_by_lattice(const CeilingWork& w, double per_cycle, std::int64_t count,
                                       double upper);

}  // namespace trainloop
