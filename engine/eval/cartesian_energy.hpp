// The energy and off-chip traffic of one Cartesian-product layer-phase
// (eval/cartesian_product.hpp), priced by the architecture's own components:
// what `train-cost --evaluator cartesian` charges where the loop-nest
// evaluator would charge its mapping's action counts.
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
//  - Not counted: on-chip network and crossbar transfers, leakage.
#pragma once

#include "arch/arch_model.hpp"
#include "eval/cartesian_product.hpp"

namespace trainloop {

// Words of each tensor that cross the off-chip boundary once: its elements
// times its density.
struct CartesianOffchip {
    double tiled_words = 0;      // operand A (fw, wu: x; bw: dy)
    double broadcast_words = 0;  // operand B (fw, bw: w; wu: dy)
    double output_words = 0;     // the phase's output (y, dx, dw)

    double total() const { return tiled_words + broadcast_words + output_words; }
};

struct CartesianEnergy {
    double multiply_pj = 0;
    double operand_read_pj = 0;
    double accumulate_pj = 0;
    double offchip_pj = 0;

    double total_pj() const { return multiply_pj + operand_read_pj + accumulate_pj + offchip_pj; }
};

// Precondition: arch has at least one storage level.
CartesianEnergy price_cartesian(const CartesianCost& cost, const CartesianOffchip& offchip,
                                const ArchModel& arch);

}  // namespace trainloop
