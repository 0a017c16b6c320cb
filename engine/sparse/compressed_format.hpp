// Compressed formats: what a tile of a sparse tensor costs when a storage
// level keeps it in a compressed format (arch/sparse_features.hpp) — the
// data words it keeps and the metadata bits beside them. The evaluator
// derives capacity (what fits), traffic (data + metadata) and energy
// (metadata accesses) from it.
//
// Contract: pure, allocation-free, fast enough to be called for every level
// and data space of every evaluation. Sizes are expected values under the
// density model (tile_occupancy.hpp). A format sees a tile as rows() rows of
// row_length() elements (tensor_tile.hpp). `uncompressed` keeps every
// element and no metadata, whatever the density. Every other format's size
// is nondecreasing in density (tests/sparse pin it; crossover_density()
// relies on it).
#pragma once

#include <cstdint>

#include "arch/sparse_features.hpp"
#include "density/density_model.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct CompressedSize {
    double data_words = 0;     // values kept (nonzeros; every element when uncompressed)
    double metadata_bits = 0;  // pointers, masks, indices, run lengths
    // The storage in words of `word_bits` (metadata packed into words).
    double words(std::int64_t word_bits) const {
        return data_words + metadata_bits / double(word_bits);
    }
};

// The expected size of one tile of `space`'s tensor (`word_bits` per value)
// stored in `format`, any but `fibertree`, whose ranks are loops of a mapping
// (sparse/fibertree.hpp: fibertree_size). Field widths and layouts:
// format_layout.hpp and docs/sparse_formats.md; `index_bits` > 0 fixes the
// index fields' width (FormatEntry::index_bits).
CompressedSize compressed_size(CompressedFormat format, const TensorTile& tile, DataSpace space,
                               double density, const DensityModel& model, std::int64_t word_bits,
                               std::int64_t index_bits = 0);

// What a transfer of the tile moves per word it would move uncompressed
// (docs/sparse_formats.md, "Using it in the evaluator"): data words and
// metadata words (metadata packed into `word_bits`-bit words).
struct TransferRatio {
    double data = 1;
    double metadata = 0;
    double total() const { return data + metadata; }
};
inline TransferRatio transfer_ratio(const CompressedSize& size, std::int64_t elements,
                                    std::int64_t word_bits) {
    return {size.data_words / double(elements),
            size.metadata_bits / double(word_bits) / double(elements)};
}

// The density below which `format` stores such a tile in fewer words than
// `uncompressed` does (1.0 when it always does, 0.0 when it never does):
// where the compressed traffic crosses the uncompressed traffic.
double crossover_density(CompressedFormat format, const TensorTile& tile, DataSpace space,
                         const DensityModel& model, std::int64_t word_bits);

}  // namespace trainloop
