// Prices a component of the library at the size and word width a level uses.
//
// SRAM and register-file entries are tables over (capacity, word width):
// within one capacity, energy is interpolated linearly in the word width;
// across capacities, energy linearly in log2(capacity) (area linearly in
// capacity) between the two bracketing
// table capacities (Accelergy's table-based estimators interpolate the same
// way); outside the table the nearest capacity is used and the result is
// flagged as clamped. Single-point components (DRAM, networks) scale
// linearly with the word width: energy per bit is constant (DRAM is priced
// per bit). MACs are priced as given (the parser checks their width).
#pragma once

#include <cstdint>
#include <optional>

#include "components/component_library.hpp"

namespace trainloop {

struct PricedComponent {
    double read_pj = 0;
    double write_pj = 0;
    double update_pj = 0;  // read-modify-write of a partial sum; a write when not given
    double mac_pj = 0;
    double hop_pj = 0;
    double leakage_mw = 0;
    double area_um2 = 0;
    bool clamped = false;  // the capacity was outside the table
};

PricedComponent price_component(const Component& component,
                                std::optional<std::int64_t> capacity_bytes, std::int64_t word_bits);

}  // namespace trainloop
