#include "sparse/fibertree.hpp"

#include <algorithm>
#include <cassert>

#include "sparse/format_layout.hpp"
#include "sparse/tile_occupancy.hpp"
#include "vocabulary/dims.hpp"
#include "vocabulary/limits.hpp"

namespace trainloop {
namespace {

// Every loop list of a mapping: a level's temporal, X and Y loops.
inline constexpr std::size_t kMaxTileLoops = kMaxLevels * 3 * kNumDims;

struct TileLoops {
    std::array<Loop, kMaxTileLoops> loops{};
    std::size_t count = 0;
};

// The loops of `level`'s tile that index the data space with a factor above
// 1, outermost first.
TileLoops rank_loops(const Projection& projection, const Mapping& mapping, std::size_t level) {
    TileLoops out;
    const auto add = [&](const LoopList& list) {
        for (const Loop& loop : list) {
            if (loop.factor > 1 && projection.relevant.contains(loop.dim))
                out.loops[out.count++] = loop;
        }
    };
    for (std::size_t j = level; j < mapping.num_levels; ++j) {
        add(mapping.levels[j].temporal);
        add(mapping.levels[j].spatial_x);
        add(mapping.levels[j].spatial_y);
    }
    return out;
}

// The tile of loops [first, last), each dimension's extent clipped at its bound.
TensorTile tile_of_loops(const Projection& projection, const DimBounds& bounds,
                         const TileLoops& loops, std::size_t first, std::size_t last) {
    DimBounds box;
    box.values.fill(1);
    for (std::size_t i = first; i < last; ++i) box[loops.loops[i].dim] *= loops.loops[i].factor;
    for (Dim d : kAllDims) box[d] = std::min(box[d], bounds[d]);
    return tile_of(projection, box);
}

// How many tiles like `below` the tile `above` is cut into along its axes.
// Where two loops index one axis (a sliding window), a loop's own footprint
// would count the elements its overlapping windows share once per window.
std::int64_t blocks_of(const TensorTile& above, const TensorTile& below) {
    std::int64_t blocks = 1;
    for (std::uint8_t a = 0; a < above.rank; ++a) {
        blocks *= (above.extent[a] + below.extent[a] - 1) / below.extent[a];
    }
    return blocks;
}

}  // namespace

FiberTreeShape fibertree_shape(const Projection& projection, const DimBounds& bounds,
                               const Mapping& mapping, std::size_t level, std::size_t num_ranks) {
    assert(num_ranks >= 1 && num_ranks <= kMaxRanks);
    const TileLoops loops = rank_loops(projection, mapping, level);
    const std::size_t m = loops.count;
    FiberTreeShape shape;
    shape.num_ranks = std::uint8_t(num_ranks);
    shape.tile = tile_of_loops(projection, bounds, loops, 0, m);
    // The loops of rank r are [begin_r, begin_{r+1}): the top rank takes every
    // loop the others leave; ranks without a loop span one coordinate.
    const std::size_t unused = num_ranks > m ? num_ranks - m : 0;
    std::size_t next = 0;
    for (std::size_t r = 0; r < num_ranks; ++r) {
        FiberRank& rank = shape.ranks[r];
        if (r < unused) {
            rank.below = shape.tile;
            continue;
        }
        // What the rank's loops span with everything inside them: what a
        // coordinate of the rank above spans (the whole tile for the top).
        const TensorTile& above = r == 0 ? shape.tile : shape.ranks[r - 1].below;
        next = r == unused ? m - (num_ranks - 1 - r) : next + 1;
        rank.below = tile_of_loops(projection, bounds, loops, next, m);
        rank.fiber_shape = blocks_of(above, rank.below);
    }
    return shape;
}

CompressedSize fibertree_size(const RankFormats& ranks, const FiberTreeShape& shape,
                              DataSpace space, double density, const DensityModel& model,
                              std::int64_t index_bits, bool empty_tile_stored) {
    assert(shape.num_ranks == ranks.size() && !ranks.empty());
    const double elements = double(shape.tile.elements());
    // At least 1 bit, as a run field of the flat `rle` (format_layout.hpp).
    const auto width = [&](std::int64_t values) {
        return double(index_bits > 0 ? index_bits
                                     : std::max<std::int64_t>(1, bits_for_values(values)));
    };
    const double pointer_bits = width(shape.tile.elements() + 1);
    const TileOccupancy whole = tile_occupancy(model, density, shape.tile, space);
    double positions = 1;                                                     // F_r
    double stored = empty_tile_stored ? 1.0 : 1.0 - whole.probability_empty;  // f_r
    double metadata_bits = 0;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const FiberRank& rank = shape.ranks[r];
        const double s = double(rank.fiber_shape);
        const bool leaf = r + 1 == ranks.size();
        // A rank over one coordinate above others: implicit (the ranks below
        // tell whether it is empty). The leaf of a one-element tile is not:
        // its mask bit, or its one coordinate, tells whether the value is there.
        if (rank.fiber_shape == 1 && !leaf) continue;
        const double nonempty =
            positions * s *
            (1.0 - tile_occupancy(model, density, rank.below, space).probability_empty);
        const RankFormat format = ranks[r];
        const double children = rank_compressed(format) ? nonempty : stored * s;
        switch (format) {
            case RankFormat::uop:
                metadata_bits += stored * (s + 1) * pointer_bits;
                break;
            case RankFormat::ub:
            case RankFormat::b:
                metadata_bits += stored * s;
                break;
            case RankFormat::cp:
            case RankFormat::rle:
                metadata_bits += nonempty * width(rank.fiber_shape);
                break;
        }
        if (!leaf && format != RankFormat::uop) metadata_bits += children * pointer_bits;
        positions *= s;
        stored = children;
    }
    const double data_words = rank_compressed(ranks[ranks.size() - 1])
                                  ? whole.mean_nonzeros
                                  : elements * stored / positions;
    return {data_words, metadata_bits};
}

}  // namespace trainloop
