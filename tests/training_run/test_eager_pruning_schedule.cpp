// The shipped Eager Pruning profile (workloads/sparsity/eager_pruning.yaml,
// from Table 5's prune_num and prune_interval) and the reduced computation
// (RC) a whole run under it gives, next to Table 5's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "arch/architecture_parser.hpp"
#include "common/file_text.hpp"
#include "density/sparsity_library.hpp"
#include "density/sparsity_query.hpp"
#include "support/run_binary.hpp"
#include "training_run/training_run.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

const SparsityProfile& profile() {
    static const SparsityProfile p = load_sparsity_profile(
        std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "workloads/sparsity/eager_pruning.yaml");
    return p;
}

TEST(EagerPruningProfile, PrunesAlexNetsConvolutionsInStepsOfPruneNum) {
    const SparsityProfile& p = profile();
    const double conv_weights = 2'332'704;      // Σ conv weights of workloads/alexnet.yaml
    const double step = 29'358 / conv_weights;  // Table 5: prune_num
    EXPECT_EQ(density(p, "alexnet", "conv3", TensorName::w, Phase::fw, 0), 1.0);
    EXPECT_EQ(density(p, "alexnet", "conv3", TensorName::w, Phase::fw, 4'499), 1.0);
    EXPECT_NEAR(density(p, "alexnet", "conv3", TensorName::w, Phase::bw, 4'500), 1 - step, 1e-6);
    EXPECT_NEAR(density(p, "alexnet", "conv1", TensorName::w, Phase::fw, 9'000), 1 - 2 * step,
                1e-6);
    // Pruning stops at Table 5's compression rate, 2.61x, half-way through the run.
    EXPECT_NEAR(density(p, "alexnet", "conv5", TensorName::w, Phase::fw, 225'000), 1 / 2.61, 1e-6);
    EXPECT_NEAR(density(p, "alexnet", "conv5", TensorName::w, Phase::fw), 1 / 2.61, 1e-6);
    EXPECT_GT(density(p, "alexnet", "conv5", TensorName::w, Phase::fw, 224'999),
              density(p, "alexnet", "conv5", TensorName::w, Phase::fw, 225'000))
        << "the 50th pruning prunes what is left";
    EXPECT_GT(density(p, "alexnet", "conv5", TensorName::w, Phase::fw, 220'499), 1 / 2.61 + 1e-2);
    // The pruned weights' gradients: the same schedule, as dw's mask in wu.
    for (std::int64_t at : {0, 4'500, 100'000, 400'000}) {
        EXPECT_EQ(density(p, "alexnet", "conv2", TensorName::dw, Phase::wu, at),
                  density(p, "alexnet", "conv2", TensorName::w, Phase::fw, at));
    }
    // §5.1: convolution layers only.
    EXPECT_EQ(density(p, "alexnet", "fc6", TensorName::w, Phase::fw, 400'000), 1.0);
    EXPECT_EQ(density(p, "alexnet", "conv2", TensorName::x, Phase::fw, 400'000), 1.0);
}

// The run's MACs removed depend on the densities only, so no search is needed:
// every problem costs 0 here. `network`: a shipped name or a network file.
double reduced_computation(const std::string& network, std::int64_t iterations,
                           const SparsityProfile& sparsity = profile()) {
    const Architecture arch = load_architecture(std::string(TRAINLOOP_SOURCE_DIR) +
                                                "/arch_specs/procrustes_sparse_16x16.yaml");
    const ArchModel model = build_arch_model(arch);
    const Network net = load_network(network);
    const NetworkTraining training = derive_training_problems(net, 1);
    const TrainingRunPlan plan =
        plan_training_run(model, training, {kAllPhases.begin(), kAllPhases.end()},
                          {parse_dataflow("K,N"), true}, sparsity, net.name(), iterations, 16);
    EXPECT_TRUE(std::all_of(plan.samples.begin(), plan.samples.end(), [](const RunSample& s) {
        return s.exact;
    })) << "a step schedule is integrated exactly";
    const std::vector<ProblemCost> costs(plan.problems.size());
    return integrate_training_run(plan, costs).macs_removed_fraction();
}

// Table 5's RC (the ratio of computation reduced during training) from its
// own schedule. Our figures: the schedule's iteration-weighted mean density on
// the conv layers' fw, bw and wu MACs (FC layers and the first layer's absent
// bw included), as an independent script over workloads/tools/count_networks.py
// also computes (42.33 % and 43.57 %). Not tuned: see docs/training_run.md for
// the assumptions and how far they move it.
TEST(EagerPruningProfile, ReducedComputationOfTable5FromTheSchedule) {
    const double alexnet = reduced_computation("alexnet", 450'000);  // Table 5: 4.5e5 iterations
    EXPECT_NEAR(alexnet, 0.4233, 5e-4);
    EXPECT_NEAR(alexnet / 0.4119, 1.0, 0.2) << "Table 5: AlexNet RC 41.19 %";
    const double resnet50 = reduced_computation("resnet50", 2'400'000);  // 2.4e6 iterations
    EXPECT_NEAR(resnet50, 0.4357, 5e-4);
    EXPECT_NEAR(resnet50 / 0.4013, 1.0, 0.2) << "Table 5: ResNet-50 RC 40.13 %";
}

// Table 5's other CNNs, each over its own run length. LeNet is the one the
// schedule cannot reach: Table 5's CR (1.85x over 25,500 pruned conv weights,
// 80 every 200 iterations) needs pruning until iteration 29,400, after the
// run's 10,000 end, so the run stays far denser than CR and its RC far below
// Table 5's 38.06 % (docs/reproductions/eager_pruning.md says so). A change
// that reaches CR within LeNet's run, or moves any figure, fails here.
TEST(EagerPruningProfile, ReducedComputationOfEveryCnnOfTable5) {
    struct Row {
        const char* network;
        std::int64_t iterations;  // Table 5
        double trainloop;         // pinned
        double table_5;           // Table 5's RC
    };
    for (const Row& row :
         {Row{"googlenet", 5'000'000, 0.4443, 0.4325}, Row{"nin", 450'000, 0.3191, 0.2687},
          Row{"resnet32_cifar", 100'000, 0.4939, 0.4486},
          Row{"caffenet", 250'000, 0.3818, 0.3463}}) {
        SCOPED_TRACE(row.network);
        const double rc = reduced_computation(row.network, row.iterations);
        EXPECT_NEAR(rc, row.trainloop, 5e-4);
        EXPECT_NEAR(rc / row.table_5, 1.0, 0.2) << "Table 5's RC";
    }
    const double lenet = reduced_computation("lenet", 10'000);
    EXPECT_NEAR(lenet, 0.0627, 5e-4);
    EXPECT_GT(density(profile(), "lenet", "conv2", TensorName::w, Phase::fw, 10'000), 1 / 1.85)
        << "LeNet's run ends before its schedule reaches Table 5's CR";
    EXPECT_NEAR(density(profile(), "lenet", "conv2", TensorName::w, Phase::fw, 29'400), 1 / 1.85,
                1e-6);
    EXPECT_GT(density(profile(), "lenet", "conv2", TensorName::w, Phase::fw, 29'399), 1 / 1.85);
}

// A variant of the shipped profile, written by its generator with `options`.
SparsityProfile generated_profile(const std::string& options) {
    const std::string out = testing::temp_path("eager_pruning_variant.yaml");
    const auto made = trainloop::testing::run_command(
        "python3 " + std::string(TRAINLOOP_SOURCE_DIR) +
        "/workloads/tools/eager_pruning_profile.py " + options + " -o " + out);
    EXPECT_EQ(made.exit_code, 0) << made.output;
    return load_sparsity_profile(out);
}

// LeNet's 38.06 % (Table 5) against the paper's other readings (§3.2's rule for
// prune_num and prune_interval; the RC over the pruned layers' MACs) and the
// bound of any schedule ending at its CR: pruned to 1/1.85 at iteration 0, a
// run removes 37.48 % of all its MACs (ip1 and ip2, 18.4 % of them, are not
// pruned, §5.1), less than Table 5's figure; over the conv layers' MACs, §3.2's
// rule (235 weights every 100 iterations, done at 5,000) removes 34.26 %.
// docs/reproductions/eager_pruning.md renders these from stored runs.
TEST(EagerPruningProfile, LeNetsTable5RcIsPastAllMacsBoundAndNearTheRuleOverConvMacs) {
    const SparsityProfile at_once = generated_profile("--at-once --only lenet");
    const SparsityProfile rule = generated_profile("--hyperparameter-rule --only lenet");
    const double bound = reduced_computation("lenet", 10'000, at_once);
    EXPECT_NEAR(bound, 0.3748, 5e-4);
    EXPECT_LT(bound, 0.3806) << "no schedule ending at CR 1.85x removes Table 5's 38.06 %";
    EXPECT_NEAR(reduced_computation("lenet", 10'000, rule), 0.2795, 5e-4);
    // LeNet without its fully connected layers: the RC over the pruned layers' MACs.
    std::string conv_only =
        read_file_text(std::string(TRAINLOOP_SOURCE_DIR) + "/workloads/lenet.yaml");
    conv_only = conv_only.substr(0, conv_only.find("  - {name: ip1"));
    const std::string file = testing::temp_file("lenet_conv.yaml", conv_only);
    EXPECT_NEAR(reduced_computation(file, 10'000, at_once), 0.4595, 5e-4);
    const double conv_rule = reduced_computation(file, 10'000, rule);
    EXPECT_NEAR(conv_rule, 0.3426, 5e-4);
    EXPECT_NEAR(conv_rule / 0.3806, 1.0, 0.2) << "within ±20 % of Table 5 read this way";
    EXPECT_NEAR(reduced_computation(file, 10'000), 0.0769, 5e-4) << "Table 5's own schedule";
}

// The shipped profile is what its generator writes with its defaults, and the
// generator refuses options that make no schedule (exit 2, naming the option).
TEST(EagerPruningProfileTool, RegeneratesTheShippedProfileAndRefusesAMeaninglessOption) {
    const auto tool = [](const std::string& arguments) {
        return trainloop::testing::run_command("python3 " + std::string(TRAINLOOP_SOURCE_DIR) +
                                               "/workloads/tools/eager_pruning_profile.py " +
                                               arguments);
    };
    const std::string out = testing::temp_path("eager_pruning.yaml");
    const auto made = tool("-o " + out);
    ASSERT_EQ(made.exit_code, 0) << made.output;
    EXPECT_EQ(read_file_text(out), read_file_text(std::string(TRAINLOOP_SOURCE_DIR) +
                                                  "/workloads/sparsity/eager_pruning.yaml"));
    for (const auto& [arguments, message] :
         {std::pair{"--prune-num-scale 0", "--prune-num-scale must be > 0"},
          std::pair{"--per-filter-cv -1", "--per-filter-cv must be >= 0"},
          std::pair{"--network lenet", "--network expects NAME=FILE"}}) {
        const auto refused = tool(std::string(arguments) + " -o " + out);
        EXPECT_EQ(refused.exit_code, 2) << arguments << "\n" << refused.output;
        EXPECT_NE(refused.output.find(message), std::string::npos) << refused.output;
    }
}

// The LSTM (Table 5's last row): EP prunes all its weight matrices (§5.1), so
// every MAC layer of workloads/lstm_timit.yaml (its input gates, its recurrence
// and its output layer, W = 4,883,456) follows one schedule: prune_num 52,072
// every 4,000 iterations until CR 3.58x, reached at the 68th pruning.
TEST(EagerPruningProfile, PrunesEveryWeightMatrixOfTheLstm) {
    const SparsityProfile& p = profile();
    const double weights = 4'883'456;
    const double step = 52'072 / weights;
    for (const char* layer : {"lstm1.input_gates", "lstm1", "output"}) {
        SCOPED_TRACE(layer);
        EXPECT_EQ(density(p, "lstm_timit", layer, TensorName::w, Phase::fw, 3'999), 1.0);
        EXPECT_NEAR(density(p, "lstm_timit", layer, TensorName::w, Phase::bw, 4'000), 1 - step,
                    1e-6);
        EXPECT_NEAR(density(p, "lstm_timit", layer, TensorName::w, Phase::fw, 268'000),
                    1 - 67 * step, 1e-6);
        EXPECT_NEAR(density(p, "lstm_timit", layer, TensorName::w, Phase::fw, 272'000), 1 / 3.58,
                    1e-6);
        EXPECT_EQ(density(p, "lstm_timit", layer, TensorName::dw, Phase::wu, 100'000),
                  density(p, "lstm_timit", layer, TensorName::w, Phase::fw, 100'000));
        EXPECT_EQ(density(p, "lstm_timit", layer, TensorName::x, Phase::fw, 400'000), 1.0);
    }
}

// Table 5: LSTM RC 52.40 % over 4e5 iterations. With one density on every
// layer, the RC is the schedule's iteration-weighted mean pruned fraction,
// Σ_k min(k·52,072, W·(1 − 1/3.58)) / W over the 100 intervals / 100 = 47.35 %
// (the phases and the folding of the time steps do not change it; their MACs are
// pinned in tests/workload/test_lstm.cpp). Another weight count W (another
// shape), pruning only the gate matrices or no wu mask would fail it.
TEST(EagerPruningProfile, ReducedComputationOfTheLstmFromTheSchedule) {
    const double lstm = reduced_computation("lstm_timit", 400'000);
    EXPECT_NEAR(lstm, 0.47352, 5e-4);
    EXPECT_NEAR(lstm / 0.5240, 1.0, 0.2) << "Table 5: LSTM RC 52.40 %";
}

}  // namespace
}  // namespace trainloop
