// End-to-end: `eval` and `map` with a sparsity profile — the JSON keys of
// the sparse evaluation (docs/sparse_evaluation.md), dense results unchanged by an all-dense
// profile, the imbalance options, and the errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "support/npy_file.hpp"
#include "support/run_binary.hpp"

namespace {

using trainloop::testing::CommandResult;

const std::string kSource = TRAINLOOP_SOURCE_DIR;
const std::string kMapping = kSource + "/examples/mappings/resnet18_3x3_KN_fw.yaml";
const std::string kSparseArch = kSource + "/arch_specs/procrustes_sparse_16x16.yaml";

CommandResult run(const std::string& arguments) {
    return trainloop::testing::run_trainloop(arguments, trainloop::testing::Capture::stdout_only);
}

nlohmann::json run_json(const std::string& arguments) {
    const CommandResult r = run(arguments + " --format json");
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return nlohmann::json::parse(r.output);
}

TEST(SparseCli, EvalJsonHasTheSparseKeys) {
    const nlohmann::json j =
        run_json("eval -m " + kMapping + " --arch " + kSparseArch + " --sparsity procrustes");
    const double macs = j["macs"].get<double>();
    EXPECT_GT(j["effectual_macs"].get<double>(), 0.0);
    EXPECT_LT(j["effectual_macs"].get<double>(), macs) << "procrustes makes w and x sparse";
    EXPECT_LT(j["performed_macs"].get<double>(), macs) << "the sparse arch skips MACs";
    EXPECT_GE(j["imbalance_cycles"].get<double>(), 0.0);
    EXPECT_GE(j["imbalance_pct"].get<double>(), 0.0);
    ASSERT_TRUE(j.contains("imbalance"));
    EXPECT_GT(j["imbalance"]["waves"].get<double>(), 0.0);
    ASSERT_TRUE(j["metadata_reads"].contains("GLB"));
    EXPECT_GT(j["metadata_reads"]["GLB"].get<double>(), 0.0) << "weights are compressed at the GLB";
    EXPECT_TRUE(j["accesses"]["GLB"]["w"].contains("stored_words"));
}

TEST(SparseCli, AnAllDenseProfileLeavesTheDenseEvaluationUnchanged) {
    const nlohmann::json dense = run_json("eval -m " + kMapping);
    const nlohmann::json sparse = run_json("eval -m " + kMapping + " --sparsity dense");
    for (const char* key : {"cycles", "compute_cycles", "energy_pj", "utilization",
                            "energy_breakdown", "accesses", "level_cycles"}) {
        EXPECT_EQ(dense[key], sparse[key]) << key;
    }
    EXPECT_EQ(sparse["effectual_macs"], sparse["macs"]);
    EXPECT_EQ(sparse["imbalance_cycles"], 0);
}

TEST(SparseCli, MonteCarloAndClosedFormAgreeAndTheHistogramIsPrinted) {
    const std::string base = "eval -m " + kMapping + " --arch " + kSparseArch +
                             " --sparsity procrustes --imbalance-histogram";
    const nlohmann::json closed = run_json(base);
    const nlohmann::json sampled = run_json(base + " --imbalance monte-carlo --seed 3");
    const double c = closed["compute_cycles"].get<double>();
    const double s = sampled["compute_cycles"].get<double>();
    // The shipped sparse arch balances by half-tile pairing, whose closed form is within 8 %
    // of the Monte-Carlo reference on its grid (docs/load_imbalance.md; 5 % without balancing).
    EXPECT_NEAR(c, s, 0.08 * s) << "closed form vs Monte-Carlo compute cycles";
    EXPECT_FALSE(sampled["imbalance"]["histogram"].empty());
    const CommandResult text = run(base);
    ASSERT_EQ(text.exit_code, 0) << text.output;
    EXPECT_NE(text.output.find("load imbalance"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("per-wave overhead"), std::string::npos) << text.output;
}

// The shipped Procrustes spec with its CSB weights and inputs kept as a
// fibertree instead: offsets over the tile's outer loops, a bitmask over its
// innermost loop (docs/sparse_formats.md, "Fibertree formats").
std::string fibertree_procrustes() {
    std::string text = trainloop::testing::read_text(kSparseArch);
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"format: csb", "ranks: [UOP, B]"},
          {"component_library: components/",
           "component_library: " + kSource + "/arch_specs/components/"}}) {
        for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at))
            text.replace(at, from.size(), to);
    }
    return trainloop::testing::temp_file("procrustes_fibertree.yaml", text);
}

TEST(SparseCli, AFibertreeFormatEvaluatesEndToEnd) {
    const std::string arch = fibertree_procrustes();
    const nlohmann::json tree =
        run_json("eval -m " + kMapping + " --arch " + arch + " --sparsity procrustes");
    const nlohmann::json csb =
        run_json("eval -m " + kMapping + " --arch " + kSparseArch + " --sparsity procrustes");
    // The same nonzeros move, with another format's metadata beside them.
    EXPECT_EQ(tree["accesses"]["GLB"]["w"]["reads"], csb["accesses"]["GLB"]["w"]["reads"]);
    EXPECT_GT(tree["metadata_reads"]["GLB"].get<double>(), 0.0);
    EXPECT_NE(tree["metadata_reads"]["GLB"], csb["metadata_reads"]["GLB"]);
    EXPECT_EQ(tree["effectual_macs"], csb["effectual_macs"]);
}

TEST(SparseCli, AnUnknownProfileExitsWithTwoAndSuggestsAName) {
    const CommandResult r =
        trainloop::testing::run_trainloop("eval -m " + kMapping + " --sparsity procrustez",
                                          trainloop::testing::Capture::stdout_and_stderr);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("procrustes"), std::string::npos) << r.output;
}

// A profile whose rule gives layer2.0.conv2's weights (K=C=128, 3×3) an
// actual mask of the given shape, one element in four nonzero.
std::string mask_profile(const std::vector<std::int64_t>& shape) {
    std::int64_t elements = 1;
    for (std::int64_t d : shape) elements *= d;
    std::vector<std::uint8_t> data(std::size_t(elements), 0);
    for (std::size_t i = 0; i < data.size(); i += 4) data[i] = 1;
    const std::string mask = trainloop::testing::temp_path("w.npy");
    trainloop::testing::write_file(mask, trainloop::testing::npy_bytes(shape, data));
    return trainloop::testing::temp_file(
        "profile.yaml",
        "sparsity_profile: masked\nrules:\n  - layers: layer2.0.conv2\n"
        "    tensors: w\n    model: {name: mask, file: " +
            mask + "}\n");
}

TEST(SparseCli, AMaskOfTheLayersShapeGivesItsDensity) {
    const nlohmann::json j = run_json("eval -m " + kMapping + " --arch " + kSparseArch +
                                      " --sparsity " + mask_profile({128, 128, 3, 3}));
    EXPECT_DOUBLE_EQ(j["effectual_macs"].get<double>() / j["macs"].get<double>(), 0.25);
}

TEST(SparseCli, AMaskOfAnotherShapeExitsWithTwoNamingTheFileAndBothShapes) {
    const CommandResult r = trainloop::testing::run_trainloop(
        "eval -m " + kMapping + " --sparsity " + mask_profile({128, 64, 3, 3}),
        trainloop::testing::Capture::stdout_and_stderr);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("w.npy"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("128, 64, 3, 3"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("128, 128, 3, 3"), std::string::npos) << r.output;
}

TEST(SparseCli, MapWithAProfileReportsSparseMetricsPerLayerPhase) {
    const nlohmann::json j =
        run_json("map --arch " + kSparseArch +
                 " --workload mlp_mnist --search random --budget 300 --sparsity procrustes");
    for (const auto& layer : j["layers"]) {
        for (const auto& [phase, entry] : layer["phases"].items()) {
            EXPECT_TRUE(entry.contains("effectual_macs")) << phase;
            EXPECT_TRUE(entry.contains("imbalance_pct")) << phase;
            EXPECT_LE(entry["effectual_macs"].get<double>(), entry["macs"].get<double>());
        }
    }
}

}  // namespace
