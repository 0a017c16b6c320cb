// Divisors from the prime factorization: the same as trying every number,
// and fast for the largest bounds trainloop accepts (2^53).
#include <gtest/gtest.h>

#include <functional>

#include "mapspace/divisors.hpp"

namespace trainloop {
namespace {

std::vector<std::int64_t> divisors_by_trial(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d <= n; ++d) {
        if (n % d == 0) out.push_back(d);
    }
    return out;
}

std::int64_t factorizations_by_enumeration(std::int64_t n, std::size_t slots) {
    if (slots == 1) return 1;
    std::int64_t count = 0;
    for (std::int64_t d : divisors_by_trial(n))
        count += factorizations_by_enumeration(n / d, slots - 1);
    return count;
}

TEST(Divisors, MatchTrialDivisionForEveryNumberUpTo2000) {
    for (std::int64_t n = 1; n <= 2000; ++n) {
        ASSERT_EQ(divisors(n), divisors_by_trial(n)) << n;
        std::int64_t product = 1;
        for (std::int64_t p : prime_factors(n)) product *= p;
        ASSERT_EQ(product, n);
    }
}

TEST(Divisors, OrderedFactorizationCountsMatchEnumeration) {
    for (std::int64_t n : {1, 2, 12, 64, 360, 1024, 2310}) {
        for (std::size_t slots : {1U, 2U, 3U, 4U}) {
            EXPECT_EQ(ordered_factorization_count(n, slots, 1'000'000'000),
                      factorizations_by_enumeration(n, slots))
                << n << " over " << slots;
        }
    }
    // Saturates at the cap instead of overflowing.
    EXPECT_EQ(ordered_factorization_count(std::int64_t{1} << 52, 8, 1000), 1000);
}

TEST(Divisors, TheLargestBoundsFactor) {
    // 2^30 took minutes by trying every number; a prime near 2^53 is the worst
    // case of trial division up to the square root (ctest's timeout bounds it).
    EXPECT_EQ(divisors(std::int64_t{1} << 30).size(), 31U);
    EXPECT_EQ(divisors(9007199254740881).size(), 2U);  // the largest prime below 2^53
    EXPECT_EQ(prime_factors(9007199254740881), std::vector<std::int64_t>{9007199254740881});
}

}  // namespace
}  // namespace trainloop
