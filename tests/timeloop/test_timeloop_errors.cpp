// Unsupported or malformed Timeloop inputs are reported precisely (file,
// line, key, what was expected), never silently ignored; what timeloop-model
// itself ignores is reported as a note.
#include <gtest/gtest.h>

#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

const std::string kGolden =
    std::string(TRAINLOOP_SOURCE_DIR) + "/tests/golden/timeloop/conv3x_fixed/";

std::string golden(const std::string& file) { return testing::read_text(kGolden + file); }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "fixture text `" << from << "` not found";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// The golden files, with one of them swapped for `variant`.
std::vector<std::string> files_with(const std::string& which, const std::string& variant) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ART.yaml"}) {
        files.push_back(f == which ? testing::temp_file("variant_" + which, variant) : kGolden + f);
    }
    return files;
}

TimeloopCase import_files(const std::vector<std::string>& files) {
    return import_timeloop(read_timeloop_spec(files));
}

TEST(TimeloopErrors, SparseOptimizationsAreReadNotIgnored) {
    // test_timeloop_sparse_import.cpp covers what they become; here: a
    // malformed one is refused at its key.
    const auto files =
        files_with("ART.yaml", golden("ART.yaml") + "sparse_optimizations:\n  target: []\n");
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_EQ(e.hint(), "did you mean `targets`?");
}

TEST(TimeloopErrors, AMisspelledTopLevelKeyGetsADidYouMean) {
    const auto files = files_with("map.yaml", replaced(golden("map.yaml"), "mapping:", "mappnig:"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_EQ(e.hint(), "did you mean `mapping`?");
    EXPECT_TRUE(contains(e.where().file, "variant_map.yaml"));
}

TEST(TimeloopErrors, KeysTimeloopModelIgnoresBecomeNotes) {
    const auto files =
        files_with("ART.yaml", golden("ART.yaml") + "mapper:\n  algorithm: random\n");
    const TimeloopSpec spec = read_timeloop_spec(files);
    ASSERT_FALSE(spec.notes.empty());
    EXPECT_TRUE(contains(spec.notes.back(), "`mapper` configures Timeloop's mapper"));
}

TEST(TimeloopErrors, OtherProblemShapesAreUnsupported) {
    // A built-in shape other than the CNN layer, named without its projections.
    const auto named = files_with("problem.yaml", "problem:\n  shape: GEMM\n  instance: {C: 4}\n");
    const SpecError e = expect_spec_error([&] { import_files(named); });
    EXPECT_TRUE(contains(e.message(), "problem shape `GEMM` is not supported"));
    EXPECT_GT(e.where().line, 0);
    // An inline shape with other dimensions.
    const auto gemm = files_with(
        "problem.yaml", replaced(golden("problem.yaml"), "dimensions: [ C, K, R, S, N, P, Q ]",
                                 "dimensions: [ M, N, K ]"));
    const SpecError d = expect_spec_error([&] { import_files(gemm); });
    EXPECT_TRUE(contains(d.message(), "dimensions are not those of the CNN layer"));
    EXPECT_GT(d.where().line, 0);
    // The CNN dimensions with another projection (inputs without the sliding window).
    const auto projection = files_with(
        "problem.yaml", replaced(golden("problem.yaml"), "- [ [R, Wdilation], [P, Wstride] ]",
                                 "- [ [P, Wstride] ]"));
    const SpecError p = expect_spec_error([&] { import_files(projection); });
    EXPECT_TRUE(contains(p.message(), "the projection of Inputs is not the CNN layer's"));
}

TEST(TimeloopErrors, AnInlineShapeIsReadByItsProjectionsNotItsName) {
    const auto files = files_with(
        "problem.yaml", replaced(golden("problem.yaml"), "name: CNN-Layer", "name: MyConv"));
    const TimeloopCase c = import_files(files);
    EXPECT_EQ(c.problem.space.bounds[Dim::C], 128);
}

TEST(TimeloopErrors, ImperfectFactorsAreRefusedWithTheDimension) {
    const auto files =
        files_with("map.yaml", replaced(golden("map.yaml"), "factors: C4 K4 R1 S1 N16 P1 Q1",
                                        "factors: C4 K3 R1 S1 N16 P1 Q1"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "factors of K multiply to 96, but the problem's K is 128"));
    EXPECT_TRUE(contains(e.hint(), "imperfect"));
}

TEST(TimeloopErrors, AnUnknownMappingTargetSuggestsALevel) {
    const auto files = files_with(
        "map.yaml", replaced(golden("map.yaml"), "target: GlobalBuffer\n  type: temporal",
                             "target: GlobalBufer\n  type: temporal"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "no storage level `GlobalBufer`"));
    EXPECT_EQ(e.hint(), "did you mean `GlobalBuffer`?");
    EXPECT_GT(e.where().line, 0);
}

TEST(TimeloopErrors, APermutationMustNameEveryDimensionWithAFactor) {
    const auto files = files_with(
        "map.yaml", replaced(golden("map.yaml"), "permutation: QPSRCKN", "permutation: QPSRCN"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "leaves out K, whose factor is 2"));
}

TEST(TimeloopErrors, UnmodelledBufferAttributesAreRefused) {
    const auto files = files_with(
        "arch.yaml", replaced(golden("arch.yaml"), "n_banks: 32", "multiple_buffering: 2"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "`multiple_buffering` of `GlobalBuffer` is not supported"));
    EXPECT_TRUE(contains(e.key_path(), "multiple_buffering"));
}

TEST(TimeloopImport, SharedBandwidthIsReadAndMustBePositive) {
    auto files = files_with("arch.yaml", replaced(golden("arch.yaml"), "n_banks: 32",
                                                  "n_banks: 32\n          shared_bandwidth: 24"));
    EXPECT_EQ(*import_files(files).arch.levels[1].shared_bandwidth, 24.0);
    files = files_with("arch.yaml", replaced(golden("arch.yaml"), "n_banks: 32",
                                             "n_banks: 32\n          shared_bandwidth: 0"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "a bandwidth of 0 words per cycle is out of range"))
        << e.message();
    EXPECT_TRUE(contains(e.key_path(), "shared_bandwidth")) << e.key_path();
}

TEST(TimeloopErrors, AMissingErtEntryNamesTheComponent) {
    const auto files = files_with(
        "ERT.yaml", replaced(golden("ERT.yaml"), "system.chip.GlobalBuffer", "system.chip.Other"));
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "no ERT entry for `system.chip.GlobalBuffer`"));
}

TEST(TimeloopErrors, WithoutAnErtTheFilesAreIncomplete) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml"}) files.push_back(kGolden + f);
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "no `ERT:` in the given files"));
    EXPECT_TRUE(contains(e.hint(), "Accelergy"));
}

TEST(TimeloopErrors, ATopLevelKeyGivenTwiceIsAnError) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ERT.yaml"}) {
        files.push_back(kGolden + f);
    }
    const SpecError e = expect_spec_error([&] { import_files(files); });
    EXPECT_TRUE(contains(e.message(), "`ERT` is given twice"));
}

TEST(TimeloopImport, GoldenSpecConvertsToTheExpectedNativeShape) {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ART.yaml"}) {
        files.push_back(kGolden + f);
    }
    const TimeloopCase c = import_files(files);
    ASSERT_EQ(c.arch.levels.size(), 3u);
    EXPECT_EQ(c.arch.levels[1].name, "GlobalBuffer");
    EXPECT_EQ(*c.arch.levels[1].capacity_bytes, 16384 * 64 / 8);  // depth × width bits
    EXPECT_EQ(c.arch.levels[1].word_bits, 16);
    EXPECT_EQ(*c.arch.levels[1].read_bandwidth, 16.0);
    EXPECT_EQ(c.arch.levels[2].instances, 256);
    EXPECT_TRUE(c.arch.levels[2].per_pe);
    EXPECT_EQ(c.arch.pe_array.columns, 16);
    EXPECT_EQ(c.arch.pe_array.rows, 16);
    EXPECT_EQ(c.arch.pe_array.datatype, Datatype::int16);
    // Per-word energy: the ERT's vector energy ÷ block size (64/16 = 4 words).
    const Component* glb = c.arch.components.find("GlobalBuffer");
    ASSERT_NE(glb, nullptr);
    EXPECT_DOUBLE_EQ(*glb->points[0].energy.get(Action::read), 32.377775 / 4);
    // Permutation QPSRCKN (innermost first) → K C R S P Q outermost first.
    EXPECT_EQ(c.mapping.level(2).temporal[0].dim, Dim::K);
    EXPECT_EQ(c.mapping.level(2).temporal[5].dim, Dim::Q);
    // split 1: C on X, K on Y.
    EXPECT_EQ(c.mapping.level(1).spatial_x[0].dim, Dim::C);
    EXPECT_EQ(c.mapping.level(1).spatial_y[0].dim, Dim::K);
}

}  // namespace
}  // namespace trainloop
