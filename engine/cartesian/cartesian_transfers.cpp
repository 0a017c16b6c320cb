#include "cartesian/cartesian_transfers.hpp"

#include <algorithm>

#include "arch/network_shape.hpp"
#include "arch/network_topology.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

// One transfer: `words` distinct words, each reaching (or, for a reduction,
// leaving) `share_x` × `share_y` of the `used_x` × `used_y` PEs it spans.
struct CartesianTransfer {
    std::size_t parent = 0;  // level index
    DataSpace space = DataSpace::inputs;
    DeliveryKind kind = DeliveryKind::unicast;
    double words = 0;
    AxisSpan x;
    AxisSpan y;
};

AxisSpan span_of(double used, double share) {
    return {used, share, static_cast<std::int64_t>(used)};
}

// The network that carries it: the one network_for picks, else any network
// from the level that carries the data space; -1: none (unpriced).
int network_of(const ArchModel& arch, const CartesianTransfer& t) {
    const AxisMask axes = AxisMask((t.x.share > 1 ? kAxisX : 0) | (t.y.share > 1 ? kAxisY : 0));
    const DeliveryKind kind = axes == 0 ? DeliveryKind::unicast : t.kind;
    if (const int n = arch.network_for(t.parent, t.space, kind, axes); n >= 0) return n;
    for (std::size_t n = 0; n < arch.num_networks; ++n) {
        const NetworkModel& net = arch.networks[n];
        if (std::size_t(net.parent) == t.parent && net.carries.contains(t.space)) return int(n);
    }
    return -1;
}

void add_transfer(const ArchModel& arch, const CartesianTransfer& t, CartesianNetworkEnergy& out) {
    if (t.words <= 0) return;
    const int n = network_of(arch, t);
    if (n < 0) return;
    const NetworkModel& net = arch.networks[std::size_t(n)];
    const HopCost cost = topology_hops(net.topology, shape_for_network(net, t.x, t.y));
    // Per PE a word reaches (leaves): a unicast network sends each its own copy.
    const double delivered = t.words * t.x.share * t.y.share;
    out[std::size_t(n)] += delivered * (cost.link_hops * net.hop_pj + cost.routers * net.router_pj);
}

double tensor_words(const PhaseProblem& problem, DataSpace space) {
    return static_cast<double>(footprint(problem.projection(space), problem.space.bounds));
}

}  // namespace

CartesianOffchip cartesian_offchip(const PhaseProblem& problem, double tiled_density,
                                   double broadcast_density, double output_density) {
    const auto [tiled, broadcast] = cartesian_operands(problem.phase);
    return {tensor_words(problem, tiled) * tiled_density,
            tensor_words(problem, broadcast) * broadcast_density,
            tensor_words(problem, problem.output()) * output_density};
}

CartesianNetworkEnergy cartesian_network_energy(const CartesianCost& cost,
                                                const CartesianOffchip& offchip,
                                                const CartesianRun& run, const ArchModel& arch) {
    CartesianNetworkEnergy out{};
    if (arch.num_levels == 0) return out;
    const CartesianArray& a = run.array;
    const auto [tiled, broadcast] = cartesian_operands(run.phase);
    const DataSpace output = output_space(run.phase);
    const std::size_t inner = arch.num_levels - 1;
    const double pes = double(a.tiles_h * a.tiles_w);
    const double tiles = double(std::clamp<std::int64_t>(run.samples, 1, a.sample_tiles));
    const double groups = double(a.filter_groups);
    const bool split = a.tiling == CartesianTiling::split_filters;
    // A weight serves every sample tile; the other operands belong to one sample. Along
    // y, the sample tiles of each filter group: A reaches every group, B and the
    // outputs one.
    const double b_tiles = broadcast == DataSpace::weights ? tiles : 1.0;
    const double used_y = tiles * groups;

    if (inner > 0) {
        const std::size_t parent = inner - 1;
        add_transfer(arch,
                     {parent, tiled, DeliveryKind::multicast, offchip.tiled_words,
                      span_of(pes, split ? pes : 1.0), span_of(used_y, groups)},
                     out);
        add_transfer(arch,
                     {parent, broadcast, DeliveryKind::multicast, offchip.broadcast_words,
                      span_of(pes, split ? 1.0 : pes), span_of(used_y, b_tiles)},
                     out);
        // The weight gradient's partial sums: one per sample tile in use.
        const double out_tiles = run.phase == Phase::wu ? tiles : 1.0;
        add_transfer(arch,
                     {parent, output, DeliveryKind::reduction, offchip.output_words,
                      span_of(pes, 1.0), span_of(used_y, out_tiles)},
                     out);
    }
    const double f = double(a.filter_vector);
    const double i = double(a.input_vector);
    // SCNN §III: an input value meets the F filter values, a filter value the I inputs.
    add_transfer(
        arch,
        {inner, tiled, DeliveryKind::multicast, cost.tiled_operand_reads, span_of(f * i, f), {}},
        out);
    add_transfer(arch,
                 {inner,
                  broadcast,
                  DeliveryKind::multicast,
                  cost.broadcast_operand_reads,
                  span_of(f * i, i),
                  {}},
                 out);
    // SCNN §IV: a used product crosses the crossbar to its bank, one multiplier's own.
    add_transfer(
        arch, {inner, output, DeliveryKind::unicast, cost.used_products, span_of(f * i, 1.0), {}},
        out);
    return out;
}

}  // namespace trainloop
