// TensorTile: a box of one data space's tensor, as extents along the
// tensor's axes in the projection's order (vocabulary/projection.hpp):
//   weights [g, k, c, r, s], inputs [n, g, c, h, w], outputs [n, g, k, p, q].
// The sparse models (occupancy, compressed formats, load imbalance) describe
// tiles with it; tile_of() turns an iteration-space box into one.
#pragma once

#include <array>
#include <cstdint>

#include "vocabulary/projection.hpp"

namespace trainloop {

struct TensorTile {
    std::array<std::int64_t, 5> extent{1, 1, 1, 1, 1};
    std::uint8_t rank = 5;

    std::int64_t elements() const {
        std::int64_t n = 1;
        for (std::uint8_t a = 0; a < rank; ++a) n *= extent[a];
        return n;
    }
    // The axis a "row" of a compressed format runs along: the innermost axis
    // longer than 1 (an FC layer's weight tile [1, k, c, 1, 1] has rows
    // along c, not rows of one element along s); the innermost axis when
    // every extent is 1.
    std::uint8_t row_axis() const {
        for (std::uint8_t a = rank; a-- > 0;) {
            if (extent[a] > 1) return a;
        }
        return std::uint8_t(rank - 1);
    }
    std::int64_t row_length() const { return extent[row_axis()]; }
    std::int64_t rows() const { return elements() / row_length(); }
    // One row of this tile (extent 1 on every other axis).
    TensorTile one_row() const {
        TensorTile row;
        row.rank = rank;
        row.extent[row_axis()] = row_length();
        return row;
    }
    friend bool operator==(const TensorTile&, const TensorTile&) = default;
};

// The tile a box of the iteration space with per-dimension extents `box`
// touches (the input's sliding-window halo included).
inline TensorTile tile_of(const Projection& projection, const DimBounds& box) {
    TensorTile tile;
    tile.rank = projection.num_axes;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        std::int64_t extent = 1;
        for (std::uint8_t t = 0; t < axis.num_terms; ++t) {
            extent += (box[axis.terms[t].dim] - 1) * axis.terms[t].coef;
        }
        tile.extent[a] = extent;
    }
    return tile;
}

}  // namespace trainloop
