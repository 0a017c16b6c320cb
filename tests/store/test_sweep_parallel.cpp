// Sweep points mapped side by side (`sweep --parallel-points N`) write the
// same database contents as one point at a time: every point's search is
// deterministic whatever its threads, and each point is written whole under
// one lock. Runs under ThreadSanitizer too (label tsan).
#include <gtest/gtest.h>

#include <algorithm>

#include "store_test_support.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::run_trainloop;

const std::string kTiny = std::string(TRAINLOOP_SOURCE_DIR) + "/examples/sweeps/tiny.yaml";

// Every result and total by point number (row ids and write order aside).
std::string dump(const std::string& db) {
    const auto r = run_trainloop(
        "query --db " + db +
            " --format csv --sql \"SELECT p.idx, p.status, r.layer, r.phase, r.choice, m.text, "
            "r.cycles, r.energy_pj, r.pareto_arch, r.pareto_layer, t.phase, t.cycles, t.energy_pj "
            "FROM results r JOIN points p ON p.id = r.point_id JOIN mappings m ON m.id = "
            "r.mapping_id LEFT JOIN phase_totals t ON t.point_id = p.id AND t.phase = r.phase "
            "ORDER BY p.idx, r.layer_index, r.phase, r.choice\"",
        testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return r.output;
}

TEST(SweepSideBySide, PointsMappedSideBySideWriteWhatOneAtATimeWrites) {
    // A quarter of the tiny sweep (10 points) keeps this short under TSan.
    const std::string one = fresh_db("one_at_a_time.db");
    const auto a = run_trainloop("sweep " + kTiny + " --db " + one + " -q -j 1 --shard 1/4");
    ASSERT_EQ(a.exit_code, 0) << a.output;
    const std::string side = fresh_db("side_by_side.db");
    const auto b = run_trainloop("sweep " + kTiny + " --db " + side +
                                 " -q -j 2 --parallel-points 2 --shard 1/4");
    ASSERT_EQ(b.exit_code, 0) << b.output;
    EXPECT_NE(b.output.find("10 run (0 failed)"), std::string::npos) << b.output;
    const std::string expected = dump(one);
    EXPECT_GT(std::count(expected.begin(), expected.end(), '\n'), 10);
    EXPECT_EQ(dump(side), expected);
}

TEST(SweepSideBySide, ParallelPointsIsANonNegativeCount) {
    const auto r =
        run_trainloop("sweep " + kTiny + " --db " + fresh_db("bad.db") + " --parallel-points -1");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--parallel-points"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace trainloop
