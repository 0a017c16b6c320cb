// eval/cartesian_energy.hpp: which of the architecture's energies prices each
// part of a Cartesian-product layer-phase.
#include <gtest/gtest.h>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "eval/cartesian_energy.hpp"

namespace trainloop {
namespace {

TEST(CartesianEnergy, EachPartAtItsLevelsPrice) {
    const ArchModel arch =
        build_arch_model(load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/gscn_4x64.yaml"));
    ASSERT_EQ(arch.num_levels, 2u);
    const LevelModel& dram = arch.levels[0];
    const LevelModel& buffers = arch.levels[1];
    ASSERT_GT(dram.read_pj, buffers.read_pj) << "DRAM and the PE buffers are told apart";

    CartesianCost cost;
    cost.issued_products = 1000;
    cost.used_products = 600;
    cost.tiled_operand_reads = 50;
    cost.broadcast_operand_reads = 250;
    const CartesianOffchip offchip{10, 20, 30};
    const CartesianEnergy e = price_cartesian(cost, offchip, arch);
    EXPECT_DOUBLE_EQ(e.multiply_pj, 1000 * arch.mac_pj) << "unused products are multiplied too";
    EXPECT_DOUBLE_EQ(e.operand_read_pj, 300 * buffers.read_pj);
    EXPECT_DOUBLE_EQ(e.accumulate_pj, 600 * buffers.update_pj) << "only used products land";
    EXPECT_DOUBLE_EQ(e.offchip_pj, 30 * dram.read_pj + 30 * dram.write_pj);
    EXPECT_DOUBLE_EQ(e.total_pj(),
                     e.multiply_pj + e.operand_read_pj + e.accumulate_pj + e.offchip_pj);
    EXPECT_DOUBLE_EQ(offchip.total(), 60);
}

}  // namespace
}  // namespace trainloop
