// Pricing components of the default 45 nm library at a level's size and
// width (expected values derived by hand from arch_specs/components/default_45nm.yaml),
// and architecture overrides reaching the evaluator's model.
#include <gtest/gtest.h>

#include <cmath>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "arch/pricing_notes.hpp"
#include "common/spec_error.hpp"
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
    EXPECT_FALSE(rf.extrapolated);
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

// default_45nm states `outside_table: sqrt_capacity`: below the smallest and
// above the largest entry, energy scales as sqrt(capacity) from the nearest
// entry and area linearly — never the nearest entry's price as is.
TEST(ComponentPricing, CapacitiesOutsideTheTableFollowTheLibrarysStatedRule) {
    const PricedComponent small = price_component(entry("sram"), 4 * 1024, 64);
    EXPECT_DOUBLE_EQ(small.read_pj, 10.0 * std::sqrt(0.5)) << "the 8 KB point × sqrt(4/8)";
    EXPECT_DOUBLE_EQ(small.area_um2, 1069349.78 / 2);
    EXPECT_TRUE(small.extrapolated);
    // A 4 B register: 64 times smaller than the 256 B entry.
    const PricedComponent reg = price_component(entry("regfile"), 4, 32);
    EXPECT_DOUBLE_EQ(reg.read_pj, 2.12 / 8.0);
    EXPECT_DOUBLE_EQ(reg.area_um2, 49501.18 / 64.0);
    EXPECT_TRUE(reg.extrapolated);
    const PricedComponent big = price_component(entry("sram"), 4 * 1024 * 1024, 32);
    EXPECT_DOUBLE_EQ(big.read_pj, 50.0 * 2.0) << "the 1 MB point × sqrt(4)";
}

TEST(ComponentPricing, AnExtrapolatedLevelIsReportedAsANote) {
    const std::string yaml =
        "architecture: t\n"
        "component_library: " +
        std::string(TRAINLOOP_SOURCE_DIR) +
        "/arch_specs/components/default_45nm.yaml\n"
        "pe_array: {rows: 2, columns: 2, datatype: fp32}\n"
        "storage:\n"
        "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
        "outputs]}\n"
        "  - {name: Reg, class: regfile, capacity: 4 B, per_pe: true, data_spaces: [weights, "
        "inputs, outputs]}\n"
        "networks: []\n";
    const Architecture arch = parse_architecture(SpecNode::load_string(yaml, "t.yaml"));
    const std::vector<std::string> notes = pricing_notes(arch);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("level `Reg` (4 bytes)"), std::string::npos) << notes[0];
    EXPECT_NE(notes[0].find("sqrt(capacity)"), std::string::npos) << notes[0];
    EXPECT_NEAR(build_arch_model(arch).levels[1].read_pj, 2.12 / 8.0, 1e-12);
}

// A library that refuses to extrapolate (accelergy_40nm's regfile follows
// Aladdin's formula only where it is tabulated): a level outside the table
// is a located error at its capacity.
TEST(ComponentPricing, ARefusingTableRejectsAnOutOfRangeLevelAtItsCapacity) {
    const std::string yaml =
        "architecture: t\n"
        "component_library: " +
        std::string(TRAINLOOP_SOURCE_DIR) +
        "/arch_specs/components/accelergy_40nm.yaml\n"
        "pe_array: {rows: 2, columns: 2, datatype: fp32}\n"
        "storage:\n"
        "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
        "outputs]}\n"
        "  - {name: Reg, class: regfile, capacity: 4 B, per_pe: true, data_spaces: [weights, "
        "inputs, outputs]}\n"
        "networks: []\n";
    try {
        parse_architecture(SpecNode::load_string(yaml, "t.yaml"));
        FAIL() << "expected a SpecError";
    } catch (const SpecError& e) {
        EXPECT_EQ(e.where().line, 6);
        EXPECT_EQ(e.key_path(), "storage[1].capacity");
        EXPECT_NE(e.message().find("outside the capacities component `regfile`"), std::string::npos)
            << e.message();
        EXPECT_NE(e.message().find("64–4096 bytes"), std::string::npos) << e.message();
    }
}

TEST(ComponentPricing, DramIsPricedPerBit) {
    // 1,950 pJ per 64-bit access: 975 pJ per 32-bit word.
    EXPECT_DOUBLE_EQ(price_component(entry("dram"), std::nullopt, 32).read_pj, 975.0);
    EXPECT_DOUBLE_EQ(price_component(entry("dram"), std::nullopt, 16).write_pj, 487.5);
}

TEST(ComponentPricing, TheModelPricesEveryLevelFromTheLibrary) {
    // The Procrustes baseline's hierarchy on the 45 nm library.
    Architecture arch = load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                          "arch_specs/procrustes_baseline_16x16.yaml");
    arch.components = library();
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

// accelergy_40nm: the Accelergy 40 nm figures the Procrustes specs use
// (each cited in the library file).
TEST(ComponentPricing, TheProcrustesSpecsUseAccelergysFortyNanometreFigures) {
    const Architecture arch = load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                                "arch_specs/procrustes_baseline_16x16.yaml");
    const ArchModel model = build_arch_model(arch);
    EXPECT_DOUBLE_EQ(model.mac_pj, 32.328) << "Aladdin fp_sp_multiplier 24.4 + fp_sp_adder 7.928";
    EXPECT_DOUBLE_EQ(model.levels[0].read_pj, 256.0) << "LPDDR4, 8 pJ/bit";
    EXPECT_DOUBLE_EQ(model.levels[1].read_pj, 52.612 / 2) << "CACTI 128 KB, half a 64-bit access";
    EXPECT_DOUBLE_EQ(model.levels[1].write_pj, 53.372 / 2);
    // Aladdin regfile, depth 256 × 32 bits: 0.009·32 + 0.029015·8/32·256.
    EXPECT_NEAR(model.levels[2].read_pj, 0.009 * 32 + 0.029015 * 8.0 / 32.0 * 256, 1e-4);
    EXPECT_EQ(model.networks[0].hop_pj, 0.0) << "Timeloop's default wire energy";
    // An FP32 MAC costs 15 RF accesses: MACs dominate FP32 training (§VI-C).
    EXPECT_GT(model.mac_pj, 15 * model.levels[2].read_pj);
    EXPECT_TRUE(pricing_notes(arch).empty());
    // Area: Table III (GLB + 256 × (RF + FP32 MAC)).
    EXPECT_NEAR(model.area_um2(), 17109596.5 + 256 * (198004.71 + 18875.72), 1e-3);
}

TEST(ComponentPricing, TheScaledUpGlbIsPricedByTheStatedRuleAndSaysSo) {
    const Architecture arch = load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                                "arch_specs/procrustes_baseline_32x32.yaml");
    EXPECT_NEAR(build_arch_model(arch).levels[1].read_pj, 52.612 / 2 * std::sqrt(2.0), 1e-9);
    const std::vector<std::string> notes = pricing_notes(arch);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("level `GLB` (262144 bytes)"), std::string::npos) << notes[0];
}

// §VI-F: Procrustes' units (Table III) add area to the dense design: 14 % of
// the sparse accelerator's area (16.5 % of the baseline's).
TEST(ComponentPricing, TheSparseUnitsAddTableIIIsAreaToTheArchitecture) {
    const auto load = [](const char* name) {
        return build_arch_model(
            load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "arch_specs" / name));
    };
    const double dense = load("procrustes_baseline_16x16.yaml").area_um2();
    const double sparse = load("procrustes_sparse_16x16.yaml").area_um2();
    const double added = 256 * (44932.66 + 1920.84) + 9861.4 + 8725.23;
    EXPECT_NEAR(sparse - dense, added, 1e-3);
    EXPECT_NEAR((sparse - dense) / sparse, 0.14, 0.005);
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
