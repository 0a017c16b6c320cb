// End-to-end: `trainloop train-cost --evaluator cartesian`, the
// Cartesian-product evaluator (eval/cartesian_product.hpp) reached from a
// whole training run (training_run/cartesian_costs.hpp) on an architecture's
// `cartesian_product:` section: its steps are the `cartesian` command's
// layer-phases summed, its sparse run gains over dense training, and the
// runs it cannot do exit 2 with a located message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::Capture;
using trainloop::testing::CommandResult;
using trainloop::testing::run_trainloop;
using trainloop::testing::temp_file;

const std::string kGscn = std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/gscn_4x64.yaml";

// LeNet's two convolutions (workloads/lenet.yaml), without its fc layers,
// which the `cartesian` command does not evaluate.
const std::string kConvNet =
    "network: two_convs\n"
    "inputs:\n"
    "  - {name: image, channels: 1, height: 28, width: 28}\n"
    "layers:\n"
    "  - {name: conv1, type: conv, inputs: [image], out_channels: 20, kernel: 5}\n"
    "  - {name: pool1, type: maxpool, inputs: [conv1], kernel: 2, stride: 2}\n"
    "  - {name: conv2, type: conv, inputs: [pool1], out_channels: 50, kernel: 5}\n";

// ReSprop's SpHG (workloads/sparsity/resprop.yaml) without its warm-up: dy at 0.1 in
// both back-propagation convolutions from iteration 0.
const std::string kSpHG =
    "sparsity_profile: sphg\n"
    "rules:\n"
    "  - tensors: dy\n"
    "    phases: [bw, wu]\n"
    "    density: 0.1\n";

nlohmann::json json_of(const std::string& arguments) {
    const CommandResult r = run_trainloop(arguments, Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return nlohmann::json::parse(r.output);
}

// GSCN's array as `cartesian` options (arch_specs/gscn_4x64.yaml's section).
const std::string kGscnOptions =
    "--pes 8x8 --vectors 4x4 --banks 32 --tiling split-filters --predictor --tiles 4";

// Σ over the layer-phases of `cartesian`'s slowest PE, each rounded up (only `phase`'s
// unless it is empty).
double cartesian_step_cycles(const nlohmann::json& j, const std::string& phase = "") {
    double cycles = 0;
    for (const auto& layer : j["layers"])
        if (phase.empty() || layer["phase"] == phase)
            cycles += std::ceil(layer["slowest_pe_cycles"].get<double>() - 1e-9);
    return cycles;
}

TEST(TrainCostCartesian, AStepIsTheCartesianCommandsLayerPhasesSummed) {
    const std::string net = temp_file("two_convs.yaml", kConvNet);
    const std::string profile = temp_file("sphg.yaml", kSpHG);
    const nlohmann::json run =
        json_of("train-cost --arch " + kGscn + " --workload " + net + " --batch 8 --sparsity " +
                profile + " --iterations 10 --evaluator cartesian --quiet --format json");
    EXPECT_EQ(run["evaluator"], "cartesian");
    EXPECT_EQ(run["cartesian_product"]["tiling"], "split_filters");
    EXPECT_EQ(run["cartesian_product"]["sample_tiles"], 4);
    EXPECT_FALSE(run.contains("workload_stddev")) << "not computed by this evaluator";
    EXPECT_FALSE(run.contains("strategy")) << "no search";
    EXPECT_EQ(run["evaluations"], 0);

    const nlohmann::json dense =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --format json");
    const nlohmann::json sparse =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --sparsity " +
                profile + " --format json");
    EXPECT_EQ(run["dense_step"]["cycles"].get<double>(), cartesian_step_cycles(dense));
    ASSERT_EQ(run["samples"].size(), 1u);
    EXPECT_EQ(run["samples"][0]["step_cycles"].get<double>(), cartesian_step_cycles(sparse));
    EXPECT_EQ(run["total_cycles"].get<std::int64_t>(),
              10 * run["samples"][0]["step_cycles"].get<std::int64_t>());

    // SpHG cuts both back-propagation convolutions' products tenfold; fw is unchanged, so
    // the step is faster, but never by more than dense training's step over its fw.
    EXPECT_GT(run["speedup"].get<double>(), 1.0);
    EXPECT_LT(run["speedup"].get<double>(),
              cartesian_step_cycles(dense) / cartesian_step_cycles(dense, "fw"));
    EXPECT_LT(run["energy_ratio"].get<double>(), 1.0);
    EXPECT_LT(run["total_offchip_words"].get<double>(),
              run["dense_total_offchip_words"].get<double>());
    EXPECT_GT(run["macs_removed_fraction"].get<double>(), 0.5);
}

TEST(TrainCostCartesian, FullyConnectedLayersRunAsOneByOneConvolutions) {
    // LeNet's fc layers are evaluated too: every phase of every MAC layer has a cost.
    const nlohmann::json run = json_of("train-cost --arch " + kGscn +
                                       " --workload lenet --batch 8 --sparsity dense "
                                       "--iterations 1 --evaluator cartesian --quiet "
                                       "--format json");
    const nlohmann::json convs =
        json_of("cartesian --workload lenet --batch 8 " + kGscnOptions + " --format json");
    EXPECT_GT(run["dense_step"]["cycles"].get<double>(), cartesian_step_cycles(convs))
        << "ip1 and ip2 add their cycles to the convolutions'";
    EXPECT_EQ(run["speedup"].get<double>(), 1.0) << "a dense profile is dense training";
    const CommandResult text =
        run_trainloop("train-cost --arch " + kGscn +
                      " --workload lenet --batch 8 --sparsity dense --iterations 1 --evaluator "
                      "cartesian --quiet");
    ASSERT_EQ(text.exit_code, 0) << text.output;
    EXPECT_NE(text.output.find("on the Cartesian-product array: 4 tiles of 8×8 PEs, F×I = 4×4, "
                               "split_filters tiling with GSCN's predictor"),
              std::string::npos)
        << text.output;
    EXPECT_EQ(text.output.find("workload spread"), std::string::npos) << text.output;
}

TEST(TrainCostCartesian, AnArchitectureWithoutTheSectionExit2NamingIt) {
    const std::string procrustes =
        std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_sparse_16x16.yaml";
    const CommandResult r = run_trainloop("train-cost --arch " + procrustes +
                                          " --workload lenet --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("procrustes_sparse_16x16.yaml"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("no `cartesian_product:` section"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--evaluator loop-nest"), std::string::npos) << r.output;
}

TEST(TrainCostCartesian, ALayerThatIsNeitherConvNorFcExit2NamingIt) {
    // The TIMIT LSTM's recurrent cells: no plane to convolve.
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn +
                                          " --workload lstm_timit --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--evaluator"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("is neither a conv nor an fc layer"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("expected: conv and fc layers"), std::string::npos) << r.output;
}

TEST(TrainCostCartesian, ADatabaseIsRefusedAndNothingIsWritten) {
    const std::string db = trainloop::testing::fresh_db("cartesian.db");
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn +
                                          " --workload lenet --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet --db " +
                                          db);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--db"), std::string::npos) << r.output;
    FILE* f = std::fopen(db.c_str(), "r");
    EXPECT_EQ(f, nullptr) << "no database created";
    if (f != nullptr) std::fclose(f);
}

TEST(TrainCostCartesian, AnUnknownEvaluatorExit2ListingTheTwo) {
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn +
                                          " --workload lenet --sparsity dense --iterations 1 "
                                          "--evaluator cartesain --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("loop-nest"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cartesian"), std::string::npos) << r.output;
}

}  // namespace
