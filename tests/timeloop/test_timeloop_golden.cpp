// `trainloop eval --timeloop` on the golden run's own input files reproduces
// timeloop-model v3.0.3 (tests/golden/timeloop/conv3x_fixed): cycles
// exactly; per level and tensor the utilized capacity and the total reads,
// fills and updates exactly (Timeloop prints per instance; ×256 for the
// RegFile); energy per level within 0.1 %. Expected values are copied from
// timeloop-model.stats.txt and summary.txt.
#include <gtest/gtest.h>

#include <array>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"

namespace {

const std::string kGolden =
    std::string(TRAINLOOP_SOURCE_DIR) + "/tests/golden/timeloop/conv3x_fixed/";

nlohmann::json eval_golden(const std::string& dir = kGolden) {
    std::string command = "eval --format json --timeloop";
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ART.yaml"}) {
        command += " " + dir + f;
    }
    const auto r =
        trainloop::testing::run_trainloop(command, trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const std::string& out = r.output;
    return nlohmann::json::parse(out);
}

struct Counts {
    const char* level;
    const char* tensor;
    std::int64_t capacity, instances, reads, fills, updates;  // per instance, as Timeloop prints
};

TEST(TimeloopGolden, CyclesAndEveryLevelsCountsMatchExactly) {
    const nlohmann::json j = eval_golden();
    EXPECT_EQ(j["cycles"], 7'225'344);
    EXPECT_EQ(j["macs"], 1'849'688'064);
    EXPECT_DOUBLE_EQ(j["utilization"].get<double>(), 1.0);
    const Counts expected[] = {
        {"RegFile", "Weights", 36, 256, 7'225'344, 9'216, 0},
        {"RegFile", "Inputs", 162, 256, 7'225'344, 552'960, 0},
        {"RegFile", "Outputs", 98, 256, 7'124'992, 301'056, 7'225'344},
        {"GlobalBuffer", "Weights", 9'216, 1, 2'359'296, 2'359'296, 0},
        {"GlobalBuffer", "Inputs", 28'800, 1, 8'847'360, 7'372'800, 0},
        {"GlobalBuffer", "Outputs", 25'088, 1, 4'816'896, 0, 6'422'528},
        {"DRAM", "Weights", 147'456, 1, 2'359'296, 0, 0},
        {"DRAM", "Inputs", 1'843'200, 1, 7'372'800, 0, 0},
        {"DRAM", "Outputs", 1'605'632, 1, 0, 0, 1'605'632},
    };
    for (const Counts& c : expected) {
        SCOPED_TRACE(std::string(c.level) + " " + c.tensor);
        const nlohmann::json& a = j["accesses"][c.level][c.tensor];
        EXPECT_EQ(a["tile"], c.capacity);
        EXPECT_EQ(a["instances"], c.instances);
        EXPECT_EQ(a["reads"], c.reads * c.instances);
        EXPECT_EQ(a["fills"], c.fills * c.instances);
        EXPECT_EQ(a["updates"], c.updates * c.instances);
    }
}

TEST(TimeloopGolden, EnergyPerLevelWithinATenthOfAPercent) {
    const nlohmann::json j = eval_golden();
    // summary.txt / stats: MACC 582.65 µJ, RegFile 7034.42, GlobalBuffer 235.34, DRAM 1451.23.
    const std::pair<const char*, double> levels[] = {
        {"MAC", 582'651'740.16},
        {"RegFile", 1'261'960'265.47 + 1'482'266'612.07 + 4'290'189'025.87},
        {"GlobalBuffer", 34'525'141.40 + 119'826'809.86 + 80'988'409.24},
        {"DRAM", 301'989'888.0 + 943'718'400.0 + 205'520'896.0}};
    for (const auto& [component, pj] : levels) {
        EXPECT_NEAR(j["energy_breakdown"][component].get<double>(), pj, pj * 1e-3) << component;
    }
    EXPECT_NEAR(j["energy_pj"].get<double>(), 9303.64e6, 9303.64e6 * 1e-3);
    // Area: MACC 106,752 µm² in the stats file (417 × 256).
    EXPECT_NEAR(j["area_breakdown"]["MAC"].get<double>(), 106'752.0, 1e-6);
}

// The DRAM given a shared read + write bandwidth of 2 words per cycle
// (tests/golden/timeloop/shared_bandwidth, README there): timeloop-model
// v3.0.3 throttles it to 0.47 and takes 15,253,504 cycles (Summary Stats),
// 88,784.10 µJ; trainloop's level cycles, (reads + writes) / 2, agree.
TEST(TimeloopGolden, ASharedBandwidthThrottlesAsTimeloopModelDoes) {
    const nlohmann::json j =
        eval_golden(std::string(TRAINLOOP_SOURCE_DIR) + "/tests/golden/timeloop/shared_bandwidth/");
    EXPECT_EQ(j["cycles"], 15'253'504);
    EXPECT_EQ(j["compute_cycles"], 7'225'344);
    EXPECT_EQ(j["bottleneck"], "DRAM");
    EXPECT_NEAR(j["energy_pj"].get<double>(), 88'784.10e6, 88'784.10e6 * 1e-3);
}

// The DRAM given read 3, write 0.2 or 0.1, and shared 2 words per cycle
// (tests/golden/timeloop/all_limits_*, README there): timeloop-model v3.0.3
// takes the least of the three ratios, so the shared limit binds with the
// write limit at 0.2 (15,253,504 cycles, as alone) and the write limit at 0.1
// (16,056,320 cycles); trainloop applies every limit given, alike.
TEST(TimeloopGolden, WithEveryBandwidthLimitGivenTheTightestBindsAsInTimeloopModel) {
    const std::string golden = std::string(TRAINLOOP_SOURCE_DIR) + "/tests/golden/timeloop/";
    const std::pair<const char*, std::int64_t> cases[] = {
        {"all_limits_shared_binds/", 15'253'504},
        {"all_limits_write_binds/", 16'056'320},
    };
    for (const auto& [dir, cycles] : cases) {
        SCOPED_TRACE(dir);
        const nlohmann::json j = eval_golden(golden + dir);
        EXPECT_EQ(j["cycles"], cycles);
        EXPECT_EQ(j["compute_cycles"], 7'225'344);
        EXPECT_EQ(j["bottleneck"], "DRAM");
        EXPECT_NEAR(j["energy_pj"].get<double>(), 88'784.10e6, 88'784.10e6 * 1e-3);
    }
}

}  // namespace
