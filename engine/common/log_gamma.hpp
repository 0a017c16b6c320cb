// ln Γ(x) and ln C(n, k), thread-safe.
#pragma once

#include <math.h>

namespace trainloop {

// std::lgamma also stores the sign of Γ(x) in the global `signgam` (C99
// 7.12.8.3; POSIX marks lgamma not thread-safe), a data race when the search
// evaluates mappings in parallel: lgamma_r returns the sign instead.
inline double log_gamma(double x) {
    int sign = 0;
    return ::lgamma_r(x, &sign);
}

// ln C(n, k), for real n ≥ k ≥ 0.
inline double log_choose(double n, double k) {
    return log_gamma(n + 1) - log_gamma(k + 1) - log_gamma(n - k + 1);
}

}  // namespace trainloop
