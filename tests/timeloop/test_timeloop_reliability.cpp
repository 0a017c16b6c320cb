// Timeloop inputs that contradict themselves or leave the representable
// range are refused with the file and key at fault: negative energies, a
// meshX that does not divide the instances, an instance range past 2^53, a
// dimension twice in one entry; an imperfect factor is blamed on the mapping.
#include <gtest/gtest.h>

#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

const std::string kCase = std::string(TRAINLOOP_SOURCE_DIR) + "/tests/timeloop/cases/fc/";

std::string text_of(const std::string& file) { return testing::read_text(kCase + file); }

// The fc case's files, with `file`'s text `from` replaced by `to`.
std::vector<std::string> files_with(const std::string& file, const std::string& from,
                                    const std::string& to) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml"}) {
        if (f != file) {
            files.push_back(kCase + f);
            continue;
        }
        std::string text = text_of(f);
        const auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at != std::string::npos) text.replace(at, from.size(), to);
        files.push_back(testing::temp_file(f, text));
    }
    return files;
}

SpecError import_error(const std::vector<std::string>& files) {
    return expect_spec_error([&] { import_timeloop(read_timeloop_spec(files)); });
}

TEST(TimeloopReliability, TheUnchangedCaseImports) {
    EXPECT_EQ(
        import_timeloop(read_timeloop_spec(files_with("map.yaml", "", ""))).arch.levels.size(), 3U);
}

TEST(TimeloopReliability, NegativeEnergiesAndAreasAreRefused) {
    const SpecError e = import_error(
        files_with("ERT.yaml", "{name: read,   energy: 10.0}", "{name: read,   energy: -10.0}"));
    EXPECT_TRUE(contains(e.where().file, "ERT.yaml"));
    EXPECT_EQ(e.key_path(), "ERT.tables[1].actions[0].energy");
    EXPECT_TRUE(contains(e.message(), "an energy of -10 pJ is out of range"));
}

TEST(TimeloopReliability, AMeshXThatContradictsTheInstanceCountIsRefusedAtIt) {
    const SpecError e =
        import_error(files_with("arch.yaml", "            meshX: 4\n        - name: MACC",
                                "            meshX: 3\n        - name: MACC"));
    EXPECT_TRUE(contains(e.where().file, "arch.yaml"));
    EXPECT_TRUE(contains(e.key_path(), "attributes.meshX"));
    EXPECT_TRUE(contains(e.message(), "meshX 3 does not divide the 16 instances of `RegFile`"));
    const SpecError y = import_error(
        files_with("arch.yaml", "            meshX: 4\n        - name: MACC",
                   "            meshX: 4\n            meshY: 8\n        - name: MACC"));
    EXPECT_TRUE(contains(y.message(), "meshX 4 × meshY 8 does not make the 16 instances"));
}

// The MAC unit's datawidth, the one attribute read without a check of its own.
TEST(TimeloopReliability, AMissingAttributeIsReportedAtTheAttributes) {
    const SpecError e = import_error(
        files_with("arch.yaml", "class: intmac\n          attributes:\n            datawidth: 16\n",
                   "class: intmac\n          attributes:\n"));
    EXPECT_TRUE(contains(e.where().file, "arch.yaml"));
    EXPECT_TRUE(contains(e.key_path(), "attributes"));
    EXPECT_TRUE(contains(e.message(), "no `datawidth` attribute"));
}

// (Found by fuzz_timeloop: `architecture:` a scalar, and a tagged v0.4 node
// a scalar, were indexed as mappings: yaml-cpp's BadSubscript, an internal
// error.)
TEST(TimeloopReliability, AnArchitectureOrNodeThatIsNotAMappingIsLocated) {
    auto with_arch = [](const std::string& arch) {
        std::vector<std::string> files = {testing::temp_file("arch.yaml", arch)};
        for (const char* f : {"problem.yaml", "map.yaml", "ERT.yaml"}) files.push_back(kCase + f);
        return files;
    };
    const SpecError scalar = import_error(with_arch("architecture:\n  ver\n"));
    EXPECT_TRUE(contains(scalar.where().file, "arch.yaml"));
    EXPECT_EQ(scalar.where().line, 2);
    EXPECT_TRUE(contains(scalar.message(), "expected a mapping"));
    const SpecError node =
        import_error(with_arch("architecture:\n  version: 0.4\n  nodes:\n  - !Component buffer\n"));
    EXPECT_TRUE(contains(node.where().file, "arch.yaml"));
    EXPECT_EQ(node.where().line, 4);
    EXPECT_TRUE(contains(node.message(), "a `!Component` node that is not a mapping"));
}

// (Found by fuzz_timeloop: a multi-line plain key, folded to 2,300 bytes,
// was the key path and the message.)
TEST(TimeloopReliability, AnUnknownTopLevelKeyIsQuotedShort) {
    const std::string key = "? " + std::string(2000, 'k') + "\n: 1\n";
    const SpecError e = import_error(files_with("ERT.yaml", "ERT:", key + "ERT:"));
    EXPECT_TRUE(contains(e.where().file, "ERT.yaml"));
    EXPECT_LT(e.key_path().size(), 70U);
    EXPECT_TRUE(contains(e.message(), "unknown top-level key `kkkk"));
    EXPECT_LT(e.message().size(), 120U);
}

TEST(TimeloopReliability, InstanceRangesPastTwoToThe53AreRefused) {
    const SpecError e = import_error(
        files_with("arch.yaml", "name: PE[0..15]", "name: PE[0..9223372036854775806]"));
    EXPECT_TRUE(contains(e.message(), "more than 2^53"));
    EXPECT_TRUE(contains(e.where().file, "arch.yaml"));
}

TEST(TimeloopReliability, ADimensionTwiceInOneEntryIsRefused) {
    const SpecError factors = import_error(files_with("map.yaml", "factors: C1 K1 R1 S1 N4 P1 Q1",
                                                      "factors: C1 K1 R1 S1 N4 P1 Q1 N2"));
    EXPECT_TRUE(contains(factors.message(), "dimension N given twice"));
    const SpecError permutation =
        import_error(files_with("map.yaml", "permutation: NCKRSPQ", "permutation: NNCKRSPQ"));
    EXPECT_TRUE(contains(permutation.message(), "dimension N given twice in the permutation"));
}

TEST(TimeloopReliability, AnImperfectFactorIsBlamedOnTheMappingEntry) {
    const SpecError e = import_error(
        files_with("map.yaml", "factors: C2 K2 R1 S1 N1 P1 Q1", "factors: C3 K2 R1 S1 N1 P1 Q1"));
    EXPECT_TRUE(contains(e.where().file, "map.yaml"));
    EXPECT_GT(e.where().line, 0);
    EXPECT_EQ(e.key_path(), "factors");
    EXPECT_TRUE(contains(e.message(), "factors of C multiply to 24, but the problem's C is 16"));
}

}  // namespace
}  // namespace trainloop
