// training_run/cartesian_costs.hpp: how a Cartesian-product layer-phase's
// expected cycles become the whole cycles a training run adds up, and where
// they stop fitting (the error `train-cost --evaluator cartesian` gives, end
// to end in test_train_cost_cartesian.cpp; its boundary here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "training_run/cartesian_costs.hpp"

namespace trainloop {
namespace {

TEST(CartesianWholeCycles, TheSlowestPesCyclesRoundedUpPastRoundingNoise) {
    EXPECT_EQ(cartesian_whole_cycles(0.0), 0);
    EXPECT_EQ(cartesian_whole_cycles(3.0), 3);
    EXPECT_EQ(cartesian_whole_cycles(3.0 + 1e-12), 3) << "rounding noise of the expectation";
    EXPECT_EQ(cartesian_whole_cycles(3.2), 4);
    EXPECT_EQ(cartesian_whole_cycles(std::ldexp(1.0, 62)), std::int64_t{1} << 62);
}

TEST(CartesianWholeCycles, NoneWhereSixtyFourBitsDoNotHoldThem) {
    EXPECT_FALSE(cartesian_whole_cycles(std::ldexp(1.0, 63))) << "2^63 is past int64's largest";
    EXPECT_FALSE(cartesian_whole_cycles(8.83e19)) << "well past it";
    EXPECT_FALSE(cartesian_whole_cycles(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(cartesian_whole_cycles(std::numeric_limits<double>::quiet_NaN()));
    // The largest double below 2^63 fits.
    const double below = std::nextafter(std::ldexp(1.0, 63), 0.0);
    ASSERT_TRUE(cartesian_whole_cycles(below));
    EXPECT_EQ(*cartesian_whole_cycles(below), static_cast<std::int64_t>(below));
}

}  // namespace
}  // namespace trainloop
