#include "eval/cartesian_energy.hpp"

#include <stdexcept>

namespace trainloop {

CartesianEnergy price_cartesian(const CartesianCost& cost, const CartesianOffchip& offchip,
                                const ArchModel& arch) {
    if (arch.num_levels == 0) throw std::invalid_argument("price_cartesian: no storage level");
    const LevelModel& outer = arch.levels[0];
    const LevelModel& inner = arch.levels[arch.num_levels - 1];
    CartesianEnergy e;
    // SCNN §III: all F × I pairs are multiplied, used or not.
    e.multiply_pj = cost.issued_products * arch.mac_pj;
    e.operand_read_pj = (cost.tiled_operand_reads + cost.broadcast_operand_reads) * inner.read_pj;
    // SCNN §IV: a used product is added into its accumulator bank.
    e.accumulate_pj = cost.used_products * inner.update_pj;
    e.offchip_pj = (offchip.tiled_words + offchip.broadcast_words) * outer.read_pj +
                   offchip.output_words * outer.write_pj;
    return e;
}

}  // namespace trainloop
