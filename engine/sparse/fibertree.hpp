// Fibertree formats: a tile kept as a tree of fibers with a format per rank
// (`ranks:` of a `fibertree` format entry), as Sparseloop describes formats
// (Wu et al., MICRO 2022, §IV-A and Table II: UOP, UB, CP, B, RLE per rank;
// the fibertree abstraction: Sze et al., "Efficient Processing of Deep Neural
// Networks", 2020, §8.2). docs/sparse_formats.md, "Fibertree formats".
//
// Which loops are the ranks. A level's tile spans the loops at the level and
// inside it (nest_analysis.hpp); those that index the data space with a
// factor above 1 are the tile's ranks, outermost first: per level, its
// temporal loops, then its spatial loops along X, then along Y, then the next
// level's. The top listed rank takes the outermost loop. A tile with more
// such loops than ranks flattens the outer ones into the top rank (one fiber
// over their product); one with fewer leaves the top ranks over a single
// coordinate, and such a rank costs nothing (its coordinate is implicit, and
// the ranks below it tell whether it is empty). A tile of one element has its
// leaf rank over that element: its mask bit (or coordinate) tells whether the
// value is there. This is Sparseloop's rank per loop; it refuses a tile with
// more loops than ranks, where trainloop flattens, so that every mapping has a
// size.
// A rank cuts the tile its loops span (with everything inside them) into
// tiles like the one inside them, along each tensor axis: its fiber shape.
// That is the loop's factor, except where a sliding window puts two loops on
// one axis: an input tile of 9 rows under P7 R3 is 3 blocks of the 3 rows R3
// spans, not 7 overlapping windows (Sparseloop counts the 7, and so each
// shared element once per window).
//
// The model, in expected values under the density model (P_e(T): the
// probability that tile T holds no nonzero, tile_occupancy.hpp). Rank r
// (0 = top) has fibers of s_r coordinates; T_{r+1} is what one coordinate of
// rank r spans (the tile of the loops inside it; T_0 the whole tile).
//   F_r = s_0 · … · s_{r-1}                     fiber positions at rank r
//   n_r = F_r · s_r · (1 − P_e(T_{r+1}))         nonempty coordinates at rank r
//   f_0 = 1,  f_{r+1} = n_r if rank r is compressed (CP, B, RLE),
//                       f_r · s_r otherwise (UOP, UB)      fibers stored
// A tile whose parent level keeps the data space compressed is not stored
// when it is empty (the parent's metadata says so, and sends nothing):
// f_0 = 1 − P_e(T_0) then (Sparseloop's "a parent with metadata sends no
// empty tile", its average utilized instances).
// Per rank, the metadata (Sparseloop's per-format units, Table II) and, above
// the leaf, one payload per stored child (a pointer; UOP's offsets are its
// payload):
//   UOP  f_r · (s_r + 1) offsets                     (no other payload)
//   UB   f_r · s_r mask bits,    f_r · s_r pointers above the leaf
//   B    f_r · s_r mask bits,    n_r pointers above the leaf
//   CP   n_r coordinates,        n_r pointers above the leaf
//   RLE  n_r run lengths,        n_r pointers above the leaf
// Field widths, as wide as the largest value they hold (format_layout.hpp):
// a mask bit is 1 bit, a coordinate or run length tells apart s_r values (at
// least 1 bit), an offset or pointer E + 1 (E: the tile's elements);
// `index_bits` > 0 fixes every field but the masks.
// The data words: the tile's expected nonzeros under a compressed leaf (as
// every other format), its elements in the stored leaf fibers under an
// uncompressed one (E · f_leaf / F_leaf).
//
// Where Sparseloop's arithmetic differs (docs/timeloop_interop.md,
// difference 3): it counts the stored fibers at every rank as
// F_r · (1 − P_e(T_r)), even under an uncompressed rank (which keeps its
// empty fibers), a fiber's nonempty coordinates as s_r · (1 − P_e(T_{r+1}))
// rounded up and not conditioned on the fiber being nonempty, averages over
// the tile's nonzero count, gives ranks left over below a level's loops the
// block of the innermost loop, and counts overlapping windows apart.
//
// Contract: pure and allocation-free (fixed-size values).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "arch/sparse_features.hpp"
#include "density/density_model.hpp"
#include "mapping/mapping.hpp"
#include "sparse/compressed_format.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {

// One rank of a tile: its fibers' coordinates and what one coordinate spans.
struct FiberRank {
    std::int64_t fiber_shape = 1;  // s_r
    TensorTile below;              // T_{r+1}
};

// The ranks of one tile under one mapping, top first, one per listed rank
// (the top ranks over one coordinate included).
struct FiberTreeShape {
    TensorTile tile;  // T_0
    std::array<FiberRank, kMaxRanks> ranks{};
    std::uint8_t num_ranks = 0;
};

// The ranks of `level`'s tile of the data space `projection` indexes, under
// `mapping`, for a format with `num_ranks` ranks (1..kMaxRanks). `bounds`:
// the problem's, which clip padded factors as the tile boxes do.
FiberTreeShape fibertree_shape(const Projection& projection, const DimBounds& bounds,
                               const Mapping& mapping, std::size_t level, std::size_t num_ranks);

// The expected size of the tile in the fibertree format `ranks` (the model
// above). Precondition: shape.num_ranks == ranks.size().
// `empty_tile_stored`: false under a parent that keeps the space compressed.
CompressedSize fibertree_size(const RankFormats& ranks, const FiberTreeShape& shape,
                              DataSpace space, double density, const DensityModel& model,
                              std::int64_t index_bits = 0, bool empty_tile_stored = true);

}  // namespace trainloop
