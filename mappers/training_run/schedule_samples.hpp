// Sampling density schedules over a training run: which iterations to read
// a sparsity profile at, and how many iterations each reading stands for,
// so that Σ weight × (cost of one iteration at the sample) is the cost of
// the run.
//
// The run [0, iterations) is cut at every schedule point inside it. On a
// piece where every schedule is constant (a step schedule between its
// points, a linear one before its first point, after its last, or between
// two points of equal density) one sample at the piece's first iteration,
// weighted by the piece's length, is exact. The pieces where some linear
// schedule ramps share `samples` sub-intervals in proportion to their
// length (at least one each, at most one per iteration), each read at its
// middle iteration: the midpoint rule.
//
// Contract: pure. iterations >= 1 and 1 <= samples <= kMaxRunSamples
// (std::invalid_argument otherwise; the CLI and sweep files check them first). The samples cover
// [0, iterations) exactly once, in order.
#pragma once

#include <cstdint>
#include <vector>

#include "density/density_schedule.hpp"

namespace trainloop {

// The most samples a run may ask for: each can be a distinct state to map,
// and a million already means hours of search.
inline constexpr std::int64_t kMaxRunSamples = 1'000'000;

struct RunSample {
    std::int64_t iteration = 0;  // where the schedules are read
    std::int64_t begin = 0;      // the iterations [begin, end) it stands for
    std::int64_t end = 0;
    bool exact = true;  // every schedule is constant over [begin, end)

    std::int64_t weight() const { return end - begin; }
    friend bool operator==(const RunSample&, const RunSample&) = default;
};

std::vector<RunSample> schedule_samples(const std::vector<const DensitySchedule*>& schedules,
                                        std::int64_t iterations, std::int64_t samples);

}  // namespace trainloop
