// Divisors and prime factors of dimension bounds, for the mapspace's
// factorizations. Bounds are at most 2^53 (common/checked_math.hpp), so
// trial division up to the square root (about 9.5·10^7 candidates at worst,
// a third of them with a 6k±1 wheel) bounds the work; the divisors come from
// the factorization, never from trying every number up to the bound.
#pragma once

#include <cstdint>
#include <vector>

namespace trainloop {

// The prime factors of n >= 1 with multiplicity, ascending (1 has none).
std::vector<std::int64_t> prime_factors(std::int64_t n);

// Every divisor of n >= 1, ascending.
std::vector<std::int64_t> divisors(std::int64_t n);

// The number of ordered ways to write n >= 1 as a product of `slots` factors
// (Π over n's primes p^e of C(e + slots - 1, slots - 1)), saturating at
// `cap` (so a caller can refuse a count too large to enumerate).
std::int64_t ordered_factorization_count(std::int64_t n, std::size_t slots, std::int64_t cap);

}  // namespace trainloop
