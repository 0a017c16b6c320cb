#include "arch/network_topology.hpp"

namespace trainloop {

HopCost topology_hops(NetworkTopology topology, const TransferShape& shape) {
    switch (topology) {
        case NetworkTopology::bus:
            return bus_hops(shape);
        case NetworkTopology::mesh:
            return mesh_hops(shape);
        case NetworkTopology::torus:
            return torus_hops(shape);
        case NetworkTopology::ring:
            return ring_hops(shape);
        case NetworkTopology::systolic:
            return systolic_hops(shape);
    }
    return bus_hops(shape);
}

}  // namespace trainloop
