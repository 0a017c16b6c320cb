// Hop counts of one word's trip between a network's parent level and the PEs,
// per topology (on_chip_network.hpp, NetworkTopology). Pure closed forms, one
// file per topology under topology/, each citing where its formula comes from.
//
// The geometry every topology shares (docs/arch_format.md, "Topologies"):
// - The parent attaches to one node: the first PE of each line of a 1-D
//   network (ring, systolic; one line per row for axis x, per column for y),
//   the corner PE of a 2-D one (mesh, torus). The link from the parent into
//   that node is the first hop.
// - The mapping's spatial loops fill the array from that node: along each
//   axis the transfer uses PEs 0 .. used−1 of the `nodes` the axis has.
// - A word shared by `share` of the used PEs along an axis (a multicast; the
//   reverse tree for a reduction, whose partial sums are added where paths
//   meet) reaches PEs spaced evenly, used/share apart, the first at a
//   uniformly random offset below that spacing. share = 1 is a unicast.
//
// Costs are per word delivered to (collected from) one PE, so they multiply
// the nest analysis's child-side words: a bus costs 1 hop, as trainloop's
// networks always did.
#pragma once

#include <cstdint>

#include "arch/on_chip_network.hpp"

namespace trainloop {

struct AxisSpan {
    double used = 1;         // PEs along the axis the transfer spans (≤ nodes)
    double share = 1;        // of those, the PEs one word reaches (divides used)
    std::int64_t nodes = 1;  // PEs along the axis in the network
};

struct TransferShape {
    AxisSpan x;  // along a row (across the columns)
    AxisSpan y;  // along a column (across the rows)
};

struct HopCost {
    double link_hops = 0;  // links one delivered word crosses (its share of the tree)
    double routers = 0;    // routers it passes through
};

// The closed forms, one per topology (topology/<name>.cpp). A 1-D topology
// reads shape.x only: the caller puts the network's axis there.
HopCost bus_hops(const TransferShape& shape);
HopCost systolic_hops(const TransferShape& shape);
HopCost ring_hops(const TransferShape& shape);
HopCost mesh_hops(const TransferShape& shape);
HopCost torus_hops(const TransferShape& shape);

// The two 1-D building blocks the 2-D forms reuse: links beyond the
// injection link that connect node 0 with the `share` PEs of one word along
// a line (forwarding from node 0 only) and along a bidirectional ring.
double line_cover_links(const AxisSpan& span);
double ring_cover_links(const AxisSpan& span);

HopCost topology_hops(NetworkTopology topology, const TransferShape& shape);

}  // namespace trainloop
