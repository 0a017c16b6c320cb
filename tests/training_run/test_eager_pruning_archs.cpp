// The shipped Eager Pruning architectures behave as Zhang et al. (ISCA 2019)
// describe them: the same pruning schedule removes the same MACs on both, and
// EP's pruned run is faster and cheaper than the Cambricon-X-like baseline's,
// pruned or dense, and faster than dense training on the FlexFlow baseline
// (§5.4's direction). LeNet keeps the test short.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"
#include "support/spec_variant.hpp"

namespace {

using trainloop::testing::Capture;
using trainloop::testing::CommandResult;

// The reproduction's search (scripts/reproduce_eager_pruning.py): converged on LeNet.
constexpr const char* kConvergedSearch =
    " --imperfect-factors --search anneal --budget 20000 --objective latency";

nlohmann::json lenet_run(const std::string& arch,
                         const std::string& search = " --search anneal --budget 2000") {
    // Table 5: LeNet, 10,000 iterations at batch 64.
    const CommandResult r = trainloop::testing::run_trainloop(
        "train-cost --arch " + arch +
            " --workload lenet --batch 64 --sparsity eager_pruning --iterations 10000" + search +
            " --quiet --format json",
        Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output);
}

TEST(EagerPruningArchitectures, ThePrunedRunIsFasterAndCheaperThanOnTheBaseline) {
    // Cycles under the reproduction's search (latency, converged); energy under
    // the default objective (edp), which weighs it.
    const nlohmann::json ep = lenet_run("eager_pruning_2048", kConvergedSearch);
    const nlohmann::json cx = lenet_run("eager_pruning_cx_baseline", kConvergedSearch);
    EXPECT_DOUBLE_EQ(ep["macs_removed_fraction"].get<double>(),
                     cx["macs_removed_fraction"].get<double>())
        << "one schedule, one network: the MACs removed do not depend on the array";
    EXPECT_GT(ep["macs_removed_fraction"].get<double>(), 0.0);
    const auto ep_cycles = ep["total_cycles"].get<std::int64_t>();
    EXPECT_LT(ep_cycles, cx["total_cycles"].get<std::int64_t>());
    EXPECT_LT(ep_cycles, cx["dense_total_cycles"].get<std::int64_t>())
        << "§5.4: EP's pruned run is faster than dense training on the baseline";
    EXPECT_LT(lenet_run("eager_pruning_2048")["total_energy_pj"].get<double>(),
              lenet_run("eager_pruning_cx_baseline")["total_energy_pj"].get<double>());
}

// One iteration of LeNet's conv layers at 40 % of their weights: with the
// pruning spread unevenly over the filters (§4.1: one output's work "differs
// significantly from another"), CX's rows, one output channel each, wait for
// the filter that kept the most; EP's flexible allocation does not.
nlohmann::json lenet_conv_iteration(const std::string& arch, const std::string& model,
                                    const std::string& phase) {
    const std::string profile = trainloop::testing::temp_file(
        "ep_spread_" + arch + "_" + phase + ".yaml",
        "sparsity_profile: ep_spread\n"
        "model: " +
            model +
            "\n"
            "rules:\n"
            "  - {layers: [conv1, conv2], tensors: [w, dw], density: 0.4}\n");
    const CommandResult r = trainloop::testing::run_trainloop(
        "map --arch " + arch + " --workload lenet --batch 64 --phase " + phase + " --sparsity " +
            profile + " --search anneal --budget 3000 --objective latency --quiet --format json",
        Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output);
}

// One iteration of LeNet on EP's array with a search that converges on it, and
// the partial groups §5.2's sub-systems take (K = 50 on 4 rows as 13 + 13 + 12 + 12).
nlohmann::json lenet_iteration_converged(const std::string& phase, const std::string& sparsity,
                                         const std::string& arch = "eager_pruning_2048") {
    const CommandResult r = trainloop::testing::run_trainloop(
        "map --arch " + arch + " --workload lenet --batch 64 --phase " + phase + sparsity +
            kConvergedSearch + " --quiet --format json",
        Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return nlohmann::json::parse(r.output);
}

double conv_cycles(const nlohmann::json& map, const std::string& phase) {
    double cycles = 0;
    for (const auto& layer : map["layers"]) {
        const std::string name = layer["name"];
        if (name.rfind("conv", 0) == 0 && layer["phases"].contains(phase)) {
            cycles += layer["phases"][phase]["cycles"].get<double>();
        }
    }
    return cycles;
}

// The dimensions spread across the rows (`spatial_y`) or the columns
// (`spatial_x`) of `layer_name`'s mapping in `phase`, one letter each.
std::string spread_of(const nlohmann::json& map, const std::string& layer_name,
                      const std::string& phase, const char* axis = "spatial_y") {
    std::string dims;
    for (const auto& layer : map["layers"]) {
        if (layer["name"] != layer_name) continue;
        for (const auto& level : layer["phases"][phase]["mapping"]["levels"]) {
            for (const auto& loop : level[axis]) dims += loop.get<std::string>().substr(0, 1);
        }
    }
    return dims;
}

TEST(EagerPruningArchitectures, CxRowsHoldOneOutputChannelAndIdleWhenFiltersDiffer) {
    const std::string uniform = "uniform";
    const std::string spread = "{name: clustered, distribution: beta, cv: 0.6, unit: filter}";
    const nlohmann::json cx_even = lenet_conv_iteration("eager_pruning_cx_baseline", uniform, "fw");
    const nlohmann::json cx_uneven =
        lenet_conv_iteration("eager_pruning_cx_baseline", spread, "fw");
    const nlohmann::json ep_even = lenet_conv_iteration("eager_pruning_2048", uniform, "fw");
    const nlohmann::json ep_uneven = lenet_conv_iteration("eager_pruning_2048", spread, "fw");
    EXPECT_EQ(spread_of(cx_even, "conv2", "fw"), "K") << "fw: the output channels on the rows";
    EXPECT_EQ(
        spread_of(lenet_conv_iteration("eager_pruning_cx_baseline", uniform, "bw"), "conv2", "bw"),
        "C")
        << "bw: dx's channels on the rows";
    EXPECT_GT(conv_cycles(cx_uneven, "fw"), 1.2 * conv_cycles(cx_even, "fw"));
    EXPECT_NEAR(conv_cycles(ep_uneven, "fw"), conv_cycles(ep_even, "fw"),
                0.05 * conv_cycles(ep_even, "fw"));
}

// §5.2's FlexFlow: each of its 64 rows computes outputs, the 32 PEs of a row
// their reduction (BP and KU assumed alike), and it trains dense: pruning
// does not shorten its run, and EP's pruned run beats its dense training
// (§5.4's direction; docs/reproductions/eager_pruning.md).
TEST(EagerPruningArchitectures, FlexFlowRowsTakeOutputsAndItsPEsTheirReduction) {
    const std::map<std::string, std::pair<std::string, std::string>> allowed = {
        {"fw", {"KPQ", "CRS"}}, {"bw", {"CPQ", "KRS"}}, {"wu", {"KCRS", "NPQ"}}};
    for (const auto& [phase, dims] : allowed) {
        SCOPED_TRACE(phase);
        const nlohmann::json map =
            lenet_iteration_converged(phase, "", "eager_pruning_ff_baseline");
        for (const char* layer : {"conv2", "ip1"}) {
            const std::string rows = spread_of(map, layer, phase, "spatial_y");
            const std::string columns = spread_of(map, layer, phase, "spatial_x");
            EXPECT_FALSE(rows.empty()) << layer;
            EXPECT_EQ(rows.find_first_not_of(dims.first), std::string::npos) << layer << rows;
            EXPECT_EQ(columns.find_first_not_of(dims.second), std::string::npos)
                << layer << columns;
        }
    }
    const nlohmann::json ff = lenet_run("eager_pruning_ff_baseline", kConvergedSearch);
    EXPECT_EQ(ff["total_cycles"], ff["dense_total_cycles"]) << "a dense design";
    EXPECT_LT(lenet_run("eager_pruning_2048", kConvergedSearch)["total_cycles"].get<double>(),
              ff["dense_total_cycles"].get<double>());
}

// trainloop's EP gains the same from pruning in every phase: its flexible
// allocation spreads each phase's nonzeros evenly over the PEs. The paper's own
// Fig. 19 and Fig. 20(b) put its BP and KU at about the ideal dense speed
// (docs/reproductions/eager_pruning.md, "Where the paper's EP loses its
// pruning"); a model of that loss must change this test and that section.
TEST(EagerPruningArchitectures, FlexibleAllocationGainsAlikeInEveryPhase) {
    const std::string profile = trainloop::testing::temp_file(
        "ep_alike.yaml",
        "sparsity_profile: ep_alike\n"
        "rules:\n"
        "  - {layers: [conv1, conv2], tensors: [w, dw], density: 0.4}\n");
    for (const char* phase : {"fw", "bw", "wu"}) {
        SCOPED_TRACE(phase);
        const double pruned =
            conv_cycles(lenet_iteration_converged(phase, " --sparsity " + profile), phase);
        ASSERT_GT(pruned, 0.0);
        const double unpruned = conv_cycles(lenet_iteration_converged(phase, ""), phase);
        // 40 % of the weights kept: at most 2.5× faster (measured 2.50 in every phase;
        // DRACT's fill costs a few cycles).
        EXPECT_GT(unpruned / pruned, 2.4);
        EXPECT_LE(unpruned / pruned, 2.5 * 1.001);
    }
}

// §5.2 names the prototype's DDR4 but not its rate; the shipped spec leaves
// DRAM unlimited. Limited to DDR4-2400 over two 64-bit interfaces at 200 MHz
// (96 words per cycle, reads and writes on one bus), every phase slows, and the pruned kernel
// update keeps less of its unlimited speed than the pruned forward pass: it reads the minibatch's
// inputs and errors and writes every update (§4.4). docs/reproductions/eager_pruning.md, "The
// prototype's DDR4".
TEST(EagerPruningArchitectures, ADdr4LimitTakesMostFromThePrunedKernelUpdate) {
    const std::string limited = trainloop::testing::shipped_spec_with_dram_bandwidth(
        "eager_pruning_2048", 96, trainloop::testing::DramBus::shared);
    ASSERT_FALSE(limited.empty());
    const std::string pruned =
        " --sparsity " + trainloop::testing::temp_file("ep_ddr4_profile.yaml",
                                                       "sparsity_profile: ep_ddr4\n"
                                                       "rules:\n"
                                                       "  - {layers: [conv1, conv2], tensors: [w, "
                                                       "dw], density: 0.4}\n");
    std::map<std::string, double> kept;
    for (const char* phase : {"fw", "wu"}) {
        SCOPED_TRACE(phase);
        const double fast = conv_cycles(lenet_iteration_converged(phase, pruned), phase);
        const double slow = conv_cycles(lenet_iteration_converged(phase, pruned, limited), phase);
        const double dense_fast = conv_cycles(lenet_iteration_converged(phase, ""), phase);
        const double dense_slow = conv_cycles(lenet_iteration_converged(phase, "", limited), phase);
        ASSERT_GT(fast, 0.0);
        EXPECT_GT(slow, fast);
        EXPECT_GT(dense_slow, dense_fast);
        kept[phase] = fast / slow;
    }
    EXPECT_LT(kept["wu"], 0.9 * kept["fw"]);
}

}  // namespace
