#include "training_run/schedule_samples.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace trainloop {
namespace {

// Whether `schedule` holds one density over [begin, end), where no point of
// it lies strictly inside (the caller cut the run at every point).
bool constant_over(const DensitySchedule& schedule, std::int64_t begin, std::int64_t end) {
    if (schedule.interpolation == Interpolation::step) return true;
    // Linear between the points around the piece: constant when the ends agree.
    return density_at(schedule, begin) == density_at(schedule, end);
}

}  // namespace

std::vector<RunSample> schedule_samples(const std::vector<const DensitySchedule*>& schedules,
                                        std::int64_t iterations, std::int64_t samples) {
    if (iterations < 1) throw std::invalid_argument("schedule_samples: iterations < 1");
    if (samples < 1 || samples > kMaxRunSamples) {
        throw std::invalid_argument("schedule_samples: samples outside 1..kMaxRunSamples");
    }
    std::vector<std::int64_t> cuts = {0, iterations};
    for (const DensitySchedule* s : schedules) {
        for (const SchedulePoint& p : s->points) {
            if (p.iteration > 0 && p.iteration < iterations) cuts.push_back(p.iteration);
        }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

    struct Piece {
        std::int64_t begin, end;
        bool constant;
    };
    std::vector<Piece> pieces;
    std::int64_t varying = 0;  // iterations in pieces where some schedule ramps
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
        const std::int64_t b = cuts[i], e = cuts[i + 1];
        const bool constant =
            std::all_of(schedules.begin(), schedules.end(),
                        [&](const DensitySchedule* s) { return constant_over(*s, b, e); });
        pieces.push_back({b, e, constant});
        if (!constant) varying += e - b;
    }

    std::vector<RunSample> out;
    for (const Piece& piece : pieces) {
        if (piece.constant) {
            out.push_back({piece.begin, piece.begin, piece.end, true});
            continue;
        }
        const std::int64_t length = piece.end - piece.begin;
        const double share = double(samples) * double(length) / double(varying);
        const std::int64_t k = std::clamp<std::int64_t>(std::llround(share), 1, length);
        // ⌊length·j / k⌋ without forming length·j (it can pass 2^63).
        const auto cut = [&](std::int64_t j) {
            return piece.begin + (length / k) * j + (length % k) * j / k;
        };
        for (std::int64_t j = 0; j < k; ++j) {
            const std::int64_t lo = cut(j);
            const std::int64_t hi = cut(j + 1);
            out.push_back({lo + (hi - lo - 1) / 2, lo, hi, false});
        }
    }
    return out;
}

}  // namespace trainloop
