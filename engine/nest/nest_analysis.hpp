// Nest analysis: from (problem, mapping) to the words each storage level
// holds and moves, per instance, for each data space. Pure and
// allocation-free: the mapper runs it millions of times.
//
// The model (docs/nest_analysis.md; Timeloop's conventions, checked against
// tests/golden/timeloop/conv3x_fixed):
// - A level's tile spans every loop at that level and inside it (its own
//   temporal and spatial loops included); the input tile includes the
//   sliding-window halo (projection.hpp).
// - Fills: the temporal loops above a level step its tile through the
//   tensor; each step fetches the words of the new tile that the previous
//   tile did not hold (Timeloop's delta rule). So a tile stays resident
//   across loops that do not index it, and a sliding window refetches only
//   its new columns. Stepping loop j while every inner loop wraps moves the
//   tile by a fixed offset, so the sum over all steps is closed-form:
//     fills = V + Σ_j (Π_{i<j} F_i)·(F_j − 1)·(V − overlap_j).
// - Reads serving a child (the next inner level keeping the space): the
//   child's delta sum times the number of distinct positions the spatial
//   loops in between give the child tiles. Children at one position need the
//   same words and share one read (multicast); children at different
//   positions get their own, even where their tiles overlap (Timeloop's rule:
//   only identical deltas share a read; sharing a partial overlap would need
//   data to pass between the children). Reads serving the MACs: one per MAC
//   operand per distinct position.
// - The output (the phase's reduced-into space): each update from a child
//   (after spatial reduction) or from the MACs is a read-modify-write, except
//   the first write of each word some MAC under the instance updates:
//   reads = updates − written (written = partition unless the output's window
//   has holes; the box's hole words are never a first write). A tile that
//   returns after eviction is filled from the parent (fills = residencies −
//   written: a word's first residency needs no fill; the hole words of a
//   box, which no MAC writes, are filled like returning words) and every
//   residency is written back (drains).
#pragma once

#include <array>
#include <cstdint>

#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

// One data space at one level, per instance of the level.
struct SpaceAccesses {
    bool kept = false;
    std::int64_t tile = 0;       // words held at once (utilized capacity)
    std::int64_t partition = 0;  // distinct words the instance holds over the whole run
    // Output only: the partition's words some MAC updates (fewer than the
    // partition where a strided window leaves holes, as dx does in the bw
    // phase of a 1×1 stride-2 layer). Their first update is a plain write.
    std::int64_t written = 0;
    std::int64_t reads = 0;    // words read: serving the child / MACs, or RMW of partial sums
    std::int64_t fills = 0;    // words written in from the parent
    std::int64_t updates = 0;  // output only: partial sums written in from the child / MACs
    std::int64_t drains = 0;   // output only: words written back to the parent
    // The level the data goes to next: an inner level index, or -1 for the MACs.
    int child = -1;
    // Words that arrive at (or, for the output, leave) all the child
    // instances under one instance of this level. Compared with `reads`
    // (`updates` for the output) it gives the multicast (spatial reduction).
    std::int64_t child_side_words = 0;
    // A step of a loop with other (factor > 1) loops between it and this
    // level moved the tile and still kept some of its words: sliding-window
    // reuse that timeloop-model counts otherwise (docs/nest_analysis.md).
    bool reuse_after_inner_loops = false;
};

struct LevelAccesses {
    std::int64_t utilized_instances = 1;
    PerDataSpace<SpaceAccesses> spaces{};
    const SpaceAccesses& space(DataSpace s) const { return spaces[s]; }
};

struct NestAnalysis {
    std::array<LevelAccesses, kMaxLevels> levels{};
    // Per level: the extent of its tile along each dimension (Π of the factors
    // at the level and inside it, at most the bound); tile_of(projection, box)
    // gives its tensor tile.
    std::array<DimBounds, kMaxLevels> tile_box{};
    std::size_t num_levels = 0;
    std::int64_t macs = 0;            // the problem's (Π of every factor, unless padded)
    std::int64_t compute_cycles = 0;  // Π of the temporal factors
    std::int64_t utilized_macs = 0;   // Π of the spatial factors
};

// Preconditions: the mapping has as many levels as the analysis expects,
// level 0 keeps every data space, all factors are positive, and each
// dimension's factors multiply to its bound or, for a dimension
// one_term_dims holds, to a padded extent in [bound, 2·bound) (see
// mapping_check.hpp and padding.hpp). Capacity is not checked here.
NestAnalysis analyze_nest(const PhaseProblem& problem, const Mapping& mapping);
// The same, written into `out` (the evaluator's hot path avoids a copy).
void analyze_nest(const PhaseProblem& problem, const Mapping& mapping, NestAnalysis& out);

}  // namespace trainloop
