#include "sparse/mask_tiles.hpp"

#include <algorithm>
#include <array>

namespace trainloop {
namespace {

// The tile's extents in the mask's dimension order.
std::vector<std::int64_t> extents_in_mask_order(const TensorTile& tile, DataSpace space,
                                                std::size_t mask_rank) {
    const auto& e = tile.extent;
    // Merge the group axis into its neighbour (weights: g·k first; activations: g·c second).
    std::array<std::int64_t, 4> four =
        space == DataSpace::weights ? std::array<std::int64_t, 4>{e[0] * e[1], e[2], e[3], e[4]}
                                    : std::array<std::int64_t, 4>{e[0], e[1] * e[2], e[3], e[4]};
    if (mask_rank == 4) return {four.begin(), four.end()};
    if (mask_rank == 2) return {four[0], four[1]};
    // Any other rank: the innermost axes of the tile, outer ones merged into the first.
    std::vector<std::int64_t> out(mask_rank, 1);
    for (std::size_t a = 0; a < 4; ++a) {
        const std::size_t to = a + mask_rank >= 4 ? a + mask_rank - 4 : 0;
        out[std::min(to, mask_rank - 1)] *= four[a];
    }
    return out;
}

}  // namespace

MaskTileCounts mask_tile_counts(const MaskTensor& mask, const TensorTile& tile, DataSpace space) {
    const std::size_t rank = mask.shape.size();
    std::vector<std::int64_t> ext = extents_in_mask_order(tile, space, rank);
    std::vector<std::int64_t> tiles_along(rank);
    MaskTileCounts out;
    out.tile_elements = 1;
    std::int64_t positions = 1;
    for (std::size_t a = 0; a < rank; ++a) {
        ext[a] = std::clamp<std::int64_t>(ext[a], 1, std::max<std::int64_t>(mask.shape[a], 1));
        tiles_along[a] = std::max<std::int64_t>(mask.shape[a] / ext[a], 1);
        out.tile_elements *= ext[a];
        positions *= tiles_along[a];
    }
    out.counts.assign(std::size_t(positions), 0);
    // Walk every element in C order; add it to its tile (elements past the last whole tile are left
    // out).
    std::vector<std::int64_t> index(rank, 0);
    for (std::size_t i = 0; i < mask.nonzero.size(); ++i) {
        if (mask.nonzero[i]) {
            std::int64_t t = 0;
            bool inside = true;
            for (std::size_t a = 0; a < rank; ++a) {
                const std::int64_t ta = index[a] / ext[a];
                if (ta >= tiles_along[a]) inside = false;
                t = t * tiles_along[a] + ta;
            }
            if (inside) ++out.counts[std::size_t(t)];
        }
        for (std::size_t a = rank; a-- > 0;) {
            if (++index[a] < mask.shape[a]) break;
            index[a] = 0;
        }
    }
    return out;
}

}  // namespace trainloop
