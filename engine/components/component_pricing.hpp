// Prices a component of the library at the size and word width a level uses.
//
// SRAM and register-file entries are tables over (capacity, word width):
// within one capacity, energy is interpolated linearly in the word width
// (beyond the widths given, the nearest width's energy per bit); across
// capacities, energy linearly in log2(capacity) (area linearly in capacity)
// between the two bracketing table capacities (Accelergy's table-based
// estimators interpolate the same way). Outside the table's capacities the
// library's rule decides (component_library.hpp, OutsideTable): scale from
// the nearest capacity by sqrt(capacity) (area linearly), and say so
// (`extrapolated`; arch/pricing_notes.hpp), or refuse — the architecture
// parser reports such a level as an error, so price_component never sees
// one. Single-point components (DRAM, networks) scale linearly with the word
// width: energy per bit is constant (DRAM is priced per bit). MACs and logic
// units are priced as given (the parser checks a MAC's width).
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
    double router_pj = 0;  // a word crossing one router (0 when the library gives none)
    double leakage_mw = 0;
    double area_um2 = 0;
    // The capacity was outside the table and priced by the library's
    // `outside_table: sqrt_capacity` rule.
    bool extrapolated = false;
};

// Precondition: a table component's capacity is inside its table or its
// rule is not `refuse` (the architecture parser rejects the others:
// outside_table_error() in components/component_library_parser.hpp).
PricedComponent price_component(const Component& component,
                                std::optional<std::int64_t> capacity_bytes, std::int64_t word_bits);

}  // namespace trainloop
