#include "nest/padding.hpp"

#include <algorithm>
#include <array>

#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

// count · num / den to the nearest word (num, den < 2^53: no overflow in
// 128 bits). The counts are per instance: the whole level's count is exactly
// E/B times the real one (see the header), but where the padded dimension is
// spread over the instances the real average per instance can be a fraction
// of a word.
std::int64_t scaled(std::int64_t count, std::int64_t num, std::int64_t den) {
    return std::int64_t((__int128(count) * num * 2 + den) / (2 * den));
}

// d's temporal loops with factor > 1, innermost first: each loop's factor
// and step (the extent of d inside it, spatial loops included).
struct StepLoops {
    struct TemporalLoop {
        std::int64_t factor;
        std::int64_t step;
    };
    std::array<TemporalLoop, kMaxLevels * kNumDims> loops{};
    std::size_t count = 0;
};

StepLoops temporal_loops_of(const Mapping& mapping, Dim d) {
    StepLoops out;
    std::int64_t inside = 1;
    for (std::size_t i = mapping.num_levels; i-- > 0;) {
        const LevelMapping& level = mapping.level(i);
        inside *= level.spatial_x.factor_of(d) * level.spatial_y.factor_of(d);
        for (std::size_t k = level.temporal.size(); k-- > 0;) {
            const Loop& l = level.temporal[k];
            if (l.dim != d || l.factor == 1) continue;
            out.loops[out.count++] = {l.factor, inside};
            inside *= l.factor;
        }
    }
    return out;
}

// How many index tuples of loops[0..=j] have offset Σ index × step < limit.
// A loop's step is at least the span of the loops inside it, so at most one
// of its indices is partly below the limit: O(Σ factors).
std::int64_t tuples_below(const StepLoops& s, std::ptrdiff_t j, std::int64_t limit) {
    if (limit <= 0) return 0;
    if (j < 0) return 1;
    std::int64_t all_inside = 1;   // tuples of the loops inside j
    std::int64_t span_inside = 0;  // their largest offset
    for (std::ptrdiff_t i = 0; i < j; ++i) {
        all_inside *= s.loops[std::size_t(i)].factor;
        span_inside += (s.loops[std::size_t(i)].factor - 1) * s.loops[std::size_t(i)].step;
    }
    const auto& loop = s.loops[std::size_t(j)];
    std::int64_t count = 0;
    for (std::int64_t t = 0; t < loop.factor; ++t) {
        const std::int64_t left = limit - t * loop.step;
        if (left <= 0) break;
        count += left > span_inside ? all_inside : tuples_below(s, j - 1, left);
    }
    return count;
}

// The steps of `d`'s temporal loops whose offset along d at spatial position
// 0 is below `bound` (those in which some PE has real work), and in `all`
// the product of their factors.
std::int64_t steps_with_real_work(const Mapping& mapping, Dim d, std::int64_t bound,
                                  std::int64_t& all) {
    const StepLoops s = temporal_loops_of(mapping, d);
    all = 1;
    for (std::size_t j = 0; j < s.count; ++j) all *= s.loops[j].factor;
    return tuples_below(s, std::ptrdiff_t(s.count) - 1, bound);
}

}  // namespace

DimSet window_dims(const ProblemShape& shape) {
    DimSet out;
    for (const Projection& projection : shape.projections) {
        for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
            const TensorAxis& axis = projection.axes[a];
            if (axis.num_terms < 2) continue;
            for (std::uint8_t t = 0; t < axis.num_terms; ++t) out.insert(axis.terms[t].dim);
        }
    }
    return out;
}

DimSet one_term_dims(const ProblemShape& shape) {
    const DimSet windows = window_dims(shape);
    DimSet out;
    for (Dim d : kAllDims) {
        if (shape.uses(d) && !windows.contains(d)) out.insert(d);
    }
    return out;
}

DimSet paddable_dims(const ProblemShape& shape, bool imperfect_factors, bool imperfect_windows) {
    if (!imperfect_factors) return {};
    return imperfect_windows ? one_term_dims(shape) | window_dims(shape) : one_term_dims(shape);
}

std::vector<std::pair<Dim, std::int64_t>> padded_extents(const IterationSpace& space,
                                                         const Mapping& mapping) {
    std::vector<std::pair<Dim, std::int64_t>> out;
    for (Dim d : kAllDims) {
        const std::int64_t extent = mapping.total_factor(d);
        if (extent > space.bounds[d]) out.emplace_back(d, extent);
    }
    return out;
}

void remove_padding(const PhaseProblem& problem, const Mapping& mapping, NestAnalysis& out) {
    const DimBounds& bounds = problem.space.bounds;
    const DimBounds padded = out.tile_box[0];
    bool any = false;
    for (Dim d : kAllDims) any = any || padded[d] > bounds[d];
    if (!any) return;
    for (std::size_t i = 0; i < out.num_levels; ++i) {
        for (Dim d : kAllDims) out.tile_box[i][d] = std::min(out.tile_box[i][d], bounds[d]);
    }
    for (DataSpace s : kAllDataSpaces) {
        const Projection& proj = problem.projection(s);
        bool indexed = false;
        for (Dim d : kAllDims) {
            // One padded dimension at a time: B/E per dimension that indexes s
            // through a one-term axis. A window axis it shares with another
            // dimension keeps the padded nest's counts (the header).
            if (padded[d] == bounds[d] || proj.axis_of[d] < 0) continue;
            indexed = true;
            if (proj.axes[std::size_t(proj.axis_of[d])].num_terms != 1) continue;
            for (std::size_t i = 0; i < out.num_levels; ++i) {
                SpaceAccesses& a = out.levels[i].spaces[s];
                for (std::int64_t* count : {&a.partition, &a.written, &a.reads, &a.fills,
                                            &a.updates, &a.drains, &a.child_side_words}) {
                    *count = scaled(*count, bounds[d], padded[d]);
                }
            }
        }
        // Only a padded dimension's tile extent was clipped.
        for (std::size_t i = 0; indexed && i < out.num_levels; ++i) {
            SpaceAccesses& a = out.levels[i].spaces[s];
            if (a.kept) a.tile = footprint(proj, out.tile_box[i]);
        }
    }
    out.macs = problem.macs();
    // Cycles: a remainder tile's (the steps wholly in the padding skipped).
    for (Dim d : kAllDims) {
        if (padded[d] == bounds[d]) continue;
        std::int64_t all = 1;
        const std::int64_t busy = steps_with_real_work(mapping, d, bounds[d], all);
        out.compute_cycles = out.compute_cycles / all * busy;
    }
}

}  // namespace trainloop
