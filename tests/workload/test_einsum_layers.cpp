// Einsum layers in a network file (docs/workload_format.md, "Einsum layers"):
// an operation of a trained weight and the layer's input, written as an
// equation. A transformer's feed-forward matmul written as an einsum counts
// exactly what the `matmul` layer counts, in every phase and under the same
// mapping; bad einsum layers are located errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "nest/nest_analysis.hpp"
#include "problem/training_problems.hpp"
#include "support/eval_fixtures.hpp"
#include "support/network_text.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/network_yaml.hpp"

namespace trainloop {
namespace {

// A sequence of 512 tokens of 768 features per sample (a BERT-base block's input).
const std::string kTokens = "{name: x, channels: 768, height: 512}";

Network build(const std::string& layers, const std::string& input = kTokens) {
    return testing::network_from_text("network: t\ninputs:\n  - " + input + "\nlayers:\n" + layers,
                                      "t.yaml");
}

const std::string kUpEinsum =
    "  - {name: up, type: einsum, inputs: [x], einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]',\n"
    "     weights: W, dims: {s: 512, e: 768, f: 3072}}\n";
const std::string kUpMatmul = "  - {name: up, type: matmul, inputs: [x], out_features: 3072}\n";

TEST(EinsumLayers, AFeedForwardEinsumIsTheMatmulsProblem) {
    const Network einsum = build(kUpEinsum);
    const Network matmul = build(kUpMatmul);
    EXPECT_EQ(einsum.layers().back().output_shape, matmul.layers().back().output_shape);
    const std::int64_t batch = 4;
    const NetworkTraining a = derive_training_problems(einsum, batch);
    const NetworkTraining b = derive_training_problems(matmul, batch);
    ASSERT_EQ(a.layers.size(), 1u);
    // 6 × parameters × tokens for the whole step: 2 × 768 × 3072 × 512 × 4 per phase.
    const std::int64_t macs = 768LL * 3072 * 512 * batch;
    EXPECT_EQ(a.total_weights(), 768 * 3072);
    EXPECT_EQ(a.phase_macs(Phase::fw), macs);
    EXPECT_EQ(a.phase_macs(Phase::wu), macs);
    EXPECT_EQ(a.layers[0].phases.size(), b.layers[0].phases.size());
    // The same mapping counts the same on both (the einsum's indices take the
    // matmul's slots: f on K, e on C, b on N, s on P).
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(0).temporal = testing::loops({{Dim::N, 4}, {Dim::K, 48}, {Dim::P, 64}});
    m.level(1).temporal = testing::loops({{Dim::C, 48}, {Dim::P, 8}});
    m.level(1).spatial_x = testing::loops({{Dim::C, 16}});
    m.level(1).spatial_y = testing::loops({{Dim::K, 16}});
    m.level(2).temporal = testing::loops({{Dim::K, 4}});
    for (std::size_t p = 0; p < a.layers[0].phases.size(); ++p) {
        const NestAnalysis x = analyze_nest(a.layers[0].phases[p], m);
        const NestAnalysis y = analyze_nest(b.layers[0].phases[p], m);
        for (std::size_t i = 0; i < 3; ++i) {
            for (DataSpace s : kAllDataSpaces) {
                EXPECT_EQ(x.levels[i].space(s).fills, y.levels[i].space(s).fills);
                EXPECT_EQ(x.levels[i].space(s).reads, y.levels[i].space(s).reads);
                EXPECT_EQ(x.levels[i].space(s).updates, y.levels[i].space(s).updates);
                EXPECT_EQ(x.levels[i].space(s).tile, y.levels[i].space(s).tile);
            }
        }
    }
    EXPECT_EQ(to_string(a.layers[0].space), "b=4 s=512 f=3072 e=768");
}

TEST(EinsumLayers, MultiHeadProjectionsKeepTheirHeadsAsADimension) {
    // Q = X·W_q split into 12 heads of 64: the result's last axis is a head's
    // 64 features, the others (tokens × heads) its positions.
    const Network n = build(
        "  - {name: q, type: einsum, inputs: [x], einsum: 'Q[b,s,h,d] += W[h,d,e] * X[b,s,e]',\n"
        "     weights: W, dims: {s: 512, h: 12, d: 64, e: 768}}\n");
    EXPECT_EQ(n.layers().back().output_shape, (TensorShape{64, 512 * 12, 1}));
    const NetworkTraining t = derive_training_problems(n, 2);
    EXPECT_EQ(t.total_weights(), 12 * 64 * 768);
    EXPECT_EQ(t.phase_macs(Phase::fw), 2LL * 512 * 12 * 64 * 768);
}

TEST(EinsumLayers, AWrittenNetworkReadsBackTheSame) {
    const Network n = build(kUpEinsum);
    const std::string yaml = network_to_yaml(n.spec());
    const Network again = testing::network_from_text(yaml, "again.yaml");
    EXPECT_EQ(std::get<EinsumAttributes>(again.spec().layers.back().attributes),
              std::get<EinsumAttributes>(n.spec().layers.back().attributes))
        << yaml;
}

struct BadLayer {
    std::string layer;
    std::string says;
    std::string key;
};

TEST(EinsumLayers, BadEinsumLayersAreLocatedErrors) {
    const std::string head = "  - {name: up, type: einsum, inputs: [x], ";
    const BadLayer cases[] = {
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: X, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "`X` is not the first operand", "weights"},
        {head + "einsum: 'Y[b,s,f] += X[b,s,e] * W[f,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "`W` is not the first operand", "weights"},
        {head + "einsum: 'Y[t,s,f] += W[f,e] * X[t,s,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "no index of", "einsum"},
        {head + "einsum: 'Y[b,s,f] += W[b,f,e] * X[b,s,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "must index `X` and `Y` but not the weight `W`", "einsum"},
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3, z: 2}}\n",
         "unknown key `z`", "dims"},
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: W, dims: {s: 512, e: 768}}\n",
         "`f`", "dims"},
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: W, dims: {s: 256, e: 768, "
                "f: 3}}\n",
         "reads 196608 elements per sample as `X`, but input `x` has 393216", "dims"},
        {head + "einsum: 'Y[b,s,f] += W[f,e*e] * X[b,s,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "not affine", "einsum"},
        {head + "einsum: 'Y[b,s,q] += W[f,e] * X[b,s,e]', weights: W, dims: {s: 512, e: 768, "
                "f: 3}}\n",
         "index `q` of the result `Y` is in neither operand", "einsum"},
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: W, batch: t, dims: {s: 512, "
                "e: 768, f: 3}}\n",
         "`t` is no index of", "batch"},
        {head + "einsum: 'Y[b,s,f] += W[f,e] * X[b,s,e]', weights: W, dims: {s: 9007199254740992, "
                "e: 768, f: 3}}\n",
         "has more than 2^53", "dims"},
        {"  - {name: up, type: einsum, inputs: [x, x], einsum: 'S[b,q,k] += Q[b,q,d] * "
         "K[b,k,d]', weights: Q, dims: {q: 4, k: 4, d: 2}}\n",
         "an einsum of two activations is not modelled yet", "inputs"},
    };
    for (const BadLayer& c : cases) {
        const SpecError e = testing::expect_spec_error([&] { build(c.layer); });
        EXPECT_NE(e.message().find(c.says), std::string::npos) << c.layer << "\n" << e.message();
        EXPECT_EQ(e.where().file, "t.yaml") << c.layer;
        EXPECT_GT(e.where().line, 0) << c.layer;
        EXPECT_NE(e.key_path().find(c.key), std::string::npos) << c.layer << " " << e.key_path();
    }
}

TEST(EinsumLayers, MapFindsTheMatmulsBestMappingsNamedByTheEinsum) {
    // A feed-forward block twice, as einsums and as matmuls: the default search
    // sees the same problems and gives the same cycles and energy per
    // layer-phase; the einsum's mappings name its own indices.
    const std::string head = "inputs:\n  - " + kTokens + "\nlayers:\n";
    const std::string einsum = testing::temp_file(
        "ffn_einsum.yaml",
        "network: ffn_einsum\n" + head + kUpEinsum +
            "  - {name: down, type: einsum, inputs: [up], einsum: 'Y[b,s,e] += W[e,f] * "
            "H[b,s,f]',\n     weights: W, dims: {s: 512, e: 768, f: 3072}}\n");
    const std::string matmul = testing::temp_file(
        "ffn_matmul.yaml", "network: ffn_matmul\n" + head + kUpMatmul +
                               "  - {name: down, type: matmul, inputs: [up], out_features: 768}\n");
    auto map = [](const std::string& network) {
        const testing::CommandResult r =
            testing::run_trainloop("map --arch " + std::string(TRAINLOOP_SOURCE_DIR) +
                                   "/arch_specs/procrustes_baseline_16x16.yaml" + " --workload " +
                                   network + " --batch 2 --format json --quiet");
        EXPECT_EQ(r.exit_code, 0) << r.output;
        return nlohmann::json::parse(r.output);
    };
    const nlohmann::json a = map(einsum);
    const nlohmann::json b = map(matmul);
    ASSERT_EQ(a["layers"].size(), b["layers"].size());
    std::string loops;
    for (std::size_t i = 0; i < a["layers"].size(); ++i) {
        for (const auto& [phase, entry] : a["layers"][i]["phases"].items()) {
            const nlohmann::json& twin = b["layers"][i]["phases"][phase];
            EXPECT_EQ(entry["cycles"], twin["cycles"]) << i << " " << phase;
            EXPECT_EQ(entry["energy_pj"], twin["energy_pj"]) << i << " " << phase;
            for (const auto& level : entry["mapping"]["levels"]) {
                for (const auto& loop : level["temporal"]) loops += loop.get<std::string>()[0];
            }
        }
    }
    EXPECT_EQ(loops.find_first_not_of("bsef"), std::string::npos) << loops;
}

}  // namespace
}  // namespace trainloop
