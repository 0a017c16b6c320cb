#include "eval/network_routing.hpp"

#include <algorithm>
#include <cmath>

namespace trainloop {
namespace {

// Along each array axis, between a level and its child keeper: the PEs the
// spatial loops spread a tile over, and how many of them one word of the
// data space reaches (the factors of the dimensions that do not index it).
struct Spread {
    double used_x = 1;
    double used_y = 1;
    double share_x = 1;
    double share_y = 1;
};

Spread spread_between(const Mapping& mapping, const Projection& space, std::size_t parent,
                      std::size_t child) {
    Spread out;
    const DimSet irrelevant = space.relevant.complement();
    for (std::size_t l = parent; l < child; ++l) {
        for (const Loop& loop : mapping.level(l).spatial_x) {
            out.used_x *= double(loop.factor);
            if (irrelevant.contains(loop.dim)) out.share_x *= double(loop.factor);
        }
        for (const Loop& loop : mapping.level(l).spatial_y) {
            out.used_y *= double(loop.factor);
            if (irrelevant.contains(loop.dim)) out.share_y *= double(loop.factor);
        }
    }
    return out;
}

AxisSpan span(double used, double share, std::int64_t nodes) {
    return {used, share, std::max<std::int64_t>(nodes, std::int64_t(std::ceil(used)))};
}

// The transfer as the network sees it (shape_for_network); returns the ports
// (lines with a link from the parent): a 1-D network's other axis.
double shape_on(const ArchModel& arch, const NetworkModel& net, const Spread& s,
                TransferShape& shape) {
    shape = shape_for_network(net, span(s.used_x, s.share_x, arch.pe_columns),
                              span(s.used_y, s.share_y, arch.pe_rows));
    if (net.axes == kAxisX) return s.used_y;
    if (net.axes == kAxisY) return s.used_x;
    return 1.0;
}

}  // namespace

std::optional<MappingViolation> route_transfers(const ArchModel& arch, const PhaseProblem& problem,
                                                const Mapping& mapping, const NestAnalysis& nest,
                                                const ActionCounts& counts, NetworkRouting& out) {
    out.traffic.fill(NetworkTraffic{});
    const DataSpace output = problem.output();
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const double instances = double(nest.levels[i].utilized_instances);
        for (DataSpace s : kAllDataSpaces) {
            Transfer& t = out.transfers[i][s];
            t = Transfer{};
            const SpaceAccesses& acc = nest.levels[i].space(s);
            const SpaceCounts& c = counts.levels[i].space(s);
            // Words that cross into the PE array ride a network from this level.
            if (!acc.kept || c.child_side_words == 0) continue;
            const std::size_t child = acc.child < 0 ? arch.num_levels : std::size_t(acc.child);
            const Spread spread = spread_between(mapping, problem.projection(s), i, child);
            t.axes =
                AxisMask((spread.share_x > 1 ? kAxisX : 0) | (spread.share_y > 1 ? kAxisY : 0));
            t.kind = t.axes == 0
                         ? DeliveryKind::unicast
                         : (s == output ? DeliveryKind::reduction : DeliveryKind::multicast);
            t.network = arch.network_for(i, s, t.kind, t.axes);
            if (t.network < 0) {
                if (!arch.has_network_from(i, s)) continue;
                return MappingViolation{
                    ViolationKind::network, int(i), Dim::N, s, std::int64_t(t.axes),
                    std::int64_t(t.kind),   {}};
            }
            const NetworkModel& net = arch.networks[std::size_t(t.network)];
            const double ports = shape_on(arch, net, spread, t.shape);
            t.cost = topology_hops(net.topology, t.shape);
            NetworkTraffic& traffic = out.traffic[std::size_t(t.network)];
            const double words = c.child_side_words * instances;
            traffic.delivered_words += words;
            traffic.link_hops += words * t.cost.link_hops;
            traffic.router_crossings += words * t.cost.routers;
            // Each word the parent sends (or receives) crosses its link once.
            traffic.busiest_link_words +=
                c.child_side_words / (t.shape.x.share * t.shape.y.share) / ports;
        }
    }
    return std::nullopt;
}

}  // namespace trainloop
