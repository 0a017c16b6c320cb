// CartesianArray: an architecture whose PEs run the Cartesian-product
// (outer-product) sparse convolution of SCNN (Parashar et al., ISCA 2017,
// §III-IV) and GSCN (Goli, ReSprop thesis, UBC 2020, ch. 6), the dataflow
// class cartesian/cartesian_product.hpp evaluates. Read from an architecture's
// optional `cartesian_product:` section (docs/arch_format.md); the parser
// guarantees positive counts and that the array's multipliers are the PE
// array's MACs. Plain value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trainloop {

// How the PEs share a layer-phase. planar: SCNN's (§IV), the A plane cut into
// tiles_h × tiles_w tiles, every PE multiplying its tile by all of B.
// split_filters: GSCN's (thesis §6.4, Alg. 4), every PE multiplying the whole
// A plane by ⌈filters / PEs⌉ of the filters (the last PEs fewer or none).
// Either applies within a filter group, to the group's share of the filters.
enum class CartesianTiling : std::uint8_t { planar, split_filters };
inline constexpr std::array<std::string_view, 2> kCartesianTilingNames = {"planar",
                                                                          "split_filters"};

constexpr std::string_view cartesian_tiling_name(CartesianTiling t) {
    return kCartesianTilingNames[static_cast<std::size_t>(t)];
}

// How accumulator-bank conflicts cost cycles (cartesian/bank_conflicts.hpp).
// unbuffered: each cycle's F × I products hashed to the banks, the cycle as
// long as its fullest bank (an upper bound: SCNN's crossbar queues). none: the
// queues absorb every conflict, SCNN's own reading that A = 2 × F × I banks
// "sufficiently" reduce contention (Parashar et al., ISCA 2017, §IV; the
// ReSprop thesis §6.3 repeats it): a lower bound.
enum class CartesianBankStalls : std::uint8_t { unbuffered, none };
inline constexpr std::array<std::string_view, 2> kCartesianBankStallsNames = {"unbuffered", "none"};

constexpr std::string_view cartesian_bank_stalls_name(CartesianBankStalls b) {
    return kCartesianBankStallsNames[static_cast<std::size_t>(b)];
}

// What the evaluator can model (cartesian/cartesian_product.hpp checks them, the
// parser reads a section within them): PEs along a side of the grid, sample
// tiles and accumulator banks; F and I; the F × I products a cycle scatters.
inline constexpr std::int64_t kMaxCartesianCount = 4096;
inline constexpr std::int64_t kMaxCartesianVector = 1024;
inline constexpr std::int64_t kMaxCartesianProducts = 1024;

struct CartesianArray {
    std::int64_t tiles_h = 8;  // 64 PEs as 8 × 8 (thesis §6.3.1; SCNN Table III)
    std::int64_t tiles_w = 8;
    std::int64_t filter_vector = 4;  // F
    std::int64_t input_vector = 4;   // I
    std::int64_t accumulator_banks = 32;
    CartesianBankStalls bank_stalls = CartesianBankStalls::unbuffered;
    CartesianTiling tiling = CartesianTiling::planar;
    bool predictor = false;  // GSCN's skipping of all-negative filter vectors (thesis §6.5)
    // Copies of the tiles_h × tiles_w grid that run different samples with the
    // same filters (GSCN: 4, thesis Table 7.9; SCNN: 1, §6.3.1).
    std::int64_t sample_tiles = 1;
    // Copies of the grid that run the same samples, each with its own ⌈filters /
    // filter_groups⌉ of the filters (the SCNN of Eager Pruning, Zhang et al., ISCA
    // 2019, §5.2: 128 tiles in 32 groups, the tiles of a group sharing the weights;
    // SCNN and GSCN: 1).
    std::int64_t filter_groups = 1;

    std::int64_t multipliers() const {
        return sample_tiles * filter_groups * tiles_h * tiles_w * filter_vector * input_vector;
    }
};

}  // namespace trainloop
