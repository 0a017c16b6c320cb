#include "density/density_schedule.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

namespace trainloop {

DensitySchedule constant_schedule(double density) {
    return {Interpolation::linear, {{0, density}}};
}

double density_at(const DensitySchedule& schedule, std::int64_t iteration) {
    const auto& pts = schedule.points;
    if (pts.empty()) throw std::invalid_argument("density_at: a schedule needs at least one point");
    if (iteration <= pts.front().iteration) return pts.front().density;
    if (iteration >= pts.back().iteration) return pts.back().density;
    // First point after `iteration`; its predecessor is at or before it.
    const auto next =
        std::upper_bound(pts.begin(), pts.end(), iteration,
                         [](std::int64_t it, const SchedulePoint& p) { return it < p.iteration; });
    assert(next != pts.begin() && next != pts.end());
    const SchedulePoint& a = *(next - 1);
    const SchedulePoint& b = *next;
    if (schedule.interpolation == Interpolation::step) return a.density;
    const double t = static_cast<double>(iteration - a.iteration) /
                     static_cast<double>(b.iteration - a.iteration);
    return a.density + (b.density - a.density) * t;
}

bool is_constant(const DensitySchedule& schedule) {
    return std::all_of(schedule.points.begin(), schedule.points.end(), [&](const SchedulePoint& p) {
        return p.density == schedule.points.front().density;
    });
}

}  // namespace trainloop
