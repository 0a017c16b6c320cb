// The energy of one Cartesian-product layer-phase (cartesian/cartesian_product.hpp),
// priced by the architecture's own components: what `train-cost --evaluator
// cartesian` charges where the loop-nest evaluator would charge its mapping's
// action counts.
//
// The model, first order (docs/cartesian_product.md, "Energy"):
//  - Multiplies: every issued product is a multiply, used or not (SCNN,
//    Parashar et al., ISCA 2017, §III: the F × I multipliers form all pairs
//    before the coordinates are known); priced at the PE array's MAC.
//  - Operand reads: the words the multipliers read from the PE buffers
//    (CartesianCost::tiled_operand_reads, broadcast_operand_reads), at the
//    innermost storage level's read energy.
//  - Accumulation: every used product is added into its accumulator bank
//    (SCNN §IV), a read-modify-write at the innermost level's update energy;
//    an unused product is dropped before the crossbar.
//  - Off-chip: each operand's nonzeros read once and the output's written
//    once at the outermost level, values only (no format metadata): the
//    compulsory traffic, a lower bound where an operand outgrows the PE
//    buffers (GSCN's thesis gives no memory system beyond its buffers, §7.5.4).
//  - Networks: the off-chip words into the PEs, the operands into the
//    multipliers and the used products into the banks, on the architecture's
//    networks (cartesian/cartesian_transfers.hpp).
//  - Leakage: every instance of every level and every MAC unit, idle or not,
//    over the layer-phase's cycles (as evaluation.cpp).
// Levels between the outermost and the innermost are not charged: the
// dataflow reads its operands from the PE buffers and DRAM only.
#pragma once

#include <array>

#include "arch/arch_model.hpp"
#include "cartesian/cartesian_product.hpp"
#include "cartesian/cartesian_transfers.hpp"
#include "vocabulary/limits.hpp"

namespace trainloop {

struct CartesianEnergy {
    double multiply_pj = 0;
    double operand_read_pj = 0;
    double accumulate_pj = 0;
    double offchip_pj = 0;
    CartesianNetworkEnergy network_pj{};             // per network (ArchModel::networks)
    std::array<double, kMaxLevels> level_leak_pj{};  // per storage level
    double mac_leak_pj = 0;

    double network_total_pj() const;
    double leak_total_pj() const;
    double total_pj() const;

    // Part by part: the energy of several layer-phases.
    CartesianEnergy& operator+=(const CartesianEnergy& other);
};

// Precondition: arch has at least one storage level.
CartesianEnergy price_cartesian(const CartesianCost& cost, const CartesianOffchip& offchip,
                                const CartesianRun& run, const ArchModel& arch);

}  // namespace trainloop
