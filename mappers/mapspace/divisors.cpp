#include "mapspace/divisors.hpp"

#include <algorithm>
#include <unordered_map>

namespace trainloop {

namespace {

std::vector<std::int64_t> trial_division(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t p : {2, 3}) {
        while (n % p == 0) {
            out.push_back(p);
            n /= p;
        }
    }
    // Candidates 6k-1 and 6k+1: every prime above 3 is one of them.
    for (std::int64_t p = 5; p <= n / p; p += 6) {
        for (std::int64_t q : {p, p + 2}) {
            while (n % q == 0) {
                out.push_back(q);
                n /= q;
            }
        }
    }
    if (n > 1) out.push_back(n);
    return out;
}

}  // namespace

std::vector<std::int64_t> prime_factors(std::int64_t n) {
    // The searches factor the same bounds over and over (every random point,
    // every move): large ones are remembered per thread, since their trial
    // division takes up to ~10^8 steps.
    constexpr std::int64_t kRemembered = std::int64_t{1} << 24;
    if (n < kRemembered) return trial_division(n);
    thread_local std::unordered_map<std::int64_t, std::vector<std::int64_t>> known;
    if (const auto it = known.find(n); it != known.end()) return it->second;
    if (known.size() > 4096) known.clear();
    return known.emplace(n, trial_division(n)).first->second;
}

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> out = {1};
    const std::vector<std::int64_t> primes = prime_factors(n);
    for (std::size_t i = 0; i < primes.size();) {
        const std::int64_t p = primes[i];
        std::size_t multiplicity = 0;
        while (i < primes.size() && primes[i] == p) {
            ++multiplicity;
            ++i;
        }
        const std::size_t before = out.size();
        std::int64_t power = 1;
        for (std::size_t e = 1; e <= multiplicity; ++e) {
            power *= p;
            for (std::size_t k = 0; k < before; ++k) out.push_back(out[k] * power);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::int64_t ordered_factorization_count(std::int64_t n, std::size_t slots, std::int64_t cap) {
    if (slots == 0) return n == 1 ? 1 : 0;
    const std::vector<std::int64_t> primes = prime_factors(n);
    std::int64_t count = 1;
    for (std::size_t i = 0; i < primes.size();) {
        std::int64_t e = 0;
        const std::int64_t p = primes[i];
        while (i < primes.size() && primes[i] == p) {
            ++e;
            ++i;
        }
        // C(e + slots - 1, slots - 1), built up exactly: each partial product
        // is itself a binomial coefficient, so the division is exact.
        std::int64_t ways = 1;
        for (std::int64_t k = 1; k < std::int64_t(slots); ++k) {
            ways = ways * (e + k) / k;
            if (ways > cap) return cap;
        }
        if (ways > cap / count) return cap;
        count *= ways;
    }
    return std::min(count, cap);
}

}  // namespace trainloop
