#include "nest/padding.hpp"

#include <algorithm>
#include <array>

#include "problem/projection.hpp"

namespace trainloop {
namespace {

// count · num / den to the nearest word (num, den < 2^53: no overflow in
// 128 bits). The counts are per instance: the
// whole level's count is exactly E/B times the real one (see the header),
// but where the padded dimension is spread over the instances the real
// average per instance can be a fraction of a word.
std::int64_t scaled(std::int64_t count, std::int64_t num, std::int64_t den) {
    return std::int64_t((__int128(count) * num * 2 + den) / (2 * den));
}

// The steps of `d`'s temporal loops (in nest order, outermost first) whose
// offset along d — Σ index × the extent of d inside the loop — is below
// `bound`: those in which the PE at spatial position 0 has real work.
// Also Π of the loops' factors, in `all`.
std::int64_t steps_with_real_work(const Mapping& mapping, Dim d, std::int64_t bound,
                                  std::int64_t& all) {
    struct TemporalLoop {
        std::int64_t factor;
        std::int64_t step;
    };
    std::array<TemporalLoop, kMaxLevels * kNumDims> loops{};
    std::size_t count = 0;
    std::int64_t inside = 1;  // the extent of d inside the loop being visited
    for (std::size_t i = mapping.num_levels; i-- > 0;) {
        const LevelMapping& level = mapping.level(i);
        inside *= level.spatial_x.factor_of(d) * level.spatial_y.factor_of(d);
        for (std::size_t k = level.temporal.size(); k-- > 0;) {
            const Loop& l = level.temporal[k];
            if (l.dim != d || l.factor == 1) continue;
            loops[count++] = {l.factor, inside};
            inside *= l.factor;
        }
    }
    all = 1;
    for (std::size_t j = 0; j < count; ++j) all *= loops[j].factor;
    // Loops were collected innermost first; count offsets below bound.
    std::int64_t busy = 0;
    std::array<std::int64_t, kMaxLevels * kNumDims> index{};
    for (std::int64_t n = 0; n < all; ++n) {
        std::int64_t offset = 0;
        for (std::size_t j = 0; j < count; ++j) offset += index[j] * loops[j].step;
        busy += offset < bound ? 1 : 0;
        for (std::size_t j = 0; j < count && ++index[j] == loops[j].factor; ++j) index[j] = 0;
    }
    return busy;
}

}  // namespace

DimSet paddable_dims(const IterationSpace& space) {
    DimSet out;
    for (Dim d : kAllDims) {
        bool one_term_everywhere = true;
        for (DataSpace s : kAllDataSpaces) {
            const Projection proj = projection_for(s, space);
            const int axis = proj.axis_of[d];
            if (axis >= 0 && proj.axes[std::size_t(axis)].num_terms != 1) {
                one_term_everywhere = false;
            }
        }
        if (one_term_everywhere) out.insert(d);
    }
    return out;
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
        for (Dim d : kAllDims) {
            // One padded dimension at a time: B/E per dimension that indexes s.
            if (padded[d] == bounds[d] || proj.axis_of[d] < 0) continue;
            for (std::size_t i = 0; i < out.num_levels; ++i) {
                SpaceAccesses& a = out.levels[i].spaces[s];
                for (std::int64_t* count : {&a.partition, &a.written, &a.reads, &a.fills,
                                            &a.updates, &a.drains, &a.child_side_words}) {
                    *count = scaled(*count, bounds[d], padded[d]);
                }
            }
        }
        for (std::size_t i = 0; i < out.num_levels; ++i) {
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
