// The results-database commands as a user runs them: errors (missing,
// foreign and corrupt files, writes through --sql, bad names and flags) are
// clear messages with exit code 2; `map --db` records its run once.
#include <gtest/gtest.h>

#include "store_test_support.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::run_trainloop;

const std::string kTiny = std::string(TRAINLOOP_SOURCE_DIR) + "/examples/sweeps/tiny.yaml";
const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";

// The tiny sweep's 40 points, run into a database of the running test's own
// (ctest runs each test as a separate process, in parallel). These tests
// query the database, not the search, so each point's search is a short
// random one instead of the file's annealing (4000 evaluations a problem,
// which took 17 s a test under ASan and 35-55 s under TSan).
std::string tiny_db() {
    const std::string search = "search: {strategy: anneal, budget: 4000, seed: 1}";
    std::string text = testing::read_text(kTiny);
    const std::size_t at = text.find(search);
    EXPECT_NE(at, std::string::npos) << "tiny.yaml's search line changed";
    if (at != std::string::npos)
        text.replace(at, search.size(), "search: {strategy: random, budget: 50, seed: 1}");
    const std::string path = fresh_db("tiny.db");
    const auto r = run_trainloop("sweep " + testing::temp_file("tiny_quick.yaml", text) + " --db " +
                                 path + " -q -j1");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return path;
}

TEST(DbCli, QueryOnAMissingFileSaysSoWithAHint) {
    const auto r = run_trainloop("query --db " + fresh_db("none.db") + " summary");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no such results database"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("hint:"), std::string::npos) << r.output;
}

TEST(DbCli, QueryOnAFileThatIsNotADatabase) {
    const std::string path = testing::temp_file("text.db", "just some text\n");
    const auto r = run_trainloop("query --db " + path + " summary");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not an SQLite database"), std::string::npos) << r.output;
    const auto check = run_trainloop("db check " + path);
    EXPECT_EQ(check.exit_code, 2) << check.output;
}

TEST(DbCli, SqlWritesAreRefusedAndLeaveTheDataAlone) {
    const std::string db = tiny_db();
    const auto r = run_trainloop("query --db " + db + " --sql \"DELETE FROM results\"");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("`DELETE` would change the database; --sql is read-only"),
              std::string::npos)
        << r.output;
    const auto n = run_trainloop("query --db " + db +
                                 " --format csv --sql \"SELECT count(*) AS n FROM points\"");
    EXPECT_EQ(n.output, "n\n40\n");
    const auto bad = run_trainloop("query --db " + db + " --sql \"SELEC 1\"");
    EXPECT_EQ(bad.exit_code, 2) << bad.output;
    EXPECT_NE(bad.output.find("cannot prepare the statement"), std::string::npos) << bad.output;
}

TEST(DbCli, ErrorsAreJsonUnderFormatJson) {
    const std::string db = tiny_db();
    const auto r = run_trainloop(
        "query --db " + db + " best --arch nope --network mlp_mnist --dataflow K,N -f json",
        testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("\"key\": \"--arch\""), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("no architecture named `nope`"), std::string::npos) << r.output;
}

TEST(DbCli, QueryNeedsANameOrSqlButNotBoth) {
    const std::string db = tiny_db();
    const auto none = run_trainloop("query --db " + db);
    EXPECT_EQ(none.exit_code, 2) << none.output;
    EXPECT_NE(none.output.find("nothing to run"), std::string::npos) << none.output;
    const auto both = run_trainloop("query --db " + db + " summary --sql \"SELECT 1\"");
    EXPECT_EQ(both.exit_code, 2) << both.output;
}

TEST(DbCli, CanonicalQueriesRenderAsCsvAndJson) {
    const std::string db = tiny_db();
    const auto csv = run_trainloop("query --db " + db +
                                   " compare-archs --baseline procrustes_baseline_16x16 "
                                   "--network mlp_mnist --batch 16 --phase step -f csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.output;
    EXPECT_EQ(csv.output.substr(0, csv.output.find('\n')),
              "network,batch,phase,arch,sparsity,dataflow,cycles,seconds,energy_pj,area_um2,edp,"
              "speedup,energy_ratio,point_id");
    // The baseline comes first with speed-up 1.
    const std::string first = csv.output.substr(csv.output.find('\n') + 1);
    EXPECT_EQ(first.substr(0, first.find(',', first.find("dense"))),
              "mlp_mnist,16,step,procrustes_baseline_16x16,dense");
    const auto json = run_trainloop("query --db " + db + " summary -f json");
    EXPECT_NE(json.output.find("\"group\": \"total\""), std::string::npos) << json.output;
    EXPECT_NE(json.output.find("\"points_done\": 40"), std::string::npos) << json.output;
}

TEST(DbCli, CompareArchsComparesWallTimeWhenClocksDiffer) {
    // The same design at 1 GHz and at 0.5 GHz: each cycle takes twice as long
    // on the second, so its speed-up is baseline seconds over its seconds.
    const std::string sweep = testing::temp_file(
        "clocks.yaml", "sweep: clocks\narchitectures:\n  - " + kArch + "\n  - {file: " + kArch +
                           ", name: half_clock, set: {clock_ghz: 0.5}}\n"
                           "networks: [mlp_mnist]\nbatches: [16]\nsparsity: [dense]\n"
                           "dataflows: [\"C,K\"]\nobjectives: [edp]\nphases: all\n"
                           "search: {strategy: anneal, budget: 300, seed: 1}\n");
    const std::string db = fresh_db("clocks.db");
    const auto run = run_trainloop("sweep " + sweep + " --db " + db + " -q -j1");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto csv = run_trainloop("query --db " + db +
                                   " compare-archs --baseline procrustes_baseline_16x16 "
                                   "--phase step -f csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.output;
    // network,batch,phase,arch,sparsity,dataflow,cycles,seconds,energy_pj,area_um2,edp,
    // speedup,energy_ratio,point_id ("C,K" is quoted: split on the other commas).
    auto fields_of = [&](const std::string& arch) {
        const std::size_t at = csv.output.find("," + arch + ",");
        EXPECT_NE(at, std::string::npos) << csv.output;
        const std::size_t begin = csv.output.rfind('\n', at) + 1;
        std::string line = csv.output.substr(begin, csv.output.find('\n', at) - begin);
        const std::size_t quoted = line.find("\"C,K\"");
        if (quoted != std::string::npos) line.replace(quoted, 5, "CK");
        std::vector<std::string> fields;
        std::size_t from = 0;
        for (std::size_t comma; (comma = line.find(',', from)) != std::string::npos;
             from = comma + 1) {
            fields.push_back(line.substr(from, comma - from));
        }
        fields.push_back(line.substr(from));
        EXPECT_EQ(fields.size(), 14u) << line;
        return fields;
    };
    const std::vector<std::string> base = fields_of("procrustes_baseline_16x16");
    const std::vector<std::string> half = fields_of("half_clock");
    ASSERT_EQ(base.size(), 14u);
    ASSERT_EQ(half.size(), 14u);
    EXPECT_NEAR(std::stod(base[7]), std::stod(base[6]) / 1e9, 1e-12);
    EXPECT_NEAR(std::stod(half[7]), std::stod(half[6]) / 0.5e9, 1e-12);
    EXPECT_NEAR(std::stod(half[11]), std::stod(base[7]) / std::stod(half[7]), 1e-6);
    EXPECT_LT(std::stod(half[11]), 0.75);  // cycles alone would say about 1
}

TEST(DbCli, SweepWithABadShardOrFileFailsBeforeWriting) {
    const std::string db = fresh_db("bad.db");
    const auto shard = run_trainloop("sweep " + kTiny + " --db " + db + " --shard 4/3");
    EXPECT_EQ(shard.exit_code, 2) << shard.output;
    EXPECT_NE(shard.output.find("bad shard `4/3`"), std::string::npos) << shard.output;
    const std::string broken =
        testing::temp_file("broken.yaml", "sweep: b\nnetworks: [mlp_mnist]\narchitectures: []\n");
    const auto r = run_trainloop("sweep " + broken + " --db " + db);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("broken.yaml:3"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(DbCli, APointWithoutAValidMappingIsRecordedAsFailedAndTheSweepGoesOn) {
    const std::string sweep = testing::temp_file("failing.yaml", R"(sweep: failing
architectures:
  - file: procrustes_baseline_16x16
    name: starved
    set: {storage.RF.capacity: 64 B, storage.GLB.capacity: 8 B}   # the GLB cannot hold 3 words
  - procrustes_baseline_16x16
networks: [mlp_mnist]
dataflows: ["K,N"]
search: {budget: 200, bypass: false}
)");
    const std::string db = fresh_db("failing.db");
    const auto r = run_trainloop("sweep " + sweep + " --db " + db + " -q");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("2 run (1 failed)"), std::string::npos) << r.output;
    const auto points = run_trainloop("query --db " + db +
                                      " -f csv --sql \"SELECT idx, status, failure FROM points "
                                      "ORDER BY idx\"");
    EXPECT_EQ(points.output,
              "idx,status,failure\n0,failed,no valid mapping for fc1 fw: 200 rejected — capacity "
              "at GLB 200\n1,done,\n");
    // The failed point keeps its rejection histogram, one row per reason.
    const auto rejections = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT p.idx, r.key AS reason, r.value AS mappings FROM points p, "
        "json_each(p.rejections) r ORDER BY p.idx, r.key\"");
    EXPECT_EQ(rejections.output, "idx,reason,mappings\n0,capacity at GLB,200\n");
    const auto summary = run_trainloop("query --db " + db + " summary -f csv");
    EXPECT_NE(summary.output.find("architecture,starved,0,1,0,,"), std::string::npos)
        << summary.output;
    // A rerun does not retry a failed point (the mapper would fail the same way).
    const auto again = run_trainloop("sweep " + sweep + " --db " + db + " -q");
    EXPECT_NE(again.output.find("2 already recorded, 0 run"), std::string::npos) << again.output;
}

TEST(DbCli, SparsePointsStoreEffectualMacsAndLoadImbalance) {
    const std::string sweep = testing::temp_file("sparse.yaml", R"(sweep: sparse
architectures: [procrustes_sparse_16x16]
networks: [vgg_s]
sparsity: [dense, procrustes]
dataflows: ["K,N"]
phases: [fw]
search: {budget: 200}
)");
    const std::string db = fresh_db("sparse.db");
    const auto r = run_trainloop("sweep " + sweep + " --db " + db + " -q");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto totals = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT s.name, t.effectual_macs = t.macs AS all_effectual, "
        "t.imbalance_cycles > 0 AS imbalanced FROM phase_totals t JOIN points p ON p.id = "
        "t.point_id JOIN sparsity_profiles s ON s.id = p.sparsity_id ORDER BY 1\"");
    EXPECT_EQ(totals.output, "name,all_effectual,imbalanced\ndense,1,0\nprocrustes,0,1\n");
    // The layer rows add up to the totals.
    const auto sums = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT count(*) AS mismatches FROM phase_totals t WHERE "
        "abs(t.effectual_macs "
        "- (SELECT sum(r.effectual_macs) FROM results r WHERE r.point_id = t.point_id AND "
        "r.phase = t.phase AND r.choice = 0)) > 1e-6 * t.macs\"");
    EXPECT_EQ(sums.output, "mismatches\n0\n");
    // Each layer row keeps the per-PE workload spread (seed 003's Fig. 18
    // quantity): none without zeros, some where the profile prunes.
    const auto spread = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT s.name, max(r.workload_stddev) > 0 AS spread, "
        "count(r.workload_stddev) = count(*) AS every_row FROM results r JOIN points p ON "
        "p.id = r.point_id JOIN sparsity_profiles s ON s.id = p.sparsity_id GROUP BY 1 "
        "ORDER BY 1\"");
    EXPECT_EQ(spread.output, "name,spread,every_row\ndense,0,1\nprocrustes,1,1\n");
    // And its off-chip words, and what the balancing steps would leave of the
    // spread (never more than as partitioned).
    const auto traffic = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT min(r.offchip_words) > 0 AS moved, "
        "max(r.workload_stddev_coarse - r.workload_stddev) <= 1e-12 AS coarse_no_more, "
        "max(r.workload_stddev_two_level - r.workload_stddev_coarse) <= 1e-12 AS "
        "two_level_no_more, count(r.offchip_words) = count(*) AS every_row FROM results r\"");
    EXPECT_EQ(traffic.output, "moved,coarse_no_more,two_level_no_more,every_row\n1,1,1,1\n");
}

TEST(DbCli, MapDbRecordsARunOnceAndTheSameRunAgainReplacesIt) {
    const std::string db = fresh_db("map.db");
    const std::string map =
        "map --arch " + kArch + " --workload mlp_mnist --dataflow K,N --budget 200 -q --db " + db;
    const auto first = run_trainloop(map);
    ASSERT_EQ(first.exit_code, 0) << first.output;
    EXPECT_NE(first.output.find("results written to " + db), std::string::npos) << first.output;
    ASSERT_EQ(run_trainloop(map).exit_code, 0);
    const auto n = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT count(*) AS points, (SELECT count(*) FROM results) AS results, "
        "(SELECT count(*) FROM sweeps) AS runs FROM points\"");
    EXPECT_EQ(n.output, "points,results,runs\n1,5,1\n");
    // Its best mappings are queryable like a sweep's.
    const auto best = run_trainloop("query --db " + db +
                                    " best --arch procrustes_baseline_16x16 --network mlp_mnist "
                                    "--dataflow K,N -f csv");
    EXPECT_NE(best.output.find("fc2,wu"), std::string::npos) << best.output;
}

}  // namespace
}  // namespace trainloop
