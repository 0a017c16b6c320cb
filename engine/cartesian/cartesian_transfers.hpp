// The on-chip transfers of one Cartesian-product layer-phase
// (cartesian/cartesian_product.hpp) and their energy on the architecture's
// networks: the part of its energy the loop-nest evaluator charges to the
// networks (eval/network_routing.hpp), here for a fixed dataflow instead of
// a mapping's spatial loops.
//
// The array as the networks see it: the PEs of a tile (tiles_h × tiles_w)
// along x, the sample tiles of every filter group along y; below the PE
// buffers, a PE's F × I multipliers along x. A word of A reaches its PE in
// every filter group (they split the filters, not the plane); a filter of B
// and an output belong to one group. Three kinds of words cross a network:
//  - Off-chip words into the PEs, from the level above the PE buffers. A word
//    reaches every PE that multiplies it: under split_filters the tiled
//    operand A goes to every PE of its sample's tile (thesis §6.4: "the whole
//    input is broadcasted to all the PEs") and each filter of B to one PE
//    (Alg. 4: Ks = Kc / P); under planar tiling A's tile goes to its own PE
//    and B to every PE (SCNN, Parashar et al., ISCA 2017, §IV). A weight
//    reaches every sample tile in use (thesis §7.5.4: "Tiles will fetch the
//    same filters"); A and the weight gradient's B (dy) belong to one sample,
//    so one tile. Outputs leave each PE once; the weight gradient's partial
//    sums, one per sample tile in use, are summed on the way out (a
//    reduction along y). Halos (SCNN §IV) are not counted.
//  - Operands into the multipliers, from the PE buffers: a value of the
//    filter vector reaches the I multipliers that pair it with the input
//    vector, a value of the input vector the F multipliers (SCNN §III).
//  - Products into the accumulator banks: each used product crosses the
//    scatter crossbar once, from its multiplier (SCNN §IV, thesis Fig. 6.6);
//    an unused product is dropped before it.
// Each transfer rides the network ArchModel::network_for picks (the kind and
// axes it needs, else a unicast one), else any network from its level that
// carries its data space; a level with none moves it unpriced, as the loop
// nest does. Words are counted per PE (multiplier) they reach or leave,
// priced per word at the topology's hops and routers (arch/network_topology.hpp).
#pragma once

#include <array>
#include <cstdint>

#include "arch/arch_model.hpp"
#include "arch/cartesian_array.hpp"
#include "cartesian/cartesian_product.hpp"
#include "problem/phase_problem.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// Words of each tensor that cross the off-chip boundary once: its elements
// times its density.
struct CartesianOffchip {
    double tiled_words = 0;      // operand A (fw, wu: x; bw: dy)
    double broadcast_words = 0;  // operand B (fw, bw: w; wu: dy)
    double output_words = 0;     // the phase's output (y, dx, dw)

    double total() const { return tiled_words + broadcast_words + output_words; }
};

// The compulsory off-chip words of `problem` (the layer-phase the array runs):
// its tiled and broadcast operands' and its output's elements, each times its
// density.
CartesianOffchip cartesian_offchip(const PhaseProblem& problem, double tiled_density,
                                   double broadcast_density, double output_density);

// The layer-phase being priced, besides its counts.
struct CartesianRun {
    Phase phase = Phase::fw;
    CartesianArray array;
    std::int64_t samples = 1;  // the minibatch: sample tiles beyond it idle
    std::int64_t cycles = 0;   // the layer-phase's cycles (leakage)
};

// pJ per network of the architecture (ArchModel::networks), indexed as it.
using CartesianNetworkEnergy = std::array<double, kMaxNetworks>;

CartesianNetworkEnergy cartesian_network_energy(const CartesianCost& cost,
                                                const CartesianOffchip& offchip,
                                                const CartesianRun& run, const ArchModel& arch);

}  // namespace trainloop
