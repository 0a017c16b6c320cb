// The shipped Eager Pruning architectures behave as Zhang et al. (ISCA 2019)
// describe them: the same pruning schedule removes the same MACs on both, and
// EP's flexible allocation (§4.1: idle PEs take other outputs' work) runs the
// sparse run faster than the Cambricon-X-like baseline's fixed 16 PEs per
// output (§5.4's direction). LeNet keeps the test short.
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

TEST(EagerPruningArchitectures, FlexibleAllocationRunsThePrunedRunFasterThanFixedGroups) {
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
    // Fig. 20(b): the baseline gains nothing from the sparsity. CX's PEs work
    // in fixed groups per output, so a pruned weight leaves its PE idle and
    // the run costs about what dense training costs there.
    const double cx_ratio = double(cx["total_cycles"].get<std::int64_t>()) /
                            double(cx["dense_total_cycles"].get<std::int64_t>());
    EXPECT_NEAR(cx_ratio, 1.0, 0.05);
}

}  // namespace
