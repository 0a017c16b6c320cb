#include "timeloop/timeloop_differences.hpp"

namespace trainloop {

bool Differences::excludes(Quantity q, std::size_t level, DataSpace space) const {
    for (const Difference& d : items) {
        if (d.quantity != q) continue;
        if (q == Quantity::cycles) return true;
        if (d.level != level) continue;
        if (q == Quantity::energy || d.space == space) return true;
    }
    return false;
}

namespace {

constexpr const char* kSlidingWindowRule =
    "sliding-window reuse after inner loops: timeloop-model refetches the whole tile where a "
    "loop with other loops inside it moves a tile that partly overlaps its last position";

// The level that serves `level`'s data space `space` (the next outer keeper).
int parent_of(const NestAnalysis& nest, std::size_t level, DataSpace space) {
    for (std::size_t p = level; p-- > 0;) {
        if (nest.levels[p].space(space).kept) return int(p);
    }
    return -1;
}

}  // namespace

Differences timeloop_differences(const NestAnalysis& nest, const ArchModel& arch) {
    Differences out;
    bool bandwidth_bound_level_differs = false;
    auto add = [&](Quantity q, std::size_t level, DataSpace s, const char* rule) {
        out.items.push_back({q, level, s, rule});
        out.items.push_back({Quantity::energy, level, s, rule});
        const LevelModel& l = arch.levels[level];
        if (l.read_bandwidth > 0 || l.write_bandwidth > 0 || l.shared_bandwidth > 0)
            bandwidth_bound_level_differs = true;
    };
    for (std::size_t i = 0; i < nest.num_levels; ++i) {
        for (DataSpace s : kAllDataSpaces) {
            const SpaceAccesses& acc = nest.levels[i].space(s);
            if (!acc.kept || !acc.reuse_after_inner_loops) continue;
            // The level's own fills (for an output: its fills and what it
            // drains into its parent), and what its parent reads to serve it.
            add(Quantity::fills, i, s, kSlidingWindowRule);
            const int parent = parent_of(nest, i, s);
            if (parent >= 0) {
                add(Quantity::reads, std::size_t(parent), s, kSlidingWindowRule);
                add(Quantity::updates, std::size_t(parent), s, kSlidingWindowRule);
            }
        }
    }
    if (bandwidth_bound_level_differs) {
        out.items.push_back({Quantity::cycles, 0, DataSpace::weights,
                             "cycles of a bandwidth-bound level whose counts differ"});
    }
    return out;
}

}  // namespace trainloop
