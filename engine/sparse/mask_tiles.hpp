// The nonzero counts of the tiles of an actual mask (density/density_model.hpp,
// MaskModel): the mask cut into aligned tiles of a TensorTile's extents, one
// count per tile position. Tile occupancy averages over them; the
// Monte-Carlo load-imbalance reference samples them.
//
// The tile's axes (projection order, tensor_tile.hpp) are matched to the
// mask's PyTorch order by merging the group axis: weights [g,k,c,r,s] →
// [G·K, C, R, S], activations [n,g,c,h,w] → [N, G·C, H, W]; a 2-D mask of a
// fully connected layer ([K,C] or [N,C]) drops the unit spatial axes.
// Extents are clipped to the mask; a partial tile at an edge is left out
// unless no whole tile fits along that axis.
#pragma once

#include <cstdint>
#include <vector>

#include "density/density_model.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct MaskTileCounts {
    std::int64_t tile_elements = 0;    // elements of one tile (after clipping)
    std::vector<std::int64_t> counts;  // nonzeros of each aligned tile
};

MaskTileCounts mask_tile_counts(const MaskTensor& mask, const TensorTile& tile, DataSpace space);

}  // namespace trainloop
