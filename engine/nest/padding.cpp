#include "nest/padding.hpp"

#include <algorithm>

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

void remove_padding(const PhaseProblem& problem, NestAnalysis& out) {
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
}

}  // namespace trainloop
