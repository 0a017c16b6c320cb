#include "nest/nest_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <numeric>

#include "common/spec_error.hpp"
#include "nest/padding.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

constexpr std::size_t kMaxLoops = kMaxLevels * kNumDims;

// A temporal loop with factor > 1: the only loops that step tiles.
// No default member initializers: arrays of it are scratch, written before read.
struct StepLoop {
    Dim dim;
    std::int64_t factor;
    std::int64_t step;        // how far one iteration moves along `dim`
    std::int64_t iterations;  // iterations of all the step loops outside it
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

// The words a box newly covers, summed over every step of the first
// `count` step loops (see the header for the closed form): a level's fills
// (for the output, its residencies); and whether a step of a loop with other
// step loops inside it moves the box (or brings it back after the inner
// loops moved it) and still keeps some of its words: a sliding window that
// resumes after the inner loops ran, which timeloop-model counts otherwise
// (docs/nest_analysis.md).
struct DeltaSum {
    std::int64_t words = 0;
    bool reuse_after_inner_loops = false;
};

// Overflow is recorded, not undefined: the caller turns it into an error.
// (The inputs are bounded by 2^53, but access counts are products of tiles
// and iterations and can exceed int64 in degenerate mappings.)
struct Overflow {
    bool seen = false;
    std::int64_t mul(std::int64_t a, std::int64_t b) {
        std::int64_t out = 0;
        seen |= __builtin_mul_overflow(a, b, &out);
        return out;
    }
    std::int64_t add(std::int64_t a, std::int64_t b) {
        std::int64_t out = 0;
        seen |= __builtin_add_overflow(a, b, &out);
        return out;
    }
};

DeltaSum delta_sum(const Projection& proj, const DimBounds& box, const FlatNest& nest,
                   std::size_t count, Overflow& overflow) {
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
    DeltaSum out{volume, false};
    // How far the loops inside j move the box back along each axis when they
    // wrap; and how far they move it in their first step (where Timeloop,
    // which evaluates a loop's first two iterations and extrapolates, takes
    // the box to be before j steps).
    std::array<std::int64_t, 5> wrap{};
    std::array<std::int64_t, 5> first_step{};
    bool wrapped = false;
    for (std::size_t j = count; j-- > 0;) {
        const StepLoop& loop = nest.steps[j];
        const int moved_axis = proj.axis_of[loop.dim];
        // A loop that indexes nothing of the tensor, with nothing inside it
        // that moved the tile: the tile stays (temporal reuse).
        if (moved_axis < 0 && !wrapped) continue;
        const std::int64_t advance = moved_axis < 0 ? 0 : proj.coef_of[loop.dim] * loop.step;
        std::int64_t common = 1;
        std::int64_t common_after_first_step = 1;
        for (std::uint8_t x = 0; x < proj.num_axes; ++x) {
            const std::int64_t moved = x == moved_axis ? advance : 0;
            const std::int64_t kept = span[x] - std::llabs(moved - wrap[x]);
            const std::int64_t kept_first = span[x] - std::llabs(moved - first_step[x]);
            common *= kept > 0 ? kept : 0;
            common_after_first_step *= kept_first > 0 ? kept_first : 0;
        }
        const std::int64_t steps = overflow.mul(loop.iterations, loop.factor - 1);
        out.words = overflow.add(out.words, overflow.mul(steps, volume - common));
        // A moving tile that keeps words across a step of an outer loop.
        if (j + 1 < count && (common > 0 || common_after_first_step > 0)) {
            out.reuse_after_inner_loops = true;
        }
        if (moved_axis >= 0) {
            wrap[std::size_t(moved_axis)] += advance * (loop.factor - 1);
            first_step[std::size_t(moved_axis)] += advance;
            wrapped = true;
        }
    }
    return out;
}

// The distinct positions at which the spatial loops of one level (factors
// `spread`, each stepping by the extent `inner` of what lies inside it) place
// copies of a tile of the data space. Copies at one position hold the same
// words and receive them by one multicast read; copies at different positions
// receive their own words, even where two of them overlap (Timeloop's rule:
// a parent serves each distinct delta once, and only identical deltas share a
// read). Per tensor axis: a one-term axis has as many positions as its
// dimension's factor; a sliding-window axis with both terms spread (offsets
// A·x + B·y, x < f0, y < f1) has f0·f1 − (f0 − B')⁺·(f1 − A')⁺, with A', B' the
// steps over their gcd (the pairs that coincide form chains
// (x, y) → (x + B', y − A')).
std::int64_t distinct_positions(const Projection& proj, const DimBounds& spread,
                                const DimBounds& inner) {
    std::int64_t positions = 1;
    for (std::uint8_t a = 0; a < proj.num_axes; ++a) {
        const TensorAxis& axis = proj.axes[a];
        const Dim d0 = axis.terms[0].dim;
        const std::int64_t f0 = spread[d0];
        if (axis.num_terms == 1) {
            positions *= f0;
            continue;
        }
        const Dim d1 = axis.terms[1].dim;
        const std::int64_t f1 = spread[d1];
        if (f0 == 1 || f1 == 1) {
            positions *= f0 * f1;
            continue;
        }
        const std::int64_t step0 = axis.terms[0].coef * inner[d0];
        const std::int64_t step1 = axis.terms[1].coef * inner[d1];
        const std::int64_t g = std::gcd(step0, step1);
        const std::int64_t chained0 = std::max<std::int64_t>(0, f0 - step1 / g);
        const std::int64_t chained1 = std::max<std::int64_t>(0, f1 - step0 / g);
        positions *= f0 * f1 - chained0 * chained1;
    }
    return positions;
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

void analyze_nest(const PhaseProblem& problem, const Mapping& mapping, NestAnalysis& out) {
    assert(mapping.num_levels >= 1 && mapping.num_levels <= kMaxLevels);
    const FlatNest nest = flatten(mapping);
    const std::size_t num_levels = mapping.num_levels;
    out.num_levels = num_levels;
    // Π of the temporal (spatial) factors above each level, per dimension.
    std::array<DimBounds, kMaxLevels + 1> temporal_above;
    temporal_above[0] = ones();
    std::int64_t instances = 1;
    for (std::size_t i = 0; i < num_levels; ++i) {
        temporal_above[i + 1] = times(temporal_above[i], nest.temporal[i]);
        out.levels[i].utilized_instances = instances;
        out.tile_box[i] = nest.tile[i];
        instances *= product(nest.spatial[i]);
    }
    out.compute_cycles = product(temporal_above[num_levels]);
    out.utilized_macs = instances;
    out.macs = out.compute_cycles * out.utilized_macs;
    Overflow overflow;

    for (DataSpace space : kAllDataSpaces) {
        const Projection& proj = problem.projection(space);
        const bool is_output = space == problem.output();
        // Walk the keepers from the outside in; `parent` is the last keeper seen.
        std::size_t parent = 0;
        for (std::size_t i = 0; i <= num_levels; ++i) {
            const bool at_macs = i == num_levels;
            if (!at_macs) {
                out.levels[i].spaces[space] = SpaceAccesses{};
                if (!mapping.level(i).keep.contains(space)) continue;
            }
            // The spread of level `parent`'s tile over the instances of this
            // keeper, and the distinct positions of those instances' tiles.
            DimBounds fanout = nest.spatial[parent];
            std::int64_t positions =
                distinct_positions(proj, nest.spatial[parent], nest.tile[parent + 1]);
            for (std::size_t l = parent + 1; l < i; ++l) {
                fanout = times(fanout, nest.spatial[l]);
                positions *= distinct_positions(proj, nest.spatial[l], nest.tile[l + 1]);
            }
            std::int64_t child_words = 0;  // per child instance: fills (or drains)
            if (at_macs) {
                // The MACs hold nothing: every MAC reads (or updates) its operand.
                child_words = out.compute_cycles;
            } else {
                SpaceAccesses& acc = out.levels[i].spaces[space];
                acc.kept = true;
                acc.tile = footprint(proj, nest.tile[i]);
                acc.partition = footprint(proj, nest.tile[i], temporal_above[i]);
                if (is_output) acc.written = touched_words(proj, nest.tile[i], temporal_above[i]);
                if (i > 0) {
                    const DeltaSum delta =
                        delta_sum(proj, nest.tile[i], nest, nest.steps_above[i], overflow);
                    const std::int64_t residencies = delta.words;
                    acc.reuse_after_inner_loops = delta.reuse_after_inner_loops;
                    if (is_output) {
                        acc.drains = residencies;
                        acc.fills = residencies - acc.written;
                        child_words = acc.drains;
                    } else {
                        acc.fills = residencies;
                        child_words = acc.fills;
                    }
                }
            }
            // The parent reads (is updated with) each distinct position's words once.
            const std::int64_t transfers = overflow.mul(child_words, positions);
            if (i > 0) {
                SpaceAccesses& up = out.levels[parent].spaces[space];
                up.child = at_macs ? -1 : int(i);
                up.child_side_words = overflow.mul(product(fanout), child_words);
                if (is_output) {
                    up.updates = transfers;
                    up.reads = transfers - up.written;
                } else {
                    up.reads = transfers;
                }
            }
            parent = i;
        }
    }
    // Imperfect factors: from the padded nest's counts to the real problem's.
    remove_padding(problem, mapping, out);
    if (overflow.seen) {
        throw SpecError(
            {}, "",
            fmt::format("the access counts of layer `{}` ({}) under this mapping exceed "
                        "the 64-bit range",
                        problem.layer, phase_name(problem.phase)),
            "a mapping whose access counts are representable",
            "check the layer's stride and dilation against its size");
    }
}

NestAnalysis analyze_nest(const PhaseProblem& problem, const Mapping& mapping) {
    NestAnalysis out;
    analyze_nest(problem, mapping, out);
    return out;
}

}  // namespace trainloop
