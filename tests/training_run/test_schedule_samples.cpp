// Sampling density schedules over a run: exact pieces where every schedule is
// constant, the midpoint rule on linear ramps, and the run covered once.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "training_run/schedule_samples.hpp"

namespace trainloop {
namespace {

DensitySchedule step(std::vector<SchedulePoint> points) {
    return {Interpolation::step, std::move(points)};
}
DensitySchedule linear(std::vector<SchedulePoint> points) {
    return {Interpolation::linear, std::move(points)};
}

void expect_covers(const std::vector<RunSample>& samples, std::int64_t iterations) {
    ASSERT_FALSE(samples.empty());
    EXPECT_EQ(samples.front().begin, 0);
    EXPECT_EQ(samples.back().end, iterations);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        EXPECT_GT(samples[i].weight(), 0) << i;
        EXPECT_GE(samples[i].iteration, samples[i].begin) << i;
        EXPECT_LT(samples[i].iteration, samples[i].end) << i;
        if (i > 0) {
            EXPECT_EQ(samples[i].begin, samples[i - 1].end) << i;
        }
    }
}

TEST(ScheduleSamples, NoScheduleIsOneExactSampleOverTheRun) {
    const auto samples = schedule_samples({}, 500, 16);
    ASSERT_EQ(samples.size(), 1u);
    EXPECT_EQ(samples[0], (RunSample{0, 0, 500, true}));
}

TEST(ScheduleSamples, StepScheduleGivesOneExactSamplePerPiece) {
    const DensitySchedule s = step({{0, 1.0}, {100, 0.5}, {300, 0.25}, {900, 0.1}});
    const auto samples = schedule_samples({&s}, 500, 16);
    ASSERT_EQ(samples.size(), 3u) << "the point at 900 lies after the run";
    EXPECT_EQ(samples[0], (RunSample{0, 0, 100, true}));
    EXPECT_EQ(samples[1], (RunSample{100, 100, 300, true}));
    EXPECT_EQ(samples[2], (RunSample{300, 300, 500, true}));
    // Each sample reads the density that holds over its whole piece.
    for (const RunSample& r : samples) {
        EXPECT_EQ(density_at(s, r.iteration), density_at(s, r.end - 1));
    }
}

TEST(ScheduleSamples, SchedulesOfSeveralTensorsCutTheRunAtEveryPoint) {
    const DensitySchedule a = step({{0, 1.0}, {100, 0.5}});
    const DensitySchedule b = step({{0, 1.0}, {50, 0.8}, {100, 0.6}});
    const auto samples = schedule_samples({&a, &b}, 200, 4);
    ASSERT_EQ(samples.size(), 3u);
    EXPECT_EQ(samples[0].end, 50);
    EXPECT_EQ(samples[1].end, 100);
    expect_covers(samples, 200);
}

TEST(ScheduleSamples, LinearRampSharesTheSamplesAndTheRestIsExact) {
    // Procrustes-like: 1.0 falling to 0.2 over [0, 1000), then constant.
    const DensitySchedule s = linear({{0, 1.0}, {1000, 0.2}});
    const auto samples = schedule_samples({&s}, 5000, 8);
    ASSERT_EQ(samples.size(), 9u);
    for (std::size_t i = 0; i < 8; ++i) {
        EXPECT_FALSE(samples[i].exact);
        EXPECT_EQ(samples[i].weight(), 125);
        EXPECT_EQ(samples[i].iteration, samples[i].begin + 62) << "the middle iteration";
    }
    EXPECT_EQ(samples[8], (RunSample{1000, 1000, 5000, true}));
    expect_covers(samples, 5000);
    // Each sub-interval has an odd length: its middle iteration is the mean
    // of its iterations, so the midpoint rule sums a linear density exactly.
    double integral = 0;
    for (const RunSample& r : samples) integral += density_at(s, r.iteration) * r.weight();
    double exact = 0;
    for (std::int64_t i = 0; i < 5000; ++i) exact += density_at(s, i);
    EXPECT_NEAR(integral, exact, 1e-9 * exact);
}

TEST(ScheduleSamples, LinearSegmentOfEqualDensitiesIsConstant) {
    const DensitySchedule s = linear({{0, 0.5}, {100, 0.5}, {200, 0.25}});
    const auto samples = schedule_samples({&s}, 300, 2);
    ASSERT_EQ(samples.size(), 4u);
    EXPECT_TRUE(samples[0].exact);
    EXPECT_FALSE(samples[1].exact);
    EXPECT_FALSE(samples[2].exact);
    EXPECT_TRUE(samples[3].exact);
    expect_covers(samples, 300);
}

TEST(ScheduleSamples, NeverMoreSamplesThanIterations) {
    const DensitySchedule s = linear({{0, 1.0}, {3, 0.5}});
    const auto samples = schedule_samples({&s}, 3, 100);
    ASSERT_EQ(samples.size(), 3u);
    expect_covers(samples, 3);
}

TEST(ScheduleSamples, RejectsAnEmptyRunOrNoSamples) {
    EXPECT_THROW(schedule_samples({}, 0, 1), std::invalid_argument);
    EXPECT_THROW(schedule_samples({}, 10, 0), std::invalid_argument);
}

}  // namespace
}  // namespace trainloop
