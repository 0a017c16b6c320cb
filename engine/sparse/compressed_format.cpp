#include "sparse/compressed_format.hpp"

#include <cassert>

#include "sparse/format_layout.hpp"
#include "sparse/row_partitioned_dual.hpp"
#include "sparse/run_length_padding.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop {

// Sizes of one tile: E elements in R rows of L, n̄ expected nonzeros, the
// field widths of format_layout.hpp. docs/sparse_formats.md tabulates them.
// No field depends on the word width: sizes are in values and bits, and
// CompressedSize::words() packs them.
CompressedSize compressed_size(CompressedFormat format, const TensorTile& tile, DataSpace space,
                               double density, const DensityModel& model,
                               std::int64_t /*word_bits*/, std::int64_t index_bits) {
    assert(density >= 0 && density <= 1 && "a density is a fraction of the elements");
    if (format == CompressedFormat::uncompressed) return {double(tile.elements()), 0};
    const FormatLayout f = format_layout(tile, index_bits);
    const double E = double(f.elements);
    const double n = tile_occupancy(model, density, tile, space).mean_nonzeros;
    switch (format) {
        case CompressedFormat::uncompressed:
            return {E, 0};
        case CompressedFormat::bitmap:
            // Sparseloop "B": one presence bit per element, the nonzeros packed.
            return {n, E};
        case CompressedFormat::csr:
            // Sparseloop UOP (R+1 row pointers) + CP (a column index per nonzero).
            return {n, double(f.rows + 1) * double(f.row_pointer_bits) +
                           n * double(f.column_index_bits)};
        case CompressedFormat::coo:
            // Sparseloop CP at every rank: all coordinates of each nonzero, and the count.
            return {n, double(f.count_bits) + n * double(f.coordinate_bits)};
        case CompressedFormat::rle: {
            // Sparseloop RLE: a run field per kept value; padding entries are explicit zeros.
            const double padding =
                expected_rle_padding_entries(f.elements, E > 0 ? n / E : 0, f.run_length_bits);
            return {n + padding, (n + padding) * double(f.run_length_bits)};
        }
        case CompressedFormat::csb:
            // Procrustes §IV-B: a mask bit per element, a pointer per block, packed values.
            return {n, E + E / double(f.block_elements) * double(f.block_pointer_bits)};
        case CompressedFormat::fibertree:
            // Its ranks are a mapping's loops: fibertree_size (fibertree.hpp).
            assert(false && "a fibertree tile's size needs its ranks: fibertree_size");
            return {n, 0};
        case CompressedFormat::rp_dual: {
            // Chen et al. 2024 eqs. 5–10 per row, in expectation over the row's nonzero count.
            const RowFormatFields row{f.row_length, f.row_header_bits, f.column_index_bits};
            const TileOccupancy one_row = tile_occupancy(model, density, tile.one_row(), space);
            return {n, double(f.rows) * expected_rp_dual_row_bits(row, one_row)};
        }
    }
    assert(false && "unknown compressed format");
    return {E, 0};
}

double crossover_density(CompressedFormat format, const TensorTile& tile, DataSpace space,
                         const DensityModel& model, std::int64_t word_bits) {
    const double uncompressed = double(tile.elements());
    // Positive where `format` is larger; every format's size is nondecreasing
    // in density (tests/sparse), so the sign changes at most once.
    const auto excess = [&](double density) {
        return compressed_size(format, tile, space, density, model, word_bits).words(word_bits) -
               uncompressed;
    };
    if (excess(1.0) < 0) return 1.0;
    if (excess(0.0) >= 0) return 0.0;
    double smaller = 0.0;  // excess < 0
    double larger = 1.0;   // excess >= 0
    for (int i = 0; i < 60 && larger - smaller > 1e-15; ++i) {
        const double mid = 0.5 * (smaller + larger);
        (excess(mid) < 0 ? smaller : larger) = mid;
    }
    return 0.5 * (smaller + larger);
}

}  // namespace trainloop
