// One test per kind of user error in an architecture file; each pins the
// file, line and key path of the SpecError.
#include <gtest/gtest.h>

#include "arch_test_support.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;
using arch_test::kInlineFile;
using arch_test::parse_inline;
using arch_test::tiny_with;

TEST(ArchErrors, TheInlineBaseArchitectureIsValid) {
    const Architecture arch = parse_inline(arch_test::kTinyArch);
    EXPECT_EQ(arch.levels.size(), 3u);
    EXPECT_EQ(arch.find_level("RF")->instances, 16);
    EXPECT_EQ(arch.find_level("GLB")->word_bits, 32) << "word_bits defaults to the datatype's";
    EXPECT_EQ(arch.networks[0].data_spaces, DataSpaceSet::all()) << "default: all data spaces";
    EXPECT_EQ(arch.networks[0].component, "array_network") << "default network component";
    EXPECT_FALSE(arch.levels[1].read_bandwidth.has_value()) << "no bandwidth: not a limit";
}

TEST(ArchErrors, BadYamlSyntaxIsLocated) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("  columns: 4", "  columns: [4, 5")); });
    EXPECT_EQ(e.where().file, kInlineFile);
    EXPECT_EQ(e.where().line, 6) << e.what();
    EXPECT_NE(std::string(e.what()).find("YAML syntax error"), std::string::npos) << e.what();
}

// Names a spec defines are checked in one place (common/names.hpp): the
// architecture's, a level's, a network's.
TEST(ArchErrors, NamesHoldOnlyNameCharacters) {
    const SpecError arch = expect_spec_error(
        [] { parse_inline(tiny_with("architecture: tiny", "architecture: \"tiny/../x\"")); });
    expect_located(arch, kInlineFile, 1, "architecture", "holds `/`");
    const SpecError level =
        expect_spec_error([] { parse_inline(tiny_with("name: GLB", "name: \"G\\u202ELB\"")); });
    expect_located(level, kInlineFile, 12, "storage[1].name", "U+202E");
    EXPECT_EQ(std::string(level.what()).find("\u202E"), std::string::npos) << level.what();
}

TEST(ArchErrors, UnknownKeySuggestsTheNearestKey) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("capacity: 64 KB", "capcity: 64 KB")); });
    expect_located(e, kInlineFile, 14, "storage[1].capcity", "unknown key `capcity`");
    EXPECT_EQ(e.hint(), "did you mean `capacity`?");
}

TEST(ArchErrors, UnknownTopLevelKeyIsReportedBeforeMissingOnes) {
    const SpecError e = expect_spec_error([] { parse_inline(tiny_with("storage:", "storge:")); });
    expect_located(e, kInlineFile, 7, "storge", "unknown key `storge`");
    EXPECT_EQ(e.hint(), "did you mean `storage`?");
}

TEST(ArchErrors, MissingKeyPointsAtItsMapping) {
    const SpecError e = expect_spec_error([] { parse_inline(tiny_with("    class: sram\n", "")); });
    expect_located(e, kInlineFile, 12, "storage[1]", "missing key `class`");
}

TEST(ArchErrors, WrongTypeIsReported) {
    const SpecError e = expect_spec_error([] { parse_inline(tiny_with("rows: 4", "rows: four")); });
    expect_located(e, kInlineFile, 4, "pe_array.rows", "`four` is not an integer");
}

TEST(ArchErrors, ListExpectedWhereAMappingIsGiven) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("data_spaces: [weights, inputs, outputs]\n  - name: GLB",
                               "data_spaces: {weights: 1}\n  - name: GLB"));
    });
    expect_located(e, kInlineFile, 11, "storage[0].data_spaces", "expected a list");
}

TEST(ArchErrors, NonPositiveCapacityIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("capacity: 64 KB", "capacity: 0")); });
    expect_located(e, kInlineFile, 14, "storage[1].capacity", "not a positive whole number");
}

TEST(ArchErrors, SharedBandwidthIsReadAndMustBePositive) {
    const Architecture arch = parse_inline(
        tiny_with("capacity: unbounded", "capacity: unbounded\n    shared_bandwidth: 16"));
    EXPECT_EQ(arch.levels[0].shared_bandwidth, 16.0);
    EXPECT_FALSE(arch.levels[0].read_bandwidth.has_value());
    const SpecError e = expect_spec_error([] {
        parse_inline(
            tiny_with("capacity: unbounded", "capacity: unbounded\n    shared_bandwidth: 0"));
    });
    expect_located(e, kInlineFile, 11, "storage[0].shared_bandwidth",
                   "a bandwidth of 0 words per cycle is out of range");
}

TEST(ArchErrors, NonPositiveArraySizeIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("columns: 4", "columns: 0")); });
    expect_located(e, kInlineFile, 5, "pe_array.columns", "non-positive value 0");
}

TEST(ArchErrors, OnlyDramMayBeUnbounded) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(tiny_with("capacity: 64 KB", "capacity: unbounded")); });
    expect_located(e, kInlineFile, 14, "storage[1].capacity", "only a dram level may be unbounded");
}

TEST(ArchErrors, CapacitySmallerThanAWordIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("capacity: 512 B", "capacity: 2 B")); });
    expect_located(e, kInlineFile, 18, "storage[2].capacity", "cannot hold one 32-bit word");
}

TEST(ArchErrors, UnknownEnumValueSuggestsTheNearestValue) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("kind: broadcast", "kind: brodcast")); });
    expect_located(e, kInlineFile, 24, "networks[0].kind", "unknown value `brodcast`");
    EXPECT_EQ(e.hint(), "did you mean `broadcast`?");
}

TEST(ArchErrors, UnknownStorageClassIsAnEnumError) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("class: sram", "class: sarm")); });
    expect_located(e, kInlineFile, 13, "storage[1].class", "unknown value `sarm`");
    EXPECT_EQ(e.hint(), "did you mean `sram`?");
}

TEST(ArchErrors, UnknownDataSpaceIsAnEnumError) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("data_spaces: [weights, inputs, outputs]\n    per_pe",
                               "data_spaces: [weight, inputs, outputs]\n    per_pe"));
    });
    expect_located(e, kInlineFile, 19, "storage[2].data_spaces[0]", "unknown value `weight`");
    EXPECT_EQ(e.hint(), "did you mean `weights`?");
}

TEST(ArchErrors, NetworkNamingAnUnknownLevelIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("parent: GLB", "parent: GBL")); });
    expect_located(e, kInlineFile, 25, "networks[0].parent", "unknown storage level `GBL`");
    EXPECT_EQ(e.hint(), "did you mean `GLB`?");
}

TEST(ArchErrors, NetworkChildMustBeBelowItsParent) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("child: RF", "child: DRAM")); });
    expect_located(e, kInlineFile, 26, "networks[0].child", "is not below parent `GLB`");
}

TEST(ArchErrors, UnknownComponentIsRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    child: RF\n", "    child: RF\n    component: noc_mesh\n"));
    });
    expect_located(e, kInlineFile, 27, "networks[0].component", "unknown component `noc_mesh`");
}

TEST(ArchErrors, MisspelledComponentSuggestsTheNearest) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    child: RF\n", "    child: RF\n    component: array_netwrk\n"));
    });
    expect_located(e, kInlineFile, 27, "networks[0].component", "unknown component");
    EXPECT_EQ(e.hint(), "did you mean `array_network`?");
}

TEST(ArchErrors, ComponentOfTheWrongClassIsRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    per_pe: true\n", "    per_pe: true\n    component: sram\n"));
    });
    expect_located(e, kInlineFile, 21, "storage[2].component", "is a sram component");
}

TEST(ArchErrors, MissingLibraryFileIsLocatedAtItsKey) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(tiny_with("components/default_45nm.yaml", "components/nope.yaml")); });
    expect_located(e, kInlineFile, 2, "component_library", "not found");
}

// A spec kept anywhere names a shipped library by name: no absolute path
// into the source tree (which the results database would then store).
TEST(ArchErrors, AShippedLibraryIsFoundByNameFromAnywhere) {
    const std::string outside = "/nonexistent_dir/my_arch.yaml";
    for (const std::string name : {"default_45nm", "default_45nm.yaml"}) {
        const std::string text = tiny_with("components/default_45nm.yaml", name);
        const Architecture arch = parse_architecture(SpecNode::load_string(text, outside));
        EXPECT_EQ(arch.component_library_path,
                  std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/components/default_45nm.yaml")
            << name;
    }
    const SpecError e = expect_spec_error([&] {
        parse_architecture(SpecNode::load_string(
            tiny_with("components/default_45nm.yaml", "default_54nm"), outside));
    });
    EXPECT_NE(e.expected().find("accelergy_40nm, default_45nm"), std::string::npos) << e.expected();
}

TEST(ArchErrors, DuplicateLevelNameIsRejected) {
    const SpecError e = expect_spec_error([] { parse_inline(tiny_with("name: RF", "name: GLB")); });
    expect_located(e, kInlineFile, 16, "storage[2].name", "duplicate level name `GLB`");
    EXPECT_EQ(e.hint(), "`GLB` is first defined at line 12");
}

TEST(ArchErrors, DataSpaceHeldByNoLevelIsRejected) {
    // Rebuilt by appending: GCC 12 at -O3 warns falsely (-Wrestrict) on replace() here.
    const std::string& tiny = arch_test::kTinyArch;
    const std::string from = ", outputs]";
    std::string text;
    std::size_t done = 0;
    for (auto at = tiny.find(from); at != std::string::npos; at = tiny.find(from, done)) {
        text.append(tiny, done, at - done).append("]");
        done = at + from.size();
    }
    text.append(tiny, done, std::string::npos);
    const SpecError e = expect_spec_error([&] { parse_inline(text); });
    expect_located(e, kInlineFile, 8, "storage", "no storage level holds the `outputs` data space");
}

TEST(ArchErrors, PerPeAndInstancesTogetherAreRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    per_pe: true\n", "    per_pe: true\n    instances: 16\n"));
    });
    expect_located(e, kInlineFile, 21, "storage[2].instances", "together with `per_pe: true`");
}

TEST(ArchErrors, InstancesMustDivideThePeCount) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    capacity: 64 KB\n", "    capacity: 64 KB\n    instances: 3\n"));
    });
    expect_located(e, kInlineFile, 15, "storage[1].instances", "do not divide the 16 PEs");
}

TEST(ArchErrors, NetworkDataSpaceMustBeHeldByItsLevels) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    data_spaces: [weights, inputs, outputs]\n    per_pe: true",
                               "    data_spaces: [weights, inputs]\n    per_pe: true") +
                     "    data_spaces: [outputs]\n");
    });
    expect_located(e, kInlineFile, 27, "networks[0].data_spaces",
                   "child `RF` does not hold the `outputs` data space");
}

TEST(ArchErrors, DuplicateNetworkNameIsRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(arch_test::kTinyArch +
                     "  - {name: bcast, axis: y, kind: reduction, parent: GLB, child: RF}\n");
    });
    expect_located(e, kInlineFile, 27, "networks[1].name", "duplicate network name `bcast`");
}

TEST(ArchErrors, HopEnergyAndComponentAreExclusive) {
    const SpecError e = expect_spec_error([] {
        parse_inline(arch_test::kTinyArch +
                     "    hop_energy_pj: 2.0\n    component: array_network\n");
    });
    expect_located(e, kInlineFile, 28, "networks[0].component",
                   "both `hop_energy_pj` and `component`");
}

TEST(ArchErrors, MacComponentMustMatchTheDatatypeWidth) {
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("datatype: fp32", "datatype: fp32\n  mac_component: int8_mac"));
    });
    expect_located(e, kInlineFile, 7, "pe_array.mac_component", "works on 8-bit words");
}

TEST(ArchErrors, DatatypeWithoutADefaultMacComponentIsRejected) {
    const SpecError e =
        expect_spec_error([] { parse_inline(tiny_with("datatype: fp32", "datatype: bf16")); });
    expect_located(e, kInlineFile, 6, "pe_array.datatype", "unknown component `bf16_mac`");
}

}  // namespace
}  // namespace trainloop
