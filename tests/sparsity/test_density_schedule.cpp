#include <gtest/gtest.h>

#include "density/density_schedule.hpp"

namespace trainloop {
namespace {

const DensitySchedule kDecay = {Interpolation::linear, {{100, 1.0}, {1100, 0.2}, {2100, 0.1}}};

TEST(DensitySchedule, InterpolatesLinearlyBetweenPoints) {
    EXPECT_DOUBLE_EQ(density_at(kDecay, 600), 0.6);
    EXPECT_DOUBLE_EQ(density_at(kDecay, 1600), 0.15);
    EXPECT_DOUBLE_EQ(density_at(kDecay, 1100), 0.2) << "exactly at a point";
}

TEST(DensitySchedule, HoldsTheEndValuesOutsideThePoints) {
    EXPECT_DOUBLE_EQ(density_at(kDecay, 0), 1.0);
    EXPECT_DOUBLE_EQ(density_at(kDecay, 5000), 0.1);
    EXPECT_DOUBLE_EQ(density_at(kDecay, kFinalIteration), 0.1);
}

TEST(DensitySchedule, StepHoldsThePreviousPointsDensity) {
    DensitySchedule step = kDecay;
    step.interpolation = Interpolation::step;
    EXPECT_DOUBLE_EQ(density_at(step, 1099), 1.0);
    EXPECT_DOUBLE_EQ(density_at(step, 1100), 0.2);
    EXPECT_DOUBLE_EQ(density_at(step, 2099), 0.2);
}

TEST(DensitySchedule, ConstantScheduleIsOnePoint) {
    const DensitySchedule c = constant_schedule(0.3);
    EXPECT_DOUBLE_EQ(density_at(c, 0), 0.3);
    EXPECT_DOUBLE_EQ(density_at(c, kFinalIteration), 0.3);
    EXPECT_TRUE(is_constant(c));
    EXPECT_FALSE(is_constant(kDecay));
}

}  // namespace
}  // namespace trainloop
