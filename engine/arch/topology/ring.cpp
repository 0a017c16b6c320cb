// Ring topology: a bidirectional ring of routers along one axis (the last PE
// of the line linked back to the first). A word takes the shorter way round;
// a multicast (reduction) uses the fewest links that connect node 0 with all
// its PEs: the whole ring less its largest gap.
#include <algorithm>
#include <cmath>

#include "arch/network_topology.hpp"

namespace trainloop {

// Links past node 0 on a k-node ring. One PE j < used: min(j, k − j), averaged
// in closed form. share ≥ 2 PEs spaced s apart from offset o: k − the largest
// gap, max(o, s, L − o) with L = k − (share−1)·s, averaged over o < s
// (the derivation: docs/arch_format.md, "Topologies").
// Source: Dally & Towles 2004, Principles and Practices of Interconn. Networks, ch. 5 (tori).
double ring_cover_links(const AxisSpan& span) {
    const double k = double(span.nodes);
    const double used = span.used;
    if (span.share <= 1.0) {
        // Σ_{j<used} min(j, k−j) / used: j up to ⌊k/2⌋ go forward, the rest back.
        const double half = std::floor(k / 2.0);
        if (used - 1.0 <= half) return (used - 1.0) / 2.0;
        const double forward = half * (half + 1.0) / 2.0;
        const double back =
            (k - half - 1.0) * (k - half) / 2.0 - (k - used) * (k - used + 1.0) / 2.0;
        return (forward + back) / used;
    }
    const double s = used / span.share;
    const double rest = k - (span.share - 1.0) * s;  // L: the arc from the first PE back to 0
    const double n1 = std::min(s, rest - s + 1.0);   // offsets whose largest gap is L − o
    const double gap_sum = n1 * rest - n1 * (n1 - 1.0) / 2.0 + (s - n1) * s;
    return k - gap_sum / s;
}

// Every link ends in a router: a word crosses as many routers as links.
// Source: Timeloop model/network-legacy.cpp, ComputeNetworkEnergy (1 + hops routers per word).
HopCost ring_hops(const TransferShape& shape) {
    const double links = (1.0 + ring_cover_links(shape.x)) / shape.x.share;
    return {links, links};
}

}  // namespace trainloop
