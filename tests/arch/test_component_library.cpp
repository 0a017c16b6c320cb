#include <gtest/gtest.h>

#include "arch_test_support.hpp"
#include "components/component_library_parser.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;

const std::string kLibFile = "lib.yaml";

// Line numbers matter: the error tests point at them.
const std::string kLib = R"(components: tiny_lib
technology: 45nm
entries:
  - name: fp32_mac
    class: mac
    word_bits: 32
    mac_pj: 4.6
    leakage_mw: 0.0
    area_um2: 11884
  - name: sram
    class: sram
    table:
      - {capacity: 8 KB, word_bits: 64, read_pj: 10, write_pj: 10, leakage_mw: 0, area_um2: 1}
      - {capacity: 32 KB, word_bits: 64, read_pj: 20, write_pj: 22, update_pj: 25, leakage_mw: 0, area_um2: 4}
)";

ComponentLibrary parse_lib(const std::string& text) {
    return parse_component_library(SpecNode::load_string(text, kLibFile));
}

std::string lib_with(const std::string& from, const std::string& to) {
    std::string text = kLib;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "test bug: `" << from << "` not in kLib";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

TEST(ComponentLibrary, ParsesOnePointAndTableComponents) {
    const ComponentLibrary lib = parse_lib(kLib);
    EXPECT_EQ(lib.name, "tiny_lib");
    EXPECT_EQ(lib.technology, "45nm");
    ASSERT_EQ(lib.components.size(), 2u);
    const Component* sram = lib.find("sram");
    ASSERT_NE(sram, nullptr);
    ASSERT_EQ(sram->points.size(), 2u);
    EXPECT_EQ(sram->points[1].capacity_bytes, 32 * 1024);
    EXPECT_DOUBLE_EQ(*sram->points[1].energy.get(Action::update), 25.0);
    EXPECT_DOUBLE_EQ(*sram->points[0].energy.get(Action::update), 10.0) << "defaults to write";
    EXPECT_FALSE(lib.find("fp32_mac")->points[0].capacity_bytes.has_value());
}

TEST(ComponentLibrary, UnsortedTableIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("capacity: 32 KB", "capacity: 4 KB")); });
    expect_located(e, kLibFile, 14, "entries[1].table[1]", "comes after");
}

TEST(ComponentLibrary, RepeatedTablePointIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("capacity: 32 KB", "capacity: 8 KB")); });
    expect_located(e, kLibFile, 14, "entries[1].table[1]", "repeats");
}

TEST(ComponentLibrary, NonPositiveEnergyIsRejected) {
    const SpecError e = expect_spec_error([] { parse_lib(lib_with("mac_pj: 4.6", "mac_pj: 0")); });
    expect_located(e, kLibFile, 7, "entries[0].mac_pj", "an energy of 0 pJ is out of range");
}

TEST(ComponentLibrary, NegativeAreaIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("area_um2: 11884", "area_um2: -1")); });
    expect_located(e, kLibFile, 9, "entries[0].area_um2", "is out of range");
}

TEST(ComponentLibrary, ActionOfAnotherClassIsAnUnknownKey) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("mac_pj: 4.6", "read_pj: 4.6")); });
    expect_located(e, kLibFile, 7, "entries[0].read_pj", "unknown key `read_pj`");
}

TEST(ComponentLibrary, MisspelledKeySuggestsTheNearest) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("read_pj: 10,", "raed_pj: 10,")); });
    expect_located(e, kLibFile, 13, "entries[1].table[0].raed_pj", "unknown key `raed_pj`");
    EXPECT_EQ(e.hint(), "did you mean `read_pj`?");
}

TEST(ComponentLibrary, MisspelledClassKeyIsReportedAsSuch) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("    class: mac", "    clas: mac")); });
    expect_located(e, kLibFile, 5, "entries[0].clas", "unknown key `clas`");
    EXPECT_EQ(e.hint(), "did you mean `class`?");
}

TEST(ComponentLibrary, DuplicateComponentNameIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("name: sram", "name: fp32_mac")); });
    expect_located(e, kLibFile, 10, "entries[1].name", "duplicate component `fp32_mac`");
}

TEST(ComponentLibrary, MissingActionEnergyIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_lib(lib_with("write_pj: 10, leakage_mw", "leakage_mw")); });
    expect_located(e, kLibFile, 13, "entries[1].table[0]", "missing key `write_pj`");
}

TEST(ComponentOverrides, ReplaceLibraryEntriesAndAddNewOnes) {
    const Architecture arch = arch_test::parse_inline(arch_test::kTinyArch + R"(component_overrides:
  - {name: fp32_mac, class: mac, word_bits: 32, mac_pj: 1.0, leakage_mw: 0.5, area_um2: 100}
  - {name: fast_noc, class: network, word_bits: 32, hop_pj: 0.5, leakage_mw: 0, area_um2: 0}
)");
    const Component* mac = arch.components.find("fp32_mac");
    ASSERT_NE(mac, nullptr);
    EXPECT_DOUBLE_EQ(*mac->points[0].energy.get(Action::mac), 1.0);
    EXPECT_DOUBLE_EQ(mac->points[0].leakage_mw, 0.5);
    EXPECT_NE(arch.components.find("fast_noc"), nullptr);
    EXPECT_NE(arch.components.find("sram"), nullptr) << "library entries not overridden stay";
}

TEST(ComponentOverrides, AreValidatedLikeLibraryEntries) {
    const SpecError e = expect_spec_error([] {
        arch_test::parse_inline(arch_test::kTinyArch + R"(component_overrides:
  - {name: fp32_mac, class: mac, word_bits: 32, mac_pj: -1, leakage_mw: 0, area_um2: 1}
)");
    });
    expect_located(e, arch_test::kInlineFile, 28, "component_overrides[0].mac_pj",
                   "an energy of -1 pJ is out of range");
}

}  // namespace
}  // namespace trainloop
