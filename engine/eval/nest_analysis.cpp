#include "eval/nest_analysis.hpp"

#include <cassert>
#include <cstdlib>

#include "eval/projection.hpp"

namespace trainloop {
namespace {

constexpr std::size_t kMaxLoops = kMaxLevels * 3 * kNumDims;

struct FlatLoop {
    Dim dim = Dim::N;
    std::int64_t factor = 1;
    std::int64_t step = 1;  // how far one iteration moves along `dim`
    std::uint8_t level = 0;
    bool spatial = false;
};

// The mapping as one loop nest, outermost first: each level's temporal
// loops, then its spatial loops (which Timeloop places inside them).
struct FlatNest {
    std::array<FlatLoop, kMaxLoops> loops{};
    std::size_t size = 0;
    std::array<std::size_t, kMaxLevels + 1> level_begin{};
    // Extents of the tile of each level: Π of the factors at that level and
    // inside it, per dimension.
    std::array<DimBounds, kMaxLevels + 1> tile{};
};

FlatNest flatten(const Mapping& mapping) {
    FlatNest nest;
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        nest.level_begin[i] = nest.size;
        const LevelMapping& level = mapping.level(i);
        for (const Loop& l : level.temporal) {
            nest.loops[nest.size++] = {l.dim, l.factor, 1, std::uint8_t(i), false};
        }
        for (const LoopList* spatial : {&level.spatial_x, &level.spatial_y}) {
            for (const Loop& l : *spatial) {
                nest.loops[nest.size++] = {l.dim, l.factor, 1, std::uint8_t(i), true};
            }
        }
    }
    nest.level_begin[mapping.num_levels] = nest.size;
    DimBounds inside;
    for (Dim d : kAllDims) inside[d] = 1;
    nest.tile[mapping.num_levels] = inside;
    std::size_t k = nest.size;
    for (std::size_t i = mapping.num_levels; i-- > 0;) {
        while (k > nest.level_begin[i]) {
            FlatLoop& loop = nest.loops[--k];
            loop.step = inside[loop.dim];
            inside[loop.dim] *= loop.factor;
        }
        nest.tile[i] = inside;
    }
    return nest;
}

// Σ over the steps of the temporal loops in [0, end) of the words a box with
// extents `box` newly covers (see the header for the closed form).
std::int64_t delta_sum(const Projection& proj, const DimBounds& box, const FlatNest& nest,
                       std::size_t end) {
    const std::int64_t volume = footprint(proj, box);
    std::array<std::int64_t, kMaxLoops> overlap{};
    DimBounds wrap{};  // how far the loops inside j move back when they wrap
    for (std::size_t j = end; j-- > 0;) {
        const FlatLoop& loop = nest.loops[j];
        if (loop.spatial || loop.factor == 1) continue;
        std::int64_t common = 1;
        for (std::uint8_t a = 0; a < proj.num_axes && common > 0; ++a) {
            const TensorAxis& axis = proj.axes[a];
            std::int64_t span = 1;
            std::int64_t shift = 0;
            for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
                const AxisTerm& term = axis.terms[t];
                span += (box[term.dim] - 1) * term.coef;
                const std::int64_t moved = (term.dim == loop.dim ? loop.step : 0) - wrap[term.dim];
                shift += moved * term.coef;
            }
            const std::int64_t kept = span - std::llabs(shift);
            common *= kept > 0 ? kept : 0;
        }
        overlap[j] = common;
        wrap[loop.dim] += loop.step * (loop.factor - 1);
    }
    std::int64_t total = volume;
    std::int64_t iterations = 1;
    for (std::size_t j = 0; j < end; ++j) {
        const FlatLoop& loop = nest.loops[j];
        if (loop.spatial || loop.factor == 1) continue;
        total += iterations * (loop.factor - 1) * (volume - overlap[j]);
        iterations *= loop.factor;
    }
    return total;
}

// Product of the factors of the loops in [begin, end) that are spatial
// (or temporal), per dimension.
DimBounds factors_in(const FlatNest& nest, std::size_t begin, std::size_t end, bool spatial) {
    DimBounds f;
    for (Dim d : kAllDims) f[d] = 1;
    for (std::size_t k = begin; k < end; ++k) {
        if (nest.loops[k].spatial == spatial) f[nest.loops[k].dim] *= nest.loops[k].factor;
    }
    return f;
}

std::int64_t product(const DimBounds& f) {
    std::int64_t p = 1;
    for (Dim d : kAllDims) p *= f[d];
    return p;
}

DimBounds times(const DimBounds& a, const DimBounds& b) {
    DimBounds out;
    for (Dim d : kAllDims) out[d] = a[d] * b[d];
    return out;
}

}  // namespace

NestAnalysis analyze_nest(const PhaseProblem& problem, const Mapping& mapping) {
    assert(mapping.num_levels >= 1 && mapping.num_levels <= kMaxLevels);
    const FlatNest nest = flatten(mapping);
    const std::size_t num_levels = mapping.num_levels;
    NestAnalysis out;
    out.num_levels = num_levels;
    out.compute_cycles = product(factors_in(nest, 0, nest.size, false));
    out.utilized_macs = product(factors_in(nest, 0, nest.size, true));
    out.macs = out.compute_cycles * out.utilized_macs;
    for (std::size_t i = 0; i < num_levels; ++i) {
        out.levels[i].utilized_instances =
            product(factors_in(nest, 0, nest.level_begin[i], true));
    }

    for (DataSpace space : kAllDataSpaces) {
        const Projection proj = projection_for(space, problem.space);
        const bool is_output = space == problem.output();
        // Tiles, residencies, partitions.
        for (std::size_t i = 0; i < num_levels; ++i) {
            SpaceAccesses& acc = out.levels[i].spaces[std::size_t(space)];
            acc.kept = mapping.level(i).keep.contains(space);
            if (!acc.kept) continue;
            const std::size_t above = nest.level_begin[i];
            acc.tile = footprint(proj, nest.tile[i]);
            acc.partition =
                footprint(proj, times(nest.tile[i], factors_in(nest, 0, above, false)));
            const std::int64_t residencies = i == 0 ? 0 : delta_sum(proj, nest.tile[i], nest, above);
            if (is_output) {
                acc.drains = residencies;
                acc.fills = i == 0 ? 0 : residencies - acc.partition;
            } else {
                acc.fills = residencies;
            }
        }
        // Traffic from each keeper to the next inner keeper, or to the MACs.
        for (std::size_t i = 0; i < num_levels; ++i) {
            SpaceAccesses& acc = out.levels[i].spaces[std::size_t(space)];
            if (!acc.kept) continue;
            std::size_t c = i + 1;
            while (c < num_levels && !mapping.level(c).keep.contains(space)) ++c;
            std::int64_t transfers = 0;
            if (c < num_levels) {
                const SpaceAccesses& child = out.levels[c].spaces[std::size_t(space)];
                const DimBounds spread = factors_in(nest, nest.level_begin[i], nest.level_begin[c], true);
                transfers = delta_sum(proj, times(nest.tile[c], spread), nest, nest.level_begin[c]);
                acc.child = int(c);
                acc.child_side_words = product(spread) * (is_output ? child.drains : child.fills);
            } else {
                // The MACs hold nothing: every MAC reads (or updates) its operand.
                const DimBounds spread = factors_in(nest, nest.level_begin[i], nest.size, true);
                transfers = out.compute_cycles * footprint(proj, spread);
                acc.child = -1;
                acc.child_side_words = out.compute_cycles * product(spread);
            }
            if (is_output) {
                acc.updates = transfers;
                acc.reads = transfers - acc.partition;
            } else {
                acc.reads = transfers;
            }
        }
    }
    return out;
}

}  // namespace trainloop
