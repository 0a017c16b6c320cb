// Checked arithmetic: overflow is reported, never wrapped.
#include <gtest/gtest.h>

#include <array>
#include <limits>

#include "common/checked_math.hpp"

namespace trainloop {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TEST(CheckedMath, MultiplicationAndAdditionReportOverflow) {
    EXPECT_EQ(checked_mul(3, 4), 12);
    EXPECT_FALSE(checked_mul(kMax, 2));
    // The example: 2^60 + 8 times 16 wraps to 128 in 64 bits.
    EXPECT_FALSE(checked_mul((std::int64_t{1} << 60) + 8, 16));
    EXPECT_EQ(checked_add(kMax - 1, 1), kMax);
    EXPECT_FALSE(checked_add(kMax, 1));
}

TEST(CheckedMath, SaturatingProductStaysAboveEveryBound) {
    EXPECT_EQ(saturating_mul(1 << 20, 1 << 20), std::int64_t{1} << 40);
    EXPECT_EQ(saturating_mul((std::int64_t{1} << 60) + 8, 16), kMax);
}

TEST(CheckedMath, CountProductsStopAtTwoToThe53) {
    EXPECT_EQ(count_product(std::array<std::int64_t, 3>{4, 8, 16}), 512);
    EXPECT_EQ(
        count_product(std::array<std::int64_t, 2>{std::int64_t{1} << 26, std::int64_t{1} << 27}),
        kMaxCount);
    EXPECT_FALSE(count_product(
        std::array<std::int64_t, 2>{(std::int64_t{1} << 26) + 1, std::int64_t{1} << 27}));
    EXPECT_FALSE(count_product(std::array<std::int64_t, 3>{1 << 30, 1 << 30, 1 << 30}));
}

TEST(CheckedMath, DoublesBecomeCountsOnlyWhenRepresentable) {
    EXPECT_EQ(count_from_double(2.5), 3);  // rounded up: cycles
    EXPECT_EQ(count_from_double(7.0), 7);
    EXPECT_FALSE(count_from_double(1e300));
    EXPECT_FALSE(count_from_double(-1));
    EXPECT_FALSE(count_from_double(std::numeric_limits<double>::quiet_NaN()));
    EXPECT_FALSE(count_from_double(std::numeric_limits<double>::infinity()));
}

}  // namespace
}  // namespace trainloop
