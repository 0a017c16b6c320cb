// End-to-end: the trainloop binary's output contracts and exit codes.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::CommandResult;
using trainloop::testing::temp_file;

CommandResult run(const std::string& arguments) {
    return trainloop::testing::run_trainloop(arguments);
}

TEST(Cli, WorkloadShowJsonFollowsTheOutputContract) {
    const CommandResult r = run("workload show resnet18 --batch 4 --format json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["network"], "resnet18");
    EXPECT_EQ(json["batch"], 4);
    EXPECT_EQ(json["total_macs"], 4 * 1'814'073'344LL);
    EXPECT_EQ(json["total_weights"], 11'678'912);
    ASSERT_EQ(json["layers"].size(), 21u);
    const auto& first = json["layers"][0];
    EXPECT_EQ(first["name"], "conv1");
    EXPECT_EQ(first["type"], "conv");
    EXPECT_EQ(
        first["dims"],
        (nlohmann::json{
            {"N", 4}, {"K", 64}, {"C", 3}, {"P", 112}, {"Q", 112}, {"R", 7}, {"S", 7}, {"G", 1}}));
    EXPECT_EQ(first["weights"], 9408);
    EXPECT_FALSE(first["phases"].contains("bw")) << "the image needs no gradient";
    EXPECT_EQ(first["phases"]["fw"]["output"], "y");
    EXPECT_EQ(first["phases"]["wu"]["output"], "dw");
    const auto& second = json["layers"][1];
    EXPECT_EQ(second["phases"]["bw"]["output"], "dx");
    EXPECT_EQ(second["phases"]["bw"]["macs"], second["phases"]["fw"]["macs"]);
}

TEST(Cli, WorkloadShowTextHasATableAndTotals) {
    const CommandResult r = run("workload show mlp_mnist");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("fc1"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("203,264"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("batch 16"), std::string::npos) << "default batch is 16";
}

TEST(Cli, UnknownNetworkExitsWithTwoAndSuggestsAName) {
    const CommandResult r = run("workload show resnet81");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("did you mean `resnet18`?"), std::string::npos) << r.output;
}

TEST(Cli, BadOptionValueExitsWithTwo) {
    EXPECT_EQ(run("workload show resnet18 --batch 0").exit_code, 2);
    EXPECT_EQ(run("workload show resnet18 --format xml").exit_code, 2);
    EXPECT_EQ(run("no-such-command").exit_code, 2);
}

TEST(Cli, SpecCheckAcceptsEveryShippedSpec) {
    const CommandResult r =
        run(std::string("spec check ") + TRAINLOOP_SOURCE_DIR + "/workloads/*.yaml " +
            TRAINLOOP_SOURCE_DIR + "/workloads/sparsity/*.yaml " + TRAINLOOP_SOURCE_DIR +
            "/arch_specs/*.yaml " + TRAINLOOP_SOURCE_DIR + "/arch_specs/components/*.yaml");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("ok    "), std::string::npos);
    EXPECT_EQ(r.output.find("error"), std::string::npos) << r.output;
}

TEST(Cli, SpecCheckReportsFileLineKeyAndExitsWithTwo) {
    const std::string bad = temp_file("bad_net.yaml",
                                      "network: t\n"
                                      "inputs:\n"
                                      "  - {name: image, channels: 3, height: 8, width: 8}\n"
                                      "layers:\n"
                                      "  - {name: c, type: conv, inputs: [image], out_channels: 4, "
                                      "kernel: 3, strid: 2}\n");
    const CommandResult r = run("spec check " + bad);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("bad_net.yaml:5:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("layers[0].strid"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("did you mean `stride`?"), std::string::npos) << r.output;
}

TEST(Cli, SpecCheckKeepsGoingAfterABadFile) {
    const std::string bad = temp_file("unknown_kind.yaml", "netwrok: t\n");
    const CommandResult r =
        run("spec check " + bad + " " + TRAINLOOP_SOURCE_DIR + "/workloads/alexnet.yaml");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("did you mean `network`?"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("ok    "), std::string::npos) << "the good file is still checked";
    EXPECT_NE(r.output.find("1 of 2 file(s) have errors"), std::string::npos) << r.output;
}

TEST(Cli, EvalJsonFollowsTheOutputContract) {
    const CommandResult r = run(std::string("eval --mapping ") + TRAINLOOP_SOURCE_DIR +
                                "/examples/mappings/resnet18_3x3_KN_bw.yaml --format json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["macs"], 1'849'688'064);
    EXPECT_EQ(json["phase"], "bw");
    for (const char* key : {"cycles", "energy_pj", "utilization", "energy_breakdown", "accesses"}) {
        EXPECT_TRUE(json.contains(key)) << key;
    }
    EXPECT_TRUE(json["accesses"]["GLB"].contains("dx")) << "bw's output is dx";
    EXPECT_TRUE(json["accesses"]["RF"]["dy"].contains("fills"));
    EXPECT_TRUE(json["energy_breakdown"].contains("MAC"));
}

TEST(Cli, EvalOptionsOverrideTheMappingsForBlock) {
    const CommandResult r =
        run(std::string("eval --mapping ") + TRAINLOOP_SOURCE_DIR +
            "/examples/mappings/resnet18_3x3_KN_fw.yaml --phase wu --format json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(nlohmann::json::parse(r.output)["phase"], "wu");
}

const std::string kTooBigForTheRf =
    "for: {arch: " + std::string(TRAINLOOP_SOURCE_DIR) +
    "/arch_specs/procrustes_baseline_16x16.yaml, workload: resnet18, layer: layer2.0.conv2, "
    "phase: fw}\n"
    "mapping:\n"
    "  - level: DRAM\n"
    "    temporal: [N16, K8, P28]\n"
    "  - level: GLB\n"
    "    spatial_x: [K16]\n"
    "    spatial_y: [C16]\n"
    "  - level: RF\n"
    "    temporal: [C8, Q28, R3, S3]\n";

TEST(Cli, EvalOfAMappingThatDoesNotFitNamesTheLevelTensorsAndSizes) {
    const CommandResult r = run("eval --mapping " + temp_file("too_big.yaml", kTooBigForTheRf));
    EXPECT_EQ(r.exit_code, 2);
    // Per PE: w 8·3·3 = 72, x 8 channels × 3 rows × 30 columns = 720, y 28:
    // 820 words in a 256-word (1 KB of FP32) RF. The error points at RF's entry.
    EXPECT_NE(r.output.find("too_big.yaml:8:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("do not fit level RF: w 72 + x 720 + y 28 = 820 words, capacity 256"),
              std::string::npos)
        << r.output;
}

TEST(Cli, EvalErrorsAreJsonUnderFormatJson) {
    const std::string bad = temp_file(
        "bad_factors.yaml", "for: {arch: " + std::string(TRAINLOOP_SOURCE_DIR) +
                                "/arch_specs/procrustes_baseline_16x16.yaml, workload: resnet18, "
                                "layer: fc, phase: fw}\n"
                                "mapping:\n  - level: DRAM\n    temporal: [K1000, C512]\n");
    const CommandResult r = run("eval --mapping " + bad + " --format json");
    EXPECT_EQ(r.exit_code, 2);
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_NE(json["error"]["message"].get<std::string>().find("factors of N multiply to 1"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(json["error"]["line"], 3);
}

TEST(Cli, EvalWithoutAnArchitectureSaysHowToGiveOne) {
    const std::string bare = temp_file("bare.yaml", "mapping:\n  - level: DRAM\n");
    const CommandResult r = run("eval --mapping " + bare);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("no arch given"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--arch"), std::string::npos) << r.output;
}

TEST(Cli, EvalNeedsAMappingOrTimeloopFiles) {
    const CommandResult r = run("eval --format json");
    EXPECT_EQ(r.exit_code, 2);
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["error"]["key"], "--mapping");
    EXPECT_NE(json["error"]["expected"].get<std::string>().find("--timeloop"), std::string::npos);
}

TEST(Cli, WorkloadShowErrorsAreJsonUnderFormatJson) {
    const CommandResult r = run("workload show resnet81 --format json");
    EXPECT_EQ(r.exit_code, 2);
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["error"]["file"], "resnet81");
    EXPECT_EQ(json["error"]["hint"], "did you mean `resnet18`?");
}

TEST(Cli, HelpExplainsTheCommands) {
    const CommandResult r = run("--help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.output.find("workload"), std::string::npos);
    EXPECT_NE(r.output.find("Exit codes"), std::string::npos);
}

}  // namespace
