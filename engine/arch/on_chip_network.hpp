// OnChipNetwork: one network of the PE array, moving words between a storage
// level above the array (`parent`) and a level inside the PEs (`child`, or
// the MAC datapath itself when there is none), along one array axis. Plain
// value; the parser guarantees that parent and child are known levels, the
// parent is above the child, both hold every data space the network carries,
// and that exactly one of hop_energy_pj / component is set.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/array_axis.hpp"
#include "vocabulary/data_space_set.hpp"

namespace trainloop {

// How one word reaches PEs: to all PEs along the axis, to a chosen subset,
// summed from all PEs along the axis into one (reduction), or to one PE.
enum class NetworkKind : std::uint8_t { broadcast, multicast, reduction, unicast };
inline constexpr std::array<std::string_view, 4> kNetworkKindNames = {"broadcast", "multicast",
                                                                      "reduction", "unicast"};

constexpr std::string_view network_kind_name(NetworkKind k) {
    return kNetworkKindNames[static_cast<std::size_t>(k)];
}

struct OnChipNetwork {
    std::string name;
    ArrayAxis axis = ArrayAxis::both;
    NetworkKind kind = NetworkKind::unicast;
    // Data spaces it may carry. In training the tensor on a data space
    // changes with the phase (phase.hpp), so 1-D flow networks usually carry
    // all three and the mapping decides which one uses them.
    DataSpaceSet data_spaces = DataSpaceSet::all();
    std::string parent;                // a storage level above the array
    std::optional<std::string> child;  // a level inside the PEs; none: the MACs
    std::optional<double> bandwidth;   // words per cycle; nullopt: not a limit
    // Energy of moving one word one hop: given inline, or priced by a
    // component (class network) of the library. Exactly one is set.
    std::optional<double> hop_energy_pj;
    std::optional<std::string> component;
};

}  // namespace trainloop
