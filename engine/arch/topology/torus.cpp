// Torus topology: a 2-D mesh whose rows and columns close into rings (the
// torus seed 003 balances work on and CloNets trains on). The parent
// attaches at one PE; dimension-order routing as in mesh.cpp, each dimension
// a ring (ring.cpp) taking the shorter way round.
#include "arch/network_topology.hpp"

namespace trainloop {

// The XY tree on rings: 1 injection link + ring_cover(x) + share_x · ring_cover(y),
// over share_x · share_y PEs; routers: one per link, as ring.cpp.
// Source: Dally & Towles 2004, Interconnection Networks, ch. 5 (k-ary 2-cube).
HopCost torus_hops(const TransferShape& shape) {
    const double tree = 1.0 + ring_cover_links(shape.x) + shape.x.share * ring_cover_links(shape.y);
    const double links = tree / (shape.x.share * shape.y.share);
    return {links, links};
}

}  // namespace trainloop
