// FormatLayout: the widths of every metadata field of the compressed formats
// (compressed_format.hpp) for one tile, derived from the tile's extents: a
// field is as wide as the largest value it must hold, no wider. The sizes of
// docs/sparse_formats.md are these widths times the field counts.
//
// Contract: pure, allocation-free.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "sparse/tensor_tile.hpp"

namespace trainloop {

// Bits to tell apart `values` distinct values (0..values-1): ceil(log2(values)),
// 0 when there is only one.
constexpr std::int64_t bits_for_values(std::int64_t values) {
    return values <= 1 ? 0 : std::int64_t(std::bit_width(std::uint64_t(values - 1)));
}

struct FormatLayout {
    std::int64_t elements = 1;    // E: elements of the tile
    std::int64_t rows = 1;        // R: rows (tensor_tile.hpp)
    std::int64_t row_length = 1;  // L: elements per row
    // CSR (Sparseloop's UOP over rows + CP within a row): a column index per
    // nonzero picks one of L positions; R+1 row pointers hold offsets 0..E.
    std::int64_t column_index_bits = 0;
    std::int64_t row_pointer_bits = 0;
    // COO (Sparseloop's CP at every rank): one coordinate per axis per
    // nonzero, plus one count 0..E of the tile's nonzeros to delimit it.
    std::int64_t coordinate_bits = 0;
    std::int64_t count_bits = 0;
    // RLE (Sparseloop's RLE over the flattened tile): the run of zeros before
    // each kept value; a field holds any run of the tile (0..E-1), at least
    // 1 bit, unless `index_bits` fixes it (then long runs pad).
    std::int64_t run_length_bits = 1;
    // CSB (Procrustes §IV-B): a block is the innermost two axes longer than 1
    // (a conv kernel R×S for weights, a square-ish fragment of an FC weight
    // matrix); one pointer per block into the packed values (0..E-1), one
    // mask bit per element.
    std::int64_t block_elements = 1;
    std::int64_t block_pointer_bits = 0;
    // RP-CSR (Chen et al. 2024 §IV-C, fig. 5): each row starts with a header, which
    // we read as the row's nonzero count 0..L (it delimits the self-contained
    // row; eq. 7 charges it once per row), then a column index per nonzero.
    std::int64_t row_header_bits = 0;
};

// `index_bits` > 0: the index fields of CSR and RP-CSR (row pointers, column
// indices, row headers) and RLE's run fields are that wide, as a paper states
// them, whatever the tile needs (FormatEntry::index_bits).
inline FormatLayout format_layout(const TensorTile& tile, std::int64_t index_bits = 0) {
    FormatLayout f;
    f.elements = tile.elements();
    f.row_length = tile.row_length();
    f.rows = f.elements / f.row_length;
    f.column_index_bits = bits_for_values(f.row_length);
    f.row_pointer_bits = bits_for_values(f.elements + 1);
    for (std::uint8_t a = 0; a < tile.rank; ++a)
        f.coordinate_bits += bits_for_values(tile.extent[a]);
    f.count_bits = bits_for_values(f.elements + 1);
    // Wide enough for the longest run the tile can hold (0..E-1 zeros), so it never pads:
    // Sparseloop's RLE without a stated width (run-length-encoding.cpp: one metadata unit
    // per nonzero). `index_bits` fixes a narrower one (Eyeriss, ISSCC 2016: 5 bits).
    f.run_length_bits = std::max<std::int64_t>(1, bits_for_values(f.elements));
    // The block: the innermost two axes longer than 1 (fewer when there are none).
    int found = 0;
    for (std::uint8_t a = tile.rank; a-- > 0 && found < 2;) {
        if (tile.extent[a] > 1) {
            f.block_elements *= tile.extent[a];
            ++found;
        }
    }
    f.block_pointer_bits = bits_for_values(f.elements);
    f.row_header_bits = bits_for_values(f.row_length + 1);
    if (index_bits > 0) {
        f.column_index_bits = index_bits;
        f.row_pointer_bits = index_bits;
        f.row_header_bits = index_bits;
        f.run_length_bits = index_bits;
    }
    return f;
}

}  // namespace trainloop
