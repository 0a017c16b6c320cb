#include "eval/nest_analysis.hpp"

#include <cassert>
#include <cstdlib>

#include "eval/projection.hpp"

namespace trainloop {
namespace {

constexpr std::size_t kMaxLoops = kMaxLevels * kNumDims;

// A temporal loop with factor > 1: the only loops that step tiles.
struct StepLoop {
    Dim dim = Dim::N;
    std::int64_t factor = 1;
    std::int64_t step = 1;        // how far one iteration moves along `dim`
    std::int64_t iterations = 1;  // iterations of all the step loops outside it
};

// The mapping as one loop nest, outermost first (each level's temporal loops,
// then its spatial loops, which Timeloop places inside them), reduced to
// what the analysis reads. Scratch arrays are left uninitialized on purpose:
// only the entries below the counts are ever read.
struct FlatNest {
    std::array<StepLoop, kMaxLoops> steps;
    std::size_t num_steps = 0;
    // Step loops above each level: steps[0 .. steps_above[i]).
    std::array<std::size_t, kMaxLevels + 1> steps_above;
    // Per level and dimension: the level's tile extent (Π of the factors at the
    // level and inside it), and the products of its temporal / spatial factors.
    std::array<DimBounds, kMaxLevels + 1> tile;
    std::array<DimBounds, kMaxLevels> temporal;
    std::array<DimBounds, kMaxLevels> spatial;
};

DimBounds ones() {
    DimBounds b;
    b.values.fill(1);
    return b;
}

FlatNest flatten(const Mapping& mapping) {
    FlatNest nest;
    const std::size_t levels = mapping.num_levels;
    for (std::size_t i = 0; i < levels; ++i) {
        const LevelMapping& level = mapping.level(i);
        nest.temporal[i] = ones();
        nest.spatial[i] = ones();
        for (const Loop& l : level.temporal) nest.temporal[i][l.dim] *= l.factor;
        for (const Loop& l : level.spatial_x) nest.spatial[i][l.dim] *= l.factor;
        for (const Loop& l : level.spatial_y) nest.spatial[i][l.dim] *= l.factor;
    }
    nest.tile[levels] = ones();
    for (std::size_t i = levels; i-- > 0;) {
        for (Dim d : kAllDims) {
            nest.tile[i][d] = nest.tile[i + 1][d] * nest.temporal[i][d] * nest.spatial[i][d];
        }
    }
    // Steps: a loop's step is the extent of its dimension inside it: the
    // level's spatial factor, the temporal loops after it at its level, and
    // the tile of the next level.
    std::int64_t iterations = 1;
    for (std::size_t i = 0; i < levels; ++i) {
        nest.steps_above[i] = nest.num_steps;
        const LoopList& loops = mapping.level(i).temporal;
        for (std::size_t k = 0; k < loops.size(); ++k) {
            const Loop& l = loops[k];
            if (l.factor == 1) continue;
            std::int64_t step = nest.tile[i + 1][l.dim] * nest.spatial[i][l.dim];
            for (std::size_t after = k + 1; after < loops.size(); ++after) {
                if (loops[after].dim == l.dim) step *= loops[after].factor;
            }
            nest.steps[nest.num_steps++] = {l.dim, l.factor, step, iterations};
            iterations *= l.factor;
        }
    }
    nest.steps_above[levels] = nest.num_steps;
    return nest;
}

// Σ over the steps of the first `count` step loops of the words a box with
// extents `box` newly covers (see the header for the closed form).
std::int64_t delta_sum(const Projection& proj, const DimBounds& box, const FlatNest& nest,
                       std::size_t count) {
    std::array<std::int64_t, 5> span;
    std::int64_t volume = 1;
    for (std::uint8_t a = 0; a < proj.num_axes; ++a) {
        const TensorAxis& axis = proj.axes[a];
        span[a] = 1;
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            span[a] += (box[axis.terms[t].dim] - 1) * axis.terms[t].coef;
        }
        volume *= span[a];
    }
    std::int64_t total = volume;
    DimBounds wrap{};  // how far the loops inside j move back when they wrap
    for (std::size_t j = count; j-- > 0;) {
        const StepLoop& loop = nest.steps[j];
        std::int64_t common = 1;
        for (std::uint8_t a = 0; a < proj.num_axes && common > 0; ++a) {
            const TensorAxis& axis = proj.axes[a];
            std::int64_t shift = 0;
            for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
                const AxisTerm& term = axis.terms[t];
                shift += ((term.dim == loop.dim ? loop.step : 0) - wrap[term.dim]) * term.coef;
            }
            const std::int64_t kept = span[a] - std::llabs(shift);
            common *= kept > 0 ? kept : 0;
        }
        total += loop.iterations * (loop.factor - 1) * (volume - common);
        wrap[loop.dim] += loop.step * (loop.factor - 1);
    }
    return total;
}

std::int64_t product(const DimBounds& f) {
    std::int64_t p = 1;
    for (std::int64_t v : f.values) p *= v;
    return p;
}

DimBounds times(const DimBounds& a, const DimBounds& b) {
    DimBounds out;
    for (std::size_t d = 0; d < kNumDims; ++d) out.values[d] = a.values[d] * b.values[d];
    return out;
}

}  // namespace

NestAnalysis analyze_nest(const PhaseProblem& problem, const Mapping& mapping) {
    assert(mapping.num_levels >= 1 && mapping.num_levels <= kMaxLevels);
    const FlatNest nest = flatten(mapping);
    const std::size_t num_levels = mapping.num_levels;
    NestAnalysis out;
    out.num_levels = num_levels;
    // Π of the temporal (spatial) factors above each level, per dimension.
    std::array<DimBounds, kMaxLevels + 1> temporal_above;
    std::array<DimBounds, kMaxLevels + 1> spatial_above;
    temporal_above[0] = ones();
    spatial_above[0] = ones();
    for (std::size_t i = 0; i < num_levels; ++i) {
        temporal_above[i + 1] = times(temporal_above[i], nest.temporal[i]);
        spatial_above[i + 1] = times(spatial_above[i], nest.spatial[i]);
        out.levels[i].utilized_instances = product(spatial_above[i]);
    }
    out.compute_cycles = product(temporal_above[num_levels]);
    out.utilized_macs = product(spatial_above[num_levels]);
    out.macs = out.compute_cycles * out.utilized_macs;
    // The spatial spread between level i and a deeper level c, per dimension.
    auto spread = [&](std::size_t i, std::size_t c) {
        DimBounds f = ones();
        for (std::size_t l = i; l < c; ++l) f = times(f, nest.spatial[l]);
        return f;
    };

    for (DataSpace space : kAllDataSpaces) {
        const std::size_t si = std::size_t(space);
        const Projection proj = projection_for(space, problem.space);
        const bool is_output = space == problem.output();
        // Tiles, residencies, partitions.
        for (std::size_t i = 0; i < num_levels; ++i) {
            SpaceAccesses& acc = out.levels[i].spaces[si];
            acc.kept = mapping.level(i).keep.contains(space);
            if (!acc.kept) continue;
            acc.tile = footprint(proj, nest.tile[i]);
            acc.partition = footprint(proj, times(nest.tile[i], temporal_above[i]));
            const std::int64_t residencies =
                i == 0 ? 0 : delta_sum(proj, nest.tile[i], nest, nest.steps_above[i]);
            if (is_output) {
                acc.drains = residencies;
                acc.fills = i == 0 ? 0 : residencies - acc.partition;
            } else {
                acc.fills = residencies;
            }
        }
        // Traffic from each keeper to the next inner keeper, or to the MACs.
        for (std::size_t i = 0; i < num_levels; ++i) {
            SpaceAccesses& acc = out.levels[i].spaces[si];
            if (!acc.kept) continue;
            std::size_t c = i + 1;
            while (c < num_levels && !mapping.level(c).keep.contains(space)) ++c;
            const DimBounds fanout = spread(i, c);
            std::int64_t transfers = 0;
            if (c < num_levels) {
                const SpaceAccesses& child = out.levels[c].spaces[si];
                transfers = delta_sum(proj, times(nest.tile[c], fanout), nest, nest.steps_above[c]);
                acc.child = int(c);
                acc.child_side_words = product(fanout) * (is_output ? child.drains : child.fills);
            } else {
                // The MACs hold nothing: every MAC reads (or updates) its operand.
                transfers = out.compute_cycles * footprint(proj, fanout);
                acc.child = -1;
                acc.child_side_words = out.compute_cycles * product(fanout);
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
