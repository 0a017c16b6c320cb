// Network routing: which network carries each data space across the PE
// array between a level and its child keeper, and what one word costs there
// (hops and routers for the network's topology, arch/network_topology.hpp);
// per network, the words on its busiest link and the cycles its link
// bandwidth needs. The evaluator reads this for latency and energy.
// Allocation-free.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "arch/arch_model.hpp"
#include "arch/network_shape.hpp"
#include "arch/network_topology.hpp"
#include "eval/mapping_check.hpp"
#include "mapping/mapping.hpp"
#include "nest/action_counts.hpp"
#include "nest/nest_analysis.hpp"
#include "problem/phase_problem.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

// One data space leaving (for the output: reaching) one level across the array.
struct Transfer {
    int network = -1;  // -1: no network carries it (none is declared from the level)
    DeliveryKind kind = DeliveryKind::unicast;
    AxisMask axes = 0;  // the axes its multicast (reduction) spans
    TransferShape shape;
    HopCost cost;  // per word delivered to (collected from) one PE
};

// Per network, over the whole evaluation.
struct NetworkTraffic {
    double delivered_words = 0;  // words reaching (leaving) PEs, all parent instances
    double link_hops = 0;        // word-hops over links
    double router_crossings = 0;
    double busiest_link_words = 0;  // per parent instance: the words on a parent's link
    std::int64_t cycles = 0;  // busiest_link_words / bandwidth (0: no limit); set by evaluate()
};

struct NetworkRouting {
    std::array<PerDataSpace<Transfer>, kMaxLevels> transfers{};
    std::array<NetworkTraffic, kMaxNetworks> traffic{};
};

// Routes every transfer of the counts (child_side_words) over the networks.
// A transfer from a level that has networks for its data space, none of them
// of the kind and axes the mapping needs nor a unicast one, is a violation
// (ViolationKind::network); a level with no network for the space moves its
// words unpriced, as Timeloop does without network entries.
std::optional<MappingViolation> route_transfers(const ArchModel& arch, const PhaseProblem& problem,
                                                const Mapping& mapping, const NestAnalysis& nest,
                                                const ActionCounts& counts, NetworkRouting& out);

}  // namespace trainloop
