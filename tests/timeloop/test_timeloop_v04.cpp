// Timeloop v0.4 specifications (timeloopfe's `nodes:` form): the golden case's
// architecture written as v0.4 imports to the same architecture, mapping and
// evaluation as its v0.3 form; a component's `constraints: dataspace:` gives
// its keep set; timeloopfe's problem names (M for K, derived H/W) are read.
#include <gtest/gtest.h>

#include <filesystem>

#include "arch/arch_model.hpp"
#include "eval/evaluation.hpp"
#include "support/architecture_equality.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;
using testing::contains;

const fs::path kGolden = fs::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/conv3x_fixed";

std::string golden(const std::string& file) { return testing::read_text(kGolden / file); }

// The golden architecture (arch.yaml, v0.3) in timeloopfe's v0.4 form;
// `regfile_extra` is appended to the RegFile component.
std::string v04_arch(const std::string& regfile_extra = "") {
    return R"(architecture:
  version: 0.4
  nodes:
  - !Container
    name: system
    attributes: {technology: 45nm}
  - !Component
    name: DRAM
    class: DRAM
    attributes: {type: LPDDR4, width: 64, datawidth: 16}
  - !Container
    name: chip
  - !Component
    name: GlobalBuffer
    class: smartbuffer_SRAM
    attributes: {depth: 16384, width: 64, datawidth: 16, n_banks: 32, read_bandwidth: 16,
                 write_bandwidth: 16}
  - !Container
    name: PE
    spatial: {meshX: 16, meshY: 16}
  - !Component
    name: RegFile
    class: smartbuffer_RF
    attributes: {depth: 512, width: 16, datawidth: 16}
)" + regfile_extra +
           R"(  - !Component
    name: MACC
    class: intmac
    attributes: {datawidth: 16}
)";
}

TimeloopCase import_with(const std::string& arch, const std::string& problem,
                         const std::string& map) {
    return import_timeloop(read_timeloop_spec(
        {testing::temp_file("arch.yaml", arch), testing::temp_file("problem.yaml", problem),
         testing::temp_file("map.yaml", map), (kGolden / "ERT.yaml").string(),
         (kGolden / "ART.yaml").string()}));
}

Evaluation evaluate_imported(const TimeloopCase& c) {
    return evaluate(build_arch_model(c.arch), c.problem, c.mapping);
}

TEST(TimeloopV04, TheGoldenArchitectureImportsAsItsV03Form) {
    const TimeloopCase v03 =
        import_with(golden("arch.yaml"), golden("problem.yaml"), golden("map.yaml"));
    const TimeloopCase v04 = import_with(v04_arch(), golden("problem.yaml"), golden("map.yaml"));
    testing::expect_same_architecture(v04.arch, v03.arch);
    EXPECT_EQ(v04.mapping, v03.mapping);
    const Evaluation a = evaluate_imported(v04);
    const Evaluation b = evaluate_imported(v03);
    ASSERT_TRUE(a.valid());
    EXPECT_EQ(a.cycles, 7'225'344);  // timeloop-model's, on the v0.3 files
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_DOUBLE_EQ(a.energy_pj, b.energy_pj);
}

TEST(TimeloopV04, AComponentsDataspaceConstraintGivesItsKeepSet) {
    const std::string constrained =
        v04_arch("    constraints: {dataspace: {keep: [Weights], bypass: [Inputs, Outputs]}}\n");
    const TimeloopCase c = import_with(constrained, golden("problem.yaml"), golden("map.yaml"));
    const std::size_t rf = *c.arch.level_index("RegFile");
    EXPECT_TRUE(c.mapping.level(rf).keep.contains(DataSpace::weights));
    EXPECT_FALSE(c.mapping.level(rf).keep.contains(DataSpace::inputs));
    EXPECT_FALSE(c.mapping.level(rf).keep.contains(DataSpace::outputs));
    // The mapping's own datatype entry must agree with it.
    const std::string contradicting =
        golden("map.yaml") + "- {target: RegFile, type: datatype, keep: [Inputs], bypass: []}\n";
    const SpecError e = testing::expect_spec_error(
        [&] { import_with(constrained, golden("problem.yaml"), contradicting); });
    EXPECT_TRUE(contains(e.message(), "RegFile"));
}

// A data space in both `keep` and `bypass` contradicts itself (Timeloop
// would bypass everything at the level): refused at the bypass entry, in a
// v0.4 constraint and in a datatype entry of a v0.3 or v0.4 mapping.
TEST(TimeloopV04, ADataSpaceBothKeptAndBypassedIsRefused) {
    const std::string contradictory =
        v04_arch("    constraints: {dataspace: {keep: [Weights], bypass: [Weights]}}\n");
    const std::string arch_file = testing::temp_file("arch.yaml", contradictory);
    const SpecError e = testing::expect_spec_error([&] {
        read_timeloop_spec({arch_file, (kGolden / "problem.yaml").string(),
                            (kGolden / "map.yaml").string(), (kGolden / "ERT.yaml").string()});
    });
    EXPECT_EQ(e.where().file, arch_file);
    EXPECT_EQ(e.where().line, 25);
    EXPECT_TRUE(contains(e.key_path(), "dataspace.bypass"));
    EXPECT_TRUE(contains(e.message(), "`Weights` is both kept and bypassed at `RegFile`"));
    for (const std::string entry :
         {"- {target: RegFile, type: datatype, keep: [Inputs, Outputs], bypass: [Outputs]}\n",
          "- {target: RegFile, type: bypass, keep: [Weights], bypass: [Inputs, Weights]}\n"}) {
        const std::string map_file = testing::temp_file("map.yaml", golden("map.yaml") + entry);
        const SpecError m = testing::expect_spec_error([&] {
            read_timeloop_spec({(kGolden / "arch.yaml").string(),
                                (kGolden / "problem.yaml").string(), map_file,
                                (kGolden / "ERT.yaml").string()});
        });
        EXPECT_EQ(m.where().file, map_file) << entry;
        EXPECT_TRUE(contains(m.key_path(), "bypass[")) << m.key_path();
        EXPECT_TRUE(contains(m.message(), "both kept and bypassed at `RegFile`")) << m.message();
    }
}

TEST(TimeloopV04, TimeloopfesProblemNamesAreRead) {
    // timeloopfe calls the output channels M and lists the input's size,
    // which Timeloop's projection does not read (noted).
    std::string problem = golden("problem.yaml");
    const auto at = problem.find("    K: 128");
    ASSERT_NE(at, std::string::npos);
    problem.replace(at, 10, "    M: 128\n    H: 30\n    W: 30");
    const auto dims = problem.find("dimensions: [ C, K,");
    ASSERT_NE(dims, std::string::npos);
    problem.replace(dims, 19, "dimensions: [ C, M,");
    const std::string projection = "      - [ [K] ]";
    for (auto p = problem.find(projection); p != std::string::npos; p = problem.find(projection))
        problem.replace(p, projection.size(), "      - [ [M] ]");
    const TimeloopSpec spec = read_timeloop_spec(
        {testing::temp_file("arch.yaml", v04_arch()), testing::temp_file("problem.yaml", problem),
         (kGolden / "map.yaml").string(), (kGolden / "ERT.yaml").string()});
    EXPECT_EQ(spec.problem.bounds[Dim::K], 128);
    bool noted = false;
    for (const std::string& note : spec.notes) noted |= contains(note, "`H` is not part");
    EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace trainloop
