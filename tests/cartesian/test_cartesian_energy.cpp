// cartesian/cartesian_energy.hpp and cartesian/cartesian_transfers.hpp: which of the
// architecture's energies prices each part of a Cartesian-product layer-phase.
#include <gtest/gtest.h>

#include <string>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "cartesian/cartesian_energy.hpp"

namespace trainloop {
namespace {

ArchModel gscn() {
    return build_arch_model(load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/gscn_4x64.yaml"));
}

// The index of the network named `name` in gscn_4x64.yaml (the spec's order).
std::size_t network(const std::string& name) {
    const Architecture arch = load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/gscn_4x64.yaml");
    for (std::size_t n = 0; n < arch.networks.size(); ++n)
        if (arch.networks[n].name == name) return n;
    ADD_FAILURE() << "no network " << name;
    return 0;
}

CartesianRun gscn_run(Phase phase, std::int64_t samples) {
    CartesianRun run;
    run.phase = phase;
    run.array = *load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/gscn_4x64.yaml").cartesian;
    run.samples = samples;
    run.cycles = 100;
    return run;
}

TEST(CartesianEnergy, EachPartAtItsLevelsPrice) {
    const ArchModel arch = gscn();
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
    const CartesianEnergy e = price_cartesian(cost, offchip, gscn_run(Phase::fw, 64), arch);
    EXPECT_DOUBLE_EQ(e.multiply_pj, 1000 * arch.mac_pj) << "unused products are multiplied too";
    EXPECT_DOUBLE_EQ(e.operand_read_pj, 300 * buffers.read_pj);
    EXPECT_DOUBLE_EQ(e.accumulate_pj, 600 * buffers.update_pj) << "only used products land";
    EXPECT_DOUBLE_EQ(e.offchip_pj, 30 * dram.read_pj + 30 * dram.write_pj);
    EXPECT_GT(e.network_total_pj(), 0);
    EXPECT_DOUBLE_EQ(e.leak_total_pj(), 0) << "the 45 nm library gives no leakage";
    EXPECT_DOUBLE_EQ(e.total_pj(), e.multiply_pj + e.operand_read_pj + e.accumulate_pj +
                                       e.offchip_pj + e.network_total_pj());
    EXPECT_DOUBLE_EQ(offchip.total(), 60);
}

// gscn_4x64: every network a bus (one hop per word a PE or multiplier receives
// or sends), 64 PEs a tile, 4 sample tiles, F = I = 4.
TEST(CartesianTransfers, EachWordCrossesTheNetworkThatCarriesItToEveryPeThatUsesIt) {
    const ArchModel arch = gscn();
    const double hop = arch.networks[network("scatter_crossbar")].hop_pj;
    ASSERT_GT(hop, 0);
    for (std::size_t n = 0; n < arch.num_networks; ++n)
        ASSERT_EQ(arch.networks[n].hop_pj, hop) << "one price for every network";

    CartesianCost cost;
    cost.used_products = 600;
    cost.tiled_operand_reads = 50;
    cost.broadcast_operand_reads = 250;
    const CartesianOffchip offchip{10, 20, 30};

    // fw, split filters: x (inputs) to all 64 PEs of its tile; a filter to one PE
    // and all 4 tiles; y from each PE once.
    CartesianNetworkEnergy e =
        cartesian_network_energy(cost, offchip, gscn_run(Phase::fw, 64), arch);
    EXPECT_DOUBLE_EQ(e[network("input_broadcast")], 10 * 64 * hop);
    EXPECT_DOUBLE_EQ(e[network("filter_multicast")], 20 * 4 * hop);
    EXPECT_DOUBLE_EQ(e[network("pe_load")], 30 * hop) << "outputs leave over the unicast network";
    // Inside a PE: an input to F = 4 multipliers, a weight to I = 4; each used
    // product over the crossbar once.
    EXPECT_DOUBLE_EQ(e[network("cartesian_operands")], (50 * 4 + 250 * 4) * hop);
    EXPECT_DOUBLE_EQ(e[network("scatter_crossbar")], 600 * hop);

    // One sample uses one tile: the filters reach one tile only.
    e = cartesian_network_energy(cost, offchip, gscn_run(Phase::fw, 1), arch);
    EXPECT_DOUBLE_EQ(e[network("filter_multicast")], 0);
    EXPECT_DOUBLE_EQ(e[network("pe_load")], (20 + 30) * hop);

    // wu: dy (the filter operand) belongs to one sample, so one tile; the weight
    // gradient's partial sums leave every tile in use.
    e = cartesian_network_energy(cost, offchip, gscn_run(Phase::wu, 64), arch);
    EXPECT_DOUBLE_EQ(e[network("input_broadcast")], 10 * 64 * hop);
    EXPECT_DOUBLE_EQ(e[network("pe_load")], (20 + 30 * 4) * hop);

    // Planar tiling (SCNN): the input tiles unicast, the filters to every PE of
    // every tile. No network of gscn_4x64 multicasts along both axes, so the
    // filters take the unicast one, a copy per PE.
    CartesianRun planar = gscn_run(Phase::fw, 64);
    planar.array.tiling = CartesianTiling::planar;
    e = cartesian_network_energy(cost, offchip, planar, arch);
    EXPECT_DOUBLE_EQ(e[network("input_broadcast")], 0);
    EXPECT_DOUBLE_EQ(e[network("filter_multicast")], 0);
    EXPECT_DOUBLE_EQ(e[network("pe_load")], (10 + 20 * 64 * 4 + 30) * hop);
}

// eager_pruning_scnn_baseline.yaml: 32 filter groups of 2 × 2 planar PEs; the groups
// share the inputs (a y multicast), a group's PEs its weights (an x multicast).
TEST(CartesianTransfers, AnInputReachesItsPeInEveryFilterGroupAFilterOneGroup) {
    const Architecture spec =
        load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/eager_pruning_scnn_baseline.yaml");
    const ArchModel arch = build_arch_model(spec);
    const auto index = [&spec](const std::string& name) {
        for (std::size_t n = 0; n < spec.networks.size(); ++n)
            if (spec.networks[n].name == name) return n;
        ADD_FAILURE() << "no network " << name;
        return std::size_t{0};
    };
    CartesianRun run;
    run.phase = Phase::fw;
    run.array = *spec.cartesian;
    run.samples = 4;
    run.cycles = 100;
    CartesianCost cost;
    const CartesianOffchip offchip{10, 20, 30};
    const CartesianNetworkEnergy e = cartesian_network_energy(cost, offchip, run, arch);
    const double in_hop = arch.networks[index("input_multicast")].hop_pj;
    const double w_hop = arch.networks[index("weight_multicast")].hop_pj;
    ASSERT_GT(in_hop, 0);
    EXPECT_DOUBLE_EQ(e[index("input_multicast")], 10 * 32 * in_hop);
    EXPECT_DOUBLE_EQ(e[index("weight_multicast")], 20 * 4 * w_hop);
}

TEST(CartesianEnergy, EveryInstanceLeaksForTheLayerPhasesCycles) {
    Architecture spec = load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/gscn_4x64.yaml");
    ArchModel arch = build_arch_model(spec);
    arch.levels[1].leakage_mw = 0.5;
    arch.mac_leakage_mw = 0.25;
    arch.clock_ghz = 2.0;
    CartesianRun run = gscn_run(Phase::bw, 64);
    run.cycles = 1000;
    const CartesianEnergy e = price_cartesian(CartesianCost{}, CartesianOffchip{}, run, arch);
    // mW × ns = pJ: 1000 cycles at 2 GHz are 500 ns.
    EXPECT_DOUBLE_EQ(e.level_leak_pj[1], 0.5 * 256 * 500);
    EXPECT_DOUBLE_EQ(e.mac_leak_pj, 0.25 * 4096 * 500);
    EXPECT_DOUBLE_EQ(e.level_leak_pj[0], 0);
    EXPECT_DOUBLE_EQ(e.total_pj(), e.leak_total_pj());
}

}  // namespace
}  // namespace trainloop
