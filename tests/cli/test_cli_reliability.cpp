// The binary against the issue-#16 classes end to end: numbers on the
// command line are read strictly (no octal, no clamping, no NaN), thread
// counts are capped at the machine, output that cannot be written is an
// error, names that are not UTF-8 never break JSON output, and quantities
// past 2^53 are located errors rather than wrapped results.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::CommandResult;
using trainloop::testing::run_trainloop;
using trainloop::testing::temp_file;
using trainloop::testing::temp_path;

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(CliReliability, IntegersAreBaseTenWithinTheirRange) {
    // CLI11 alone reads 010 as octal 8 and clamps 99999999999999999999.
    const CommandResult octal = run_trainloop("workload show mlp_mnist --batch 010 -f json",
                                              trainloop::testing::Capture::stdout_only);
    ASSERT_EQ(octal.exit_code, 0) << octal.output;
    EXPECT_EQ(nlohmann::json::parse(octal.output)["batch"], 10);
    for (const char* bad : {"99999999999999999999", "9007199254740993", "0x10", "1.5", "0", "-3"}) {
        const CommandResult r =
            run_trainloop(fmt::format("workload show mlp_mnist --batch {}", bad));
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
        EXPECT_TRUE(has(r.output, "--batch")) << r.output;
    }
    const CommandResult budget = run_trainloop(
        fmt::format("map --arch {} --workload mlp_mnist --budget 99999999999999999999", kArch));
    EXPECT_EQ(budget.exit_code, 2) << budget.output;
    EXPECT_TRUE(has(budget.output, "--budget"));
}

TEST(CliReliability, NotANumberIsNotATimeBudget) {
    for (const char* bad : {"nan", "inf", "-1", "1e999"}) {
        const CommandResult r = run_trainloop(fmt::format(
            "map --arch {} --workload mlp_mnist --budget 0 --time-budget {}", kArch, bad));
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.output;
        EXPECT_TRUE(has(r.output, "--time-budget")) << r.output;
    }
}

TEST(CliReliability, MoreThreadsThanTheMachineRunsAreCappedWithANote) {
    const CommandResult r = run_trainloop(fmt::format(
        "map --arch {} --workload mlp_mnist --phase fw --budget 200 -q -j 100000", kArch));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(has(r.output, fmt::format("note: --threads 100000 capped at {}",
                                          std::max(1U, std::thread::hardware_concurrency()))))
        << r.output;
}

TEST(CliReliability, ABatchTooLargeForALayerIsALocatedError) {
    const CommandResult r = run_trainloop("workload show vgg16 --batch 9007199254740992");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has(r.output, "vgg16.yaml:")) << r.output;
    EXPECT_TRUE(has(r.output, "too large to model exactly")) << r.output;
}

TEST(CliReliability, HugeDimensionsAreMappedWithinTheBudget) {
    // Divisors once came from trying every number up to the bound: batch 2^30
    // took minutes whatever the budget. Now 2^30 and the largest prime below
    // 2^53 (a one-weight layer keeps its MACs representable) map at once.
    const std::string net = temp_file("one.yaml",
                                      "network: one\ninputs:\n  - {name: x, channels: 1}\n"
                                      "layers:\n  - {name: fc, type: fc, inputs: [x], "
                                      "out_features: 1}\n");
    for (const char* batch : {"1073741824", "9007199254740881"}) {
        const CommandResult r = run_trainloop(
            fmt::format("map --arch {} --workload {} --batch {} --budget 300 -q -j 1 --phase fw",
                        kArch, net, batch));
        EXPECT_EQ(r.exit_code, 0) << batch << ": " << r.output;
    }
}

TEST(CliReliability, AFactorProductThatWrapsIn64BitsIsRefused) {
    // 2^60 + 8 times 16 is 128 modulo 2^64: once the mapping of C = 128 validated.
    const std::string mapping = temp_file("wrap.yaml", fmt::format(R"(for:
  arch: {}
  workload: resnet18
  layer: layer2.0.conv2
  phase: fw
  batch: 16
mapping:
  - level: DRAM
    temporal: [K8, P7, Q4, C1152921504606846984]
  - level: GLB
    temporal: [C16, P4]
    spatial_x: [K16]
    spatial_y: [N16]
  - level: RF
    temporal: [R3, S3, Q7]
)",
                                                                   kArch));
    const CommandResult r = run_trainloop("eval -m " + mapping);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(has(r.output, "the factors of C multiply to more than 2^63, but C = 128"))
        << r.output;
}

TEST(CliReliability, ANameThatIsNotUtf8IsRefusedBeforeItReachesJson) {
    const std::string net = temp_file("latin1.yaml",
                                      "network: caf\xe9\ninputs:\n  - {name: x, channels: 4}\n"
                                      "layers:\n  - {name: fc, type: fc, inputs: [x], "
                                      "out_features: 2}\n");
    const CommandResult r = run_trainloop("workload show " + net + " --format json",
                                          trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 2);
    const auto json = nlohmann::json::parse(r.output);  // the error itself is valid JSON
    EXPECT_EQ(json["error"]["line"], 1);
    EXPECT_TRUE(has(json["error"]["message"], "0xe9 is not UTF-8"));
    // A file name that is not UTF-8 still gives valid JSON.
    const CommandResult path = run_trainloop("workload show /nonexistent/\xff.yaml --format json",
                                             trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(path.exit_code, 2);
    EXPECT_TRUE(nlohmann::json::accept(path.output)) << path.output;
}

TEST(CliReliability, OutputPastTheFileSizeLimitIsAnErrorNotASilentCut) {
    // SIGXFSZ would kill the process without a word: it is ignored, and the
    // write that fails is reported.
    const std::string out = temp_path("limited.txt");
    std::fflush(stdout);
    std::fflush(stderr);
    int err_pipe[2];
    ASSERT_EQ(pipe(err_pipe), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        rlimit limit{4096, 4096};
        setrlimit(RLIMIT_FSIZE, &limit);
        freopen(out.c_str(), "w", stdout);
        dup2(err_pipe[1], STDERR_FILENO);
        close(err_pipe[0]);
        execl(TRAINLOOP_BINARY, TRAINLOOP_BINARY, "workload", "show", "resnet50",
              static_cast<char*>(nullptr));
        _exit(127);
    }
    close(err_pipe[1]);
    std::string err;
    char buffer[4096];
    for (ssize_t n; (n = read(err_pipe[0], buffer, sizeof buffer)) > 0;) err.append(buffer, n);
    close(err_pipe[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 2);
    EXPECT_TRUE(has(err, "cannot write the output")) << err;
    EXPECT_TRUE(has(err, "ulimit -f")) << err;
}

}  // namespace
