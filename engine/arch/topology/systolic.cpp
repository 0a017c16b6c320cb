// Systolic topology: PE-to-PE forwarding along one axis. A word enters the
// first PE of a line and each PE passes it to its neighbour's register, so
// reaching PE j costs j + 1 hops and no router (Kung, "Why systolic
// architectures?", IEEE Computer 1982). A multicast rides one pass down the
// line to the farthest PE that wants it; a reduction is the reverse pass.
#include "arch/network_topology.hpp"

namespace trainloop {

// Links past node 0 to the farthest of `share` PEs spaced s = used/share apart
// from a uniform offset o < s: E[o + (share − 1)·s].
// Source: this model's derivation, docs/arch_format.md "Topologies" (Kung 1982 forwarding).
double line_cover_links(const AxisSpan& span) {
    const double spacing = span.used / span.share;
    return (spacing - 1.0) / 2.0 + (span.share - 1.0) * spacing;
}

HopCost systolic_hops(const TransferShape& shape) {
    const double links = 1.0 + line_cover_links(shape.x);
    return {links / shape.x.share, 0.0};
}

}  // namespace trainloop
