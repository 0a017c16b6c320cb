#include "imbalance/expected_ceiling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

namespace trainloop {
namespace {

// ±9σ hold all but about 2·10^-19 of a normal.
constexpr double kTails = 9.0;

// P(W ≥ x) of the normal.
double tail(const CeilingWork& w, double x) {
    return 0.5 * std::erfc((x - w.mean) / (w.sd * std::numbers::sqrt2));
}

// P(W > x): on the lattice, P(W ≥ (⌊x/r⌋ + 1)·r) with the continuity correction.
double above(const CeilingWork& w, double x) {
    if (!w.integral) return tail(w, x);
    return tail(w, (std::floor(x / w.lattice + 1e-9) + 0.5) * w.lattice);
}

double threshold_terms(const CeilingWork& w, double per_cycle) {
    return 2 * kTails * w.sd / per_cycle;
}

double lattice_terms(const CeilingWork& w) { return 2 * kTails * w.sd / w.lattice; }

bool is_integer(double x) { return x == std::floor(x) && x < 9.0e15; }

// ⌈m·r / c⌉ for the lattice point m·r, counted as the thresholds do (k·c <
// m·r, to the same tolerance).
double lattice_ceiling(double m, double r, double per_cycle) {
    return std::max(0.0, std::ceil(m * r / per_cycle - 1e-9 * r / per_cycle));
}

// Which way the dispatchers below take: the shorter of the two sums while it
// has at most `cap` terms, else the uniform-fraction limit.
enum class CeilingWay { thresholds, lattice, limit };
CeilingWay shortest_way(const CeilingWork& w, double per_cycle, double cap) {
    const double by_thresholds = threshold_terms(w, per_cycle);
    const double by_lattice =
        w.integral ? lattice_terms(w) : std::numeric_limits<double>::infinity();
    if (by_thresholds <= cap && by_thresholds <= by_lattice) return CeilingWay::thresholds;
    if (by_lattice <= cap) return CeilingWay::lattice;
    return CeilingWay::limit;
}

}  // namespace

double expected_ceiling_by_thresholds(const CeilingWork& w, double per_cycle) {
    const double lo = std::max(0.0, std::floor((w.mean - kTails * w.sd) / per_cycle));
    double cycles = lo;  // P(W > k·c) ≈ 1 below lo
    for (double k = lo; k * per_cycle <= w.mean + kTails * w.sd; k += 1) {
        cycles += above(w, k * per_cycle);
    }
    return cycles;
}

double expected_ceiling_by_lattice(const CeilingWork& w, double per_cycle) {
    const double r = w.lattice;
    const double lo = std::max(0.0, std::floor((w.mean - kTails * w.sd) / r));
    const double hi = std::ceil((w.mean + kTails * w.sd) / r);
    // The mass below lo sits at lo; P(W = m·r) = P(W ≥ m·r) − P(W ≥ (m + 1)·r).
    double at_least = 1.0;
    double cycles = 0;
    for (double m = lo; m <= hi; m += 1) {
        const double at_least_next = tail(w, (m + 0.5) * r);
        cycles += (at_least - at_least_next) * lattice_ceiling(m, r, per_cycle);
        at_least = at_least_next;
    }
    return cycles;
}

double expected_ceiling_limit(const CeilingWork& w, double per_cycle) {
    double rounding = 0.5;
    if (w.integral && is_integer(w.lattice) && is_integer(per_cycle)) {
        const auto r = std::int64_t(w.lattice);
        const auto c = std::int64_t(per_cycle);
        rounding = double(c - std::gcd(r, c)) / (2.0 * double(c));
    }
    return w.mean / per_cycle + rounding;
}

double expected_max_ceiling_by_thresholds(const CeilingWork& w, double per_cycle,
                                          std::int64_t count, double upper) {
    const double lo = std::max(0.0, std::floor((w.mean - kTails * w.sd) / per_cycle));
    const double hi = std::min(w.mean + kTails * w.sd, upper - 1e-9 * per_cycle);
    double cycles = lo;  // below lo every copy is above k·c
    for (double k = lo; k * per_cycle <= hi; k += 1) {
        cycles += 1.0 - std::pow(1.0 - above(w, k * per_cycle), double(count));
    }
    return cycles;
}

double expected_max_ceiling_by_lattice(const CeilingWork& w, double per_cycle, std::int64_t count,
                                       double upper) {
    const double r = w.lattice;
    const double lo = std::max(0.0, std::floor((w.mean - kTails * w.sd) / r));
    const double hi = std::ceil((w.mean + kTails * w.sd) / r);
    // P(max ≥ m·r) = 1 − P(W < m·r)^count; the mass below lo sits at lo, and
    // no copy exceeds `upper`.
    const double top = std::max(0.0, std::ceil(upper / per_cycle - 1e-9 * r / per_cycle));
    double at_least = 1.0;
    double cycles = 0;
    for (double m = lo; m <= hi; m += 1) {
        const double at_least_next = 1.0 - std::pow(1.0 - tail(w, (m + 0.5) * r), double(count));
        cycles += (at_least - at_least_next) * std::min(lattice_ceiling(m, r, per_cycle), top);
        at_least = at_least_next;
    }
    return cycles;
}

double expected_max_ceiling(const CeilingWork& w, double per_cycle, std::int64_t count,
                            double expected_max, double upper) {
    switch (shortest_way(w, per_cycle, double(kMaxExpectedMaxCeilingTerms))) {
        case CeilingWay::thresholds:
            return expected_max_ceiling_by_thresholds(w, per_cycle, count, upper);
        case CeilingWay::lattice:
            return expected_max_ceiling_by_lattice(w, per_cycle, count, upper);
        case CeilingWay::limit:
            break;
    }
    CeilingWork at_max = w;
    at_max.mean = expected_max;
    return expected_ceiling_limit(at_max, per_cycle);
}

double expected_ceiling(const CeilingWork& w, double per_cycle, double shares) {
    switch (shortest_way(w, per_cycle, double(kMaxExpectedCeilingTerms) / std::max(1.0, shares))) {
        case CeilingWay::thresholds:
            return expected_ceiling_by_thresholds(w, per_cycle);
        case CeilingWay::lattice:
            return expected_ceiling_by_lattice(w, per_cycle);
        case CeilingWay::limit:
            break;
    }
    return expected_ceiling_limit(w, per_cycle);
}

}  // namespace trainloop
