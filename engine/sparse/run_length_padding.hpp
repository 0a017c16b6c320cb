// Run-length encoding's padding: a run field of `run_bits` bits holds runs of
// 0..2^run_bits-1 zeros, so a longer run of zeros before a nonzero is split
// by explicit zero values (each "padding entry" covers 2^run_bits elements:
// a full run and the zero itself). Zeros after the last nonzero cost nothing
// (the tile's length is known). Sparseloop's RLE; Eyeriss (ISSCC 2016) pads
// the same way with 5-bit runs.
//
// Contract: pure, O(1) (closed form), allocation-free.
#pragma once

#include <cstdint>

namespace trainloop {

// The expected number of padding entries when each of `elements` elements
// is nonzero independently with probability `density` (exact for Bernoulli
// elements; other density models are approximated by their mean density).
double expected_rle_padding_entries(std::int64_t elements, double density, std::int64_t run_bits);

}  // namespace trainloop
