// `sweep --check` validates a sweep without running it; a sweep whose
// points all fail exits non-zero; `--arch` takes a shipped architecture name.
#include <gtest/gtest.h>

#include <filesystem>

#include "store_test_support.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::run_trainloop;
using testing::temp_file;

const std::string kTiny = std::string(TRAINLOOP_SOURCE_DIR) + "/examples/sweeps/tiny.yaml";

TEST(SweepCheck, AValidSweepIsReportedWithItsPointCountAndNothingIsWritten) {
    const auto r = run_trainloop("sweep --check " + kTiny);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("sweep tiny is valid: 40 points"), std::string::npos) << r.output;
}

TEST(SweepCheck, ShippedSweepsAreValid) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(TRAINLOOP_SOURCE_DIR) +
                                                                 "/examples/sweeps")) {
        if (entry.path().extension() != ".yaml") continue;
        const auto r = run_trainloop("sweep --check " + entry.path().string());
        EXPECT_EQ(r.exit_code, 0) << entry.path() << "\n" << r.output;
    }
}

// --check notes the (architecture, dataflow) pairs whose points will fail,
// and says nothing of a pair every point of which is excluded.
TEST(SweepCheck, NotesConflictsOnlyForPointsThatRun) {
    const std::string constraints =
        std::string(TRAINLOOP_SOURCE_DIR) + "/examples/constraints/procrustes_KN_batch_on_y.yaml";
    const std::string head =
        "sweep: c\narchitectures: [procrustes_baseline_16x16]\n"
        "networks: [mlp_mnist]\ndataflows: [\"K,N\", \"C,K\"]\n"
        "constraints: " +
        constraints + "\n";
    const auto noted = run_trainloop("sweep --check " + temp_file("noted.yaml", head));
    EXPECT_EQ(noted.exit_code, 0) << noted.output;
    EXPECT_NE(noted.output.find("with dataflow C,K will fail"), std::string::npos) << noted.output;
    const auto excluded = run_trainloop(
        "sweep --check " + temp_file("excluded.yaml", head + "exclude: [{dataflow: \"C,K\"}]\n"));
    EXPECT_EQ(excluded.exit_code, 0) << excluded.output;
    EXPECT_EQ(excluded.output.find("will fail"), std::string::npos) << excluded.output;
}

TEST(SweepCheck, ABrokenReferenceIsLocatedWithExitTwo) {
    // An override that leads nowhere in the referenced architecture.
    const std::string bad_override = temp_file("override.yaml", R"(sweep: o
architectures:
  - file: procrustes_baseline_16x16
    name: v
    set: {storage.NOPE.capacity: 1 KB}
networks: [mlp_mnist]
dataflows: ["K,N"]
)");
    const auto o = run_trainloop("sweep --check " + bad_override);
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_NE(o.output.find("NOPE"), std::string::npos) << o.output;
    // A network that does not exist.
    const std::string bad_network =
        temp_file("network.yaml",
                  "sweep: n\narchitectures: [procrustes_baseline_16x16]\nnetworks: [resnet19]\n"
                  "dataflows: [any]\n");
    const auto n = run_trainloop("sweep --check " + bad_network);
    EXPECT_EQ(n.exit_code, 2) << n.output;
    EXPECT_NE(n.output.find("network.yaml:3:12: networks[0]"), std::string::npos) << n.output;
    // A constraints file that names a level the architecture lacks.
    const std::string constraints =
        temp_file("c.yaml", "mapping_constraints: c\nlevels:\n  L9: {bypass: [weights]}\n");
    const std::string bad_constraints =
        temp_file("constraints.yaml",
                  "sweep: c\narchitectures: [procrustes_baseline_16x16]\n"
                  "networks: [mlp_mnist]\ndataflows: [any]\nconstraints: " +
                      std::filesystem::path(constraints).filename().string() + "\n");
    const auto c = run_trainloop("sweep --check " + bad_constraints);
    EXPECT_EQ(c.exit_code, 2) << c.output;
    EXPECT_NE(c.output.find("L9"), std::string::npos) << c.output;
}

TEST(SweepCheck, SweepWithoutDbOrCheckIsABadInvocation) {
    const auto r = run_trainloop("sweep " + kTiny);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--check"), std::string::npos) << r.output;
}

TEST(SweepCheck, ASweepWhosePointsAllFailExitsThree) {
    const std::string sweep = temp_file("all_fail.yaml", R"(sweep: all_fail
architectures:
  - file: procrustes_baseline_16x16
    name: starved
    set: {storage.RF.capacity: 64 B, storage.GLB.capacity: 8 B}   # the GLB cannot hold 3 words
networks: [mlp_mnist]
dataflows: ["K,N"]
search: {budget: 200, bypass: false}
)");
    const std::string db = fresh_db("all_fail.db");
    const auto r = run_trainloop("sweep " + sweep + " --db " + db + " -q");
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("every point run failed"), std::string::npos) << r.output;
    // The failures are recorded all the same.
    const auto points =
        run_trainloop("query --db " + db + " -f csv --sql \"SELECT status FROM points\"");
    EXPECT_EQ(points.output, "status\nfailed\n");
}

TEST(ShippedArchitectureNames, MapAndEvalTakeANameForArch) {
    const auto map = run_trainloop(
        "map --arch procrustes_baseline_16x16 --workload mlp_mnist --phase fw --budget 100 -q");
    EXPECT_EQ(map.exit_code, 0) << map.output;
    const auto typo = run_trainloop(
        "map --arch procrustes_baseline_16x61 --workload mlp_mnist --phase fw --budget 100 -q");
    EXPECT_EQ(typo.exit_code, 2) << typo.output;
    EXPECT_NE(typo.output.find("procrustes_baseline_16x16"), std::string::npos) << typo.output;
    const auto eval = run_trainloop(
        "eval --mapping " + std::string(TRAINLOOP_SOURCE_DIR) +
        "/examples/mappings/resnet18_3x3_KN_fw.yaml --arch procrustes_baseline_16x16");
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

}  // namespace
}  // namespace trainloop
