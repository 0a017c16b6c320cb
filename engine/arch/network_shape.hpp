// A transfer as one network sees it: the evaluator's routing
// (eval/network_routing.hpp) and the Cartesian-product transfers
// (cartesian/cartesian_transfers.hpp) both shape their words so before pricing
// them by the network's topology (network_topology.hpp).
#pragma once

#include "arch/arch_model.hpp"
#include "arch/network_topology.hpp"

namespace trainloop {

// A transfer as `net` sees it, given its spans along the array's x and y:
// a 1-D network's own axis goes in x (the other axis is separate lines), and
// a unicast network sends each PE its own copy (no sharing).
inline TransferShape shape_for_network(const NetworkModel& net, const AxisSpan& x,
                                       const AxisSpan& y) {
    const bool shares = net.kind != DeliveryKind::unicast;
    const auto on = [shares](const AxisSpan& s) {
        return AxisSpan{s.used, shares ? s.share : 1.0, s.nodes};
    };
    if (net.axes == kAxisX) return {on(x), {}};
    if (net.axes == kAxisY) return {on(y), {}};
    return {on(x), on(y)};
}

}  // namespace trainloop
