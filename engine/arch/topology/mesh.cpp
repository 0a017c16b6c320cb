// Mesh topology: a 2-D mesh of routers over the array, the parent at the
// corner PE. Dimension-order (XY) routing: a word travels along the corner's
// row to its column, then down the column; a multicast is the XY tree (along
// the row to the farthest column it needs, then down each of its columns);
// a reduction is the same tree reversed.
#include "arch/network_topology.hpp"

namespace trainloop {

// The XY tree of one word: along the first row to its columns, down each one;
// 1 injection link + line_cover(x) + share_x · line_cover(y), over share_x · share_y PEs.
// Source: Dally & Towles 2004, Principles and Practices of Interconnection Networks, ch. 8 (XY).
HopCost mesh_hops(const TransferShape& shape) {
    const double tree = 1.0 + line_cover_links(shape.x) + shape.x.share * line_cover_links(shape.y);
    const double links = tree / (shape.x.share * shape.y.share);
    return {links, links};
}

}  // namespace trainloop
