// Pricing components of the default 45 nm library at a level's size and
// width (expected values derived by hand from arch_specs/components/default_45nm.yaml),
// and architecture overrides reaching the evaluator's model.
#include <gtest/gtest.h>

#include <cmath>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "components/component_library_parser.hpp"
#include "components/component_pricing.hpp"

namespace trainloop {
namespace {

const ComponentLibrary& library() {
    static const ComponentLibrary lib = load_component_library(
        std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "arch_specs/components/default_45nm.yaml");
    return lib;
}

const Component& entry(const char* name) { return *library().find(name); }

TEST(ComponentPricing, ATablePointIsPricedAsWritten) {
    const PricedComponent rf = price_component(entry("regfile"), 1024, 32);
    EXPECT_DOUBLE_EQ(rf.read_pj, 4.24);
    EXPECT_DOUBLE_EQ(rf.write_pj, 4.24);
    EXPECT_DOUBLE_EQ(rf.update_pj, 4.24) << "no update energy given: priced as a write";
    EXPECT_DOUBLE_EQ(rf.area_um2, 198004.71);
    EXPECT_FALSE(rf.clamped);
}

TEST(ComponentPricing, EnergyInterpolatesInLogCapacityAndAreaLinearly) {
    // 768 B lies log2(768/512) = 0.585 of the way from 512 B (3.0 pJ) to 1 KB (4.24 pJ).
    const PricedComponent rf = price_component(entry("regfile"), 768, 32);
    EXPECT_NEAR(rf.read_pj, 3.0 + (4.24 - 3.0) * std::log2(1.5), 1e-12);
    // Area: halfway in capacity between 99,002.36 and 198,004.71 µm².
    EXPECT_NEAR(rf.area_um2, (99002.36 + 198004.71) / 2, 1e-6);
}

TEST(ComponentPricing, EnergyInterpolatesLinearlyInWidthWithinACapacity) {
    // 24 bits at 512 B: halfway between 1.5 pJ (16 bits) and 3.0 pJ (32 bits).
    EXPECT_DOUBLE_EQ(price_component(entry("regfile"), 512, 24).read_pj, 2.25);
    // 128 bits, wider than the table: the 64-bit point's energy per bit, × 2.
    EXPECT_DOUBLE_EQ(price_component(entry("regfile"), 512, 128).read_pj, 12.0);
}

TEST(ComponentPricing, CapacitiesOutsideTheTableClampAndSaySo) {
    const PricedComponent small = price_component(entry("sram"), 4 * 1024, 64);
    EXPECT_DOUBLE_EQ(small.read_pj, 10.0) << "the 8 KB point";
    EXPECT_TRUE(small.clamped);
}

TEST(ComponentPricing, DramIsPricedPerBit) {
    // 1,950 pJ per 64-bit access: 975 pJ per 32-bit word.
    EXPECT_DOUBLE_EQ(price_component(entry("dram"), std::nullopt, 32).read_pj, 975.0);
    EXPECT_DOUBLE_EQ(price_component(entry("dram"), std::nullopt, 16).write_pj, 487.5);
}

TEST(ComponentPricing, TheProcrustesBaselineModelUsesTheLibrary) {
    const Architecture arch = load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                                "arch_specs/procrustes_baseline_16x16.yaml");
    const ArchModel model = build_arch_model(arch);
    EXPECT_DOUBLE_EQ(model.mac_pj, 4.6) << "FP32 mult 3.7 + add 0.9 (Horowitz)";
    EXPECT_DOUBLE_EQ(model.levels[0].read_pj, 975.0);
    EXPECT_DOUBLE_EQ(model.levels[1].read_pj, 20.0) << "128 KB SRAM, 32-bit word";
    EXPECT_DOUBLE_EQ(model.levels[2].read_pj, 4.24) << "1 KB RF, 32-bit word";
    EXPECT_EQ(model.levels[2].instances, 256);
    EXPECT_EQ(model.levels[2].capacity_words, 256);
    EXPECT_EQ(model.fanout_x(1), 16);
    EXPECT_EQ(model.fanout_y(1), 16);
    EXPECT_EQ(model.fanout_x(0), 1);
    // Area: 17.11 mm² GLB + 256 × 0.198 mm² RFs + 256 × 11,884 µm² MACs.
    EXPECT_NEAR(model.area_um2(), 17109596.5 + 256 * 198004.71 + 256 * 11884.0, 1e-3);
}

TEST(ComponentPricing, AnArchitectureOverrideReplacesTheLibraryEntry) {
    const std::string yaml =
        "architecture: t\n"
        "component_library: " +
        std::string(TRAINLOOP_SOURCE_DIR) +
        "/arch_specs/components/default_45nm.yaml\n"
        "component_overrides:\n"
        "  - {name: fp32_mac, class: mac, word_bits: 32, mac_pj: 9.5, leakage_mw: 0.5, area_um2: "
        "1}\n"
        "pe_array: {rows: 2, columns: 2, datatype: fp32}\n"
        "storage:\n"
        "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
        "outputs]}\n"
        "  - {name: RF, class: regfile, capacity: 1 KB, per_pe: true, data_spaces: [weights, "
        "inputs, outputs]}\n"
        "networks: []\n";
    const ArchModel model =
        build_arch_model(parse_architecture(SpecNode::load_string(yaml, "t.yaml")));
    EXPECT_DOUBLE_EQ(model.mac_pj, 9.5);
    EXPECT_DOUBLE_EQ(model.mac_leakage_mw, 0.5);
}

}  // namespace
}  // namespace trainloop
