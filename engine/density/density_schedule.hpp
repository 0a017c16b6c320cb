// DensitySchedule: a tensor's density as a function of the training
// iteration, given by (iteration, density) points.
//
// Contract: `points` is non-empty, its iterations are >= 0 and strictly
// increasing, its densities in [0, 1] (the parser guarantees this). Before
// the first point the density is the first point's, after the last point the
// last point's; in between it is interpolated linearly, or held from the
// previous point (`step`). A constant density is a one-point schedule.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace trainloop {

// "The end of training": the steady-state density, after every schedule.
inline constexpr std::int64_t kFinalIteration = std::numeric_limits<std::int64_t>::max();

enum class Interpolation : std::uint8_t { linear, step };

constexpr std::string_view interpolation_name(Interpolation i) {
    return i == Interpolation::linear ? "linear" : "step";
}
constexpr std::optional<Interpolation> interpolation_from_name(std::string_view name) {
    if (name == "linear") return Interpolation::linear;
    if (name == "step") return Interpolation::step;
    return std::nullopt;
}

struct SchedulePoint {
    std::int64_t iteration = 0;
    double density = 1.0;
    friend bool operator==(const SchedulePoint&, const SchedulePoint&) = default;
};

struct DensitySchedule {
    Interpolation interpolation = Interpolation::linear;
    std::vector<SchedulePoint> points;
    friend bool operator==(const DensitySchedule&, const DensitySchedule&) = default;
};

DensitySchedule constant_schedule(double density);

// The density at `iteration` (pure).
double density_at(const DensitySchedule& schedule, std::int64_t iteration);

// Whether the density never changes over training.
bool is_constant(const DensitySchedule& schedule);

}  // namespace trainloop
