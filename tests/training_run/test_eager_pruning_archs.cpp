// The shipped Eager Pruning architectures behave as Zhang et al. (ISCA 2019)
// describe them: the same pruning schedule removes the same MACs on both, and
// EP's pruned run is faster and cheaper than the Cambricon-X-like baseline's,
// pruned or dense (§5.4's direction). LeNet keeps the test short.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::Capture;
using trainloop::testing::CommandResult;

nlohmann::json lenet_run(const std::string& arch) {
    // Table 5: LeNet, 10,000 iterations at batch 64.
    const CommandResult r = trainloop::testing::run_trainloop(
        "train-cost --arch " + arch +
            " --workload lenet --batch 64 --sparsity eager_pruning --iterations 10000"
            " --search random --budget 200 --quiet --format json",
        Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output);
}

TEST(EagerPruningArchitectures, ThePrunedRunIsFasterAndCheaperThanOnTheBaseline) {
    const nlohmann::json ep = lenet_run("eager_pruning_2048");
    const nlohmann::json cx = lenet_run("eager_pruning_cx_baseline");
    EXPECT_DOUBLE_EQ(ep["macs_removed_fraction"].get<double>(),
                     cx["macs_removed_fraction"].get<double>())
        << "one schedule, one network: the MACs removed do not depend on the array";
    EXPECT_GT(ep["macs_removed_fraction"].get<double>(), 0.0);
    const auto ep_cycles = ep["total_cycles"].get<std::int64_t>();
    EXPECT_LT(ep_cycles, cx["total_cycles"].get<std::int64_t>());
    EXPECT_LT(ep_cycles, cx["dense_total_cycles"].get<std::int64_t>())
        << "§5.4: EP's pruned run is faster than dense training on the baseline";
    EXPECT_LT(ep["total_energy_pj"].get<double>(), cx["total_energy_pj"].get<double>());
    // Not asserted: Fig. 20(b)'s "CX gains nothing from the sparsity". With
    // the fewest-cycles mappings CX gains from pruning too (LeNet 1.07x,
    // AlexNet 1.70x: docs/reproductions/eager_pruning.md says why); this
    // small search happened to leave CX's pruned and dense runs equal.
}

}  // namespace
