// OnChipNetwork: one network of the PE array, moving words between a storage
// level above the array (`parent`) and a level inside the PEs (`child`, or
// the MAC datapath itself when there is none), along one array axis. Plain
// value; the parser guarantees that parent and child are known levels, the
// parent is above the child, both hold every data space the network carries,
// that exactly one of hop_energy_pj / component is set, and that the
// topology fits the axis (topology_fits_axis).
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

// How the links of a network are laid out (arch/network_topology.hpp has
// each one's hop counts): `bus` delivers each word to a PE in one hop (a
// broadcast bus or reduction tree; today's default), `mesh` and `torus` are
// 2-D routed networks over the array (axis `both`), `ring` a routed 1-D ring
// along one axis, `systolic` PE-to-PE forwarding along one axis.
enum class NetworkTopology : std::uint8_t { bus, mesh, torus, ring, systolic };
inline constexpr std::array<std::string_view, 5> kNetworkTopologyNames = {"bus", "mesh", "torus",
                                                                          "ring", "systolic"};

constexpr std::string_view network_topology_name(NetworkTopology t) {
    return kNetworkTopologyNames[static_cast<std::size_t>(t)];
}

// Mesh and torus span the whole array; a ring and a systolic chain run along
// one axis; a bus may do either.
constexpr bool topology_fits_axis(NetworkTopology t, ArrayAxis axis) {
    switch (t) {
        case NetworkTopology::bus:
            return true;
        case NetworkTopology::mesh:
        case NetworkTopology::torus:
            return axis == ArrayAxis::both;
        case NetworkTopology::ring:
        case NetworkTopology::systolic:
            return axis != ArrayAxis::both;
    }
    return false;
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
    NetworkTopology topology = NetworkTopology::bus;
    // Words per cycle one link carries (for a bus: the bus); nullopt: not a
    // limit. The busiest link (where the parent attaches) bounds latency.
    std::optional<double> bandwidth;
    // Energy of moving one word one hop (and through one router): given
    // inline, or priced by a component (class network) of the library.
    // Exactly one of hop_energy_pj / component is set; router_energy_pj only
    // with hop_energy_pj (a component gives its own `router_pj`).
    std::optional<double> hop_energy_pj;
    std::optional<double> router_energy_pj;
    std::optional<std::string> component;
};

}  // namespace trainloop
