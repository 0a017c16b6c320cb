// ln Γ(x), thread-safe.
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

}  // namespace trainloop
