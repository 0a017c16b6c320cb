// Chen et al. 2024 (seed 003) end to end: a pruning run's forward passes on
// AlexNet (`trainloop train-cost`, workloads/sparsity/chen2024.yaml) on the
// proposed design and the two CSR baselines. docs/reproductions/seed003.md
// has the full reproduction; this pins its directions at a small budget.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

nlohmann::json run_on(const std::string& arch) {
    const auto r = trainloop::testing::run_trainloop(
        "train-cost --arch " + arch +
            " --workload alexnet --batch 128 --phase fw --sparsity chen2024"
            " --iterations 10009000 --samples 1 --budget 2000 --format json --quiet",
        trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output);
}

TEST(Chen2024Run, TheProposedDesignSpendsLessEnergyThanTheCsrBaselines) {
    const nlohmann::json proposed = run_on("chen2024_dual_8x8");
    for (const char* baseline : {"chen2024_scnn_8x8", "chen2024_sparsetrain_8x8"}) {
        const nlohmann::json b = run_on(baseline);
        // Fig. 20: 25 % and 18 % less on average; here the formats' on-chip
        // sizes alone give more than 10 %.
        EXPECT_LT(proposed["total_energy_pj"].get<double>(),
                  0.9 * b["total_energy_pj"].get<double>())
            << baseline;
    }
    // Fig. 18's order: each balancing step leaves less of the spread.
    const double partitioned = proposed["workload_stddev"].get<double>();
    const double coarse = proposed["workload_stddev_coarse"].get<double>();
    const double both = proposed["workload_stddev_two_level"].get<double>();
    EXPECT_GT(partitioned, 0.0);
    EXPECT_LE(coarse, partitioned);
    EXPECT_LT(both, coarse);
}

}  // namespace
