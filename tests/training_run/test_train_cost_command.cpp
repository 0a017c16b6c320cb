// End-to-end: `trainloop train-cost` — the JSON contract, its totals against
// the samples table, and the user errors (exit 2, located messages).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::CommandResult;
using trainloop::testing::run_trainloop;
using trainloop::testing::temp_file;

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_sparse_16x16.yaml";

std::string train_cost(const std::string& rest, const std::string& arch = kArch,
                       bool quiet = true) {
    return "train-cost --arch " + arch +
           " --workload mlp_mnist --search random --budget 200 --dataflow K,N " +
           (quiet ? "--quiet " : "") + rest;
}

CommandResult run(const std::string& arguments) {
    return trainloop::testing::run_trainloop(arguments);
}

const std::string kStepProfile =
    "sparsity_profile: steps\n"
    "rules:\n"
    "  - tensors: w\n"
    "    schedule:\n"
    "      interpolation: step\n"
    "      points: [{iteration: 0, density: 1.0}, {iteration: 100, density: 0.25}]\n";

TEST(TrainCostCommand, JsonHasTheRunTotalsAndThePerSampleTable) {
    const std::string profile = temp_file("steps.yaml", kStepProfile);
    const CommandResult r = trainloop::testing::run_trainloop(
        train_cost("--sparsity " + profile + " --iterations 1000 --format json"),
        trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    for (const char* key :
         {"total_cycles", "total_energy_pj", "dense_total_cycles", "dense_total_energy_pj",
          "macs_removed_fraction", "samples", "total_offchip_words", "dense_total_offchip_words",
          "workload_stddev", "workload_stddev_coarse", "workload_stddev_two_level"}) {
        EXPECT_TRUE(j.contains(key)) << key;
    }
    EXPECT_EQ(j["evaluator"], "loop-nest") << "the default";
    ASSERT_EQ(j["samples"].size(), 2u);
    std::int64_t cycles = 0;
    double energy = 0;
    double offchip = 0;
    for (const auto& s : j["samples"]) {
        EXPECT_TRUE(s["exact"].get<bool>());
        offchip += double(s["weight"].get<std::int64_t>()) * s["step_offchip_words"].get<double>();
        cycles += s["weight"].get<std::int64_t>() * s["step_cycles"].get<std::int64_t>();
        energy += double(s["weight"].get<std::int64_t>()) * s["step_energy_pj"].get<double>();
    }
    EXPECT_EQ(j["samples"][1]["begin"], 100);
    EXPECT_EQ(j["total_cycles"].get<std::int64_t>(), cycles);
    EXPECT_NEAR(j["total_energy_pj"].get<double>(), energy, 1e-9 * energy);
    EXPECT_NEAR(j["total_offchip_words"].get<double>(), offchip, 1e-9 * offchip);
    EXPECT_DOUBLE_EQ(j["dense_total_offchip_words"].get<double>(),
                     1000 * j["dense_step"]["offchip_words"].get<double>());
    EXPECT_GT(offchip, 0.0);
    EXPECT_EQ(j["dense_total_cycles"].get<std::int64_t>(),
              1000 * j["dense_step"]["cycles"].get<std::int64_t>());
    EXPECT_LT(j["total_cycles"].get<std::int64_t>(), j["dense_total_cycles"].get<std::int64_t>());
    EXPECT_GT(j["macs_removed_fraction"].get<double>(), 0.0);
    EXPECT_LT(j["macs_removed_fraction"].get<double>(), 1.0);
}

TEST(TrainCostCommand, TextShowsTheSamplesAndTheComparison) {
    // A dense architecture: a dense profile costs exactly dense training.
    const std::string baseline =
        std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";
    const CommandResult r = run(train_cost("--sparsity dense --iterations 50", baseline));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("speed-up 1.000x, energy 1.000x of dense"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("MACs removed over the run: 0.00 %"), std::string::npos) << r.output;
}

// Progress goes to standard error: on a terminal a bar redrawn in place and
// erased at the end (here a pseudo-terminal from util-linux's `script`);
// in a log, only what the run will map; with --quiet, nothing. The JSON on
// standard output is the same either way.
TEST(TrainCostCommand, ProgressIsABarOnATerminalALineInALogAndNothingWhenQuiet) {
    const std::string arguments =
        train_cost("--sparsity dense --iterations 50 --format json", kArch, false);
    const std::string header = "train-cost: 1 sample over 50 iterations; ";

    const CommandResult terminal = trainloop::testing::run_command(
        "script -qec '" + std::string(TRAINLOOP_BINARY) + " " + arguments + "' /dev/null");
    ASSERT_EQ(terminal.exit_code, 0) << terminal.output;
    EXPECT_NE(terminal.output.find(header), std::string::npos) << terminal.output;
    const std::size_t bar = terminal.output.find("\rtrain-cost: [########################] ");
    ASSERT_NE(bar, std::string::npos) << "the finished bar, drawn in place\n" << terminal.output;
    EXPECT_NE(terminal.output.find(" problems, ", bar), std::string::npos) << terminal.output;
    EXPECT_NE(terminal.output.find(" elapsed, ", bar), std::string::npos) << terminal.output;
    EXPECT_NE(terminal.output.find("\r        ", bar), std::string::npos) << "erased at the end";
    EXPECT_NE(terminal.output.find("\"total_cycles\""), std::string::npos) << terminal.output;

    const CommandResult log = run_trainloop(arguments, trainloop::testing::Capture::stderr_only);
    ASSERT_EQ(log.exit_code, 0) << log.output;
    EXPECT_EQ(log.output.find(header), 0u) << log.output;
    EXPECT_EQ(log.output.find('['), std::string::npos) << "no bar in a log\n" << log.output;

    const CommandResult quiet_run =
        run_trainloop(train_cost("--sparsity dense --iterations 50 --format json"),
                      trainloop::testing::Capture::stderr_only);
    ASSERT_EQ(quiet_run.exit_code, 0) << quiet_run.output;
    EXPECT_EQ(quiet_run.output, "");
}

TEST(TrainCostCommand, ZeroOrNegativeIterationsExit2) {
    for (const char* n : {"0", "-5", "many"}) {
        const CommandResult r = run(train_cost("--sparsity dense --iterations " + std::string(n)));
        EXPECT_EQ(r.exit_code, 2) << n << "\n" << r.output;
        EXPECT_NE(r.output.find("--iterations"), std::string::npos) << r.output;
    }
    const CommandResult missing = run(train_cost("--sparsity dense"));
    EXPECT_EQ(missing.exit_code, 2) << missing.output;
    EXPECT_NE(missing.output.find("--iterations"), std::string::npos) << missing.output;
}

TEST(TrainCostCommand, UnknownProfileExit2WithTheNearestName) {
    const CommandResult r = run(train_cost("--sparsity procrustez --iterations 10"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("procrustez"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("procrustes"), std::string::npos) << "did-you-mean\n" << r.output;
}

TEST(TrainCostCommand, BadScheduleIsLocatedInItsFile) {
    const std::string profile =
        temp_file("bad.yaml",
                  "sparsity_profile: bad\n"
                  "rules:\n"
                  "  - tensors: w\n"
                  "    schedule:\n"
                  "      points: [{iteration: 10, density: 1.0}, {iteration: 5, density: 0.5}]\n");
    const CommandResult r =
        run(train_cost("--sparsity " + profile + " --iterations 10 --format json"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    EXPECT_EQ(j["error"]["file"], profile);
    EXPECT_EQ(j["error"]["line"], 5);
    EXPECT_NE(j["error"]["key"].get<std::string>().find("iteration"), std::string::npos) << j;
}

}  // namespace

namespace {

TEST(TrainCostSweep, IterationsAxisStoresTheRunTotalsTrainCostPrints) {
    const std::string profile = temp_file("sweep_steps.yaml", kStepProfile);
    const std::string sweep = temp_file("runs.yaml",
                                        "sweep: runs\n"
                                        "architectures: [procrustes_sparse_16x16]\n"
                                        "networks: [mlp_mnist]\n"
                                        "sparsity: [" +
                                            profile +
                                            "]\n"
                                            "dataflows: [\"K,N\"]\n"
                                            "iterations: [50, 400]\n"
                                            "search: {strategy: random, budget: 200, seed: 1}\n");
    const std::string db = trainloop::testing::temp_path("runs.db");
    std::remove(db.c_str());
    const CommandResult r = run("sweep " + sweep + " --db " + db + " -q -j1");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const CommandResult rows =
        run("query --db " + db +
            " --format csv --sql \"SELECT r.iterations, r.total_cycles, p.iteration, "
            "(SELECT count(*) FROM training_run_samples s WHERE s.point_id = p.id) AS samples "
            "FROM training_runs r JOIN points p ON p.id = r.point_id ORDER BY p.idx\"");
    ASSERT_EQ(rows.exit_code, 0) << rows.output;
    const CommandResult direct = trainloop::testing::run_trainloop(
        train_cost("--sparsity " + profile + " --iterations 400 --seed 1 --format json"),
        trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(direct.exit_code, 0) << direct.output;
    const nlohmann::json j = nlohmann::json::parse(direct.output);
    // 50 iterations: one piece, read at 0; 400: two pieces, the last read at 100.
    const std::string expected_400 =
        "400," + std::to_string(j["total_cycles"].get<std::int64_t>()) + ",100,2\n";
    EXPECT_EQ(rows.output.substr(0, rows.output.find('\n') + 1),
              "iterations,total_cycles,iteration,samples\n");
    EXPECT_NE(rows.output.find("\n50,"), std::string::npos) << rows.output;
    EXPECT_NE(rows.output.find(",0,1\n"), std::string::npos) << rows.output;
    EXPECT_NE(rows.output.find(expected_400), std::string::npos) << rows.output << expected_400;
    // The points' layer results are the run's last state: stored like `map`'s.
    const CommandResult totals =
        run("query --db " + db +
            " --format csv --sql \"SELECT count(*) AS n FROM phase_totals WHERE phase = 'step'\"");
    EXPECT_EQ(totals.output, "n\n2\n");
}

}  // namespace

namespace {

TEST(TrainCostCommand, DbStoresTheRunOnceAndRewritesItOnARerun) {
    const std::string profile = temp_file("db_steps.yaml", kStepProfile);
    const std::string db = trainloop::testing::temp_path("train_cost.db");
    for (const char* suffix : {"", "-wal", "-shm"}) std::remove((db + suffix).c_str());
    const std::string command =
        train_cost("--sparsity " + profile + " --iterations 300 --format json --db " + db);
    const CommandResult first =
        trainloop::testing::run_trainloop(command, trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(first.exit_code, 0) << first.output;
    const nlohmann::json j = nlohmann::json::parse(first.output);
    ASSERT_EQ(run(command).exit_code, 0);  // the same command again: the same point
    const CommandResult rows =
        run("query --db " + db +
            " --format csv --sql \"SELECT r.iterations, r.total_cycles, r.dense_total_cycles, "
            "p.iteration, (SELECT count(*) FROM training_run_samples) AS samples, "
            "(SELECT count(*) FROM points) AS points FROM training_runs r JOIN points p ON p.id "
            "= r.point_id\"");
    ASSERT_EQ(rows.exit_code, 0) << rows.output;
    EXPECT_EQ(rows.output,
              "iterations,total_cycles,dense_total_cycles,iteration,samples,points\n"
              "300," +
                  std::to_string(j["total_cycles"].get<std::int64_t>()) + "," +
                  std::to_string(j["dense_total_cycles"].get<std::int64_t>()) + ",100,2,1\n");
}

TEST(TrainCostCommand, ARunTooLongForItsCycleTotalsExit2) {
    const CommandResult r = run(train_cost("--sparsity dense --iterations 4000000000000000"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--iterations"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("64 bits"), std::string::npos) << r.output;
}

}  // namespace
