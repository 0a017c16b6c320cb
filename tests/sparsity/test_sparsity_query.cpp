#include <gtest/gtest.h>

#include <stdexcept>

#include "density/sparsity_profile.hpp"
#include "density/sparsity_query.hpp"

namespace trainloop {
namespace {

SparsityProfile parse(const std::string& yaml) {
    return parse_sparsity_profile(SpecNode::load_string(yaml, "inline.yaml"));
}

const char* const kLayered = R"(
sparsity_profile: layered
rules:
  - {tensors: w, density: 0.5}
  - {layers: "layer?.*", tensors: w, density: 0.25}
  - {networks: resnet18, layers: layer2.0.conv1, tensors: w, density: 0.125}
  - {networks: "mobile*", tensors: [w, x], phases: fw, density: 0.75}
)";

TEST(SparsityQuery, UnnamedTensorsAreDense) {
    const SparsityProfile p = parse(kLayered);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::x, Phase::fw), 1.0);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::dy, Phase::wu), 1.0);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::dw, Phase::wu), 1.0);
    EXPECT_EQ(matching_rule(p, "resnet18", "conv1", TensorName::dy, Phase::wu), nullptr);
}

TEST(SparsityQuery, LaterRulesOverrideEarlierOnes) {
    const SparsityProfile p = parse(kLayered);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::w, Phase::fw), 0.5);
    EXPECT_EQ(density(p, "resnet18", "layer1.0.conv1", TensorName::w, Phase::fw), 0.25);
    EXPECT_EQ(density(p, "resnet18", "layer2.0.conv1", TensorName::w, Phase::bw), 0.125);
    EXPECT_EQ(density(p, "vgg_s", "layer2.0.conv1", TensorName::w, Phase::bw), 0.25)
        << "the third rule names resnet18 only";
    const SparsityRule* rule =
        matching_rule(p, "resnet18", "layer2.0.conv1", TensorName::w, Phase::fw);
    ASSERT_NE(rule, nullptr);
    EXPECT_EQ(rule->location.line, 6);
}

TEST(SparsityQuery, PhasesDefaultToAllOfTheTensorsPhases) {
    const SparsityProfile p = parse(kLayered);
    EXPECT_EQ(density(p, "mobilenet_v2", "layer1.0.conv1", TensorName::w, Phase::fw), 0.75);
    EXPECT_EQ(density(p, "mobilenet_v2", "layer1.0.conv1", TensorName::w, Phase::bw), 0.25)
        << "the last rule names fw only; bw falls back to the earlier rule";
    EXPECT_EQ(density(p, "mobilenet_v2", "conv1", TensorName::x, Phase::fw), 0.75);
    EXPECT_EQ(density(p, "mobilenet_v2", "conv1", TensorName::x, Phase::wu), 1.0);
}

TEST(SparsityQuery, AnEarlierRuleNeverOverridesALaterOne) {
    const SparsityProfile p = parse(R"(
sparsity_profile: order
rules:
  - {layers: conv1, tensors: x, density: 1.0}
  - {tensors: x, density: 0.5}
)");
    EXPECT_EQ(density(p, "any", "conv1", TensorName::x, Phase::fw), 0.5)
        << "the catch-all comes last, so it wins even for conv1";
}

TEST(SparsityQuery, ModelComesFromTheRuleOrTheProfileDefault) {
    const SparsityProfile p = parse(R"(
sparsity_profile: models
model: {name: uniform, parameters: {}}
rules:
  - {tensors: w, density: 0.3}
  - {tensors: x, density: 0.5, model: uniform}
)");
    EXPECT_EQ(density_model_name(density_model(p, "n", "l", TensorName::w, Phase::fw)), "uniform");
    EXPECT_EQ(density_model_name(density_model(p, "n", "l", TensorName::x, Phase::wu)), "uniform");
    EXPECT_EQ(density_model_name(density_model(p, "n", "l", TensorName::dy, Phase::wu)), "uniform");
}

TEST(SparsityQuery, ScheduleRulesAnswerPerIteration) {
    const SparsityProfile p = parse(R"(
sparsity_profile: sched
rules:
  - tensors: w
    schedule:
      interpolation: step
      points:
        - {iteration: 0, density: 1.0}
        - {iteration: 10, density: 0.5}
)");
    EXPECT_EQ(density(p, "n", "l", TensorName::w, Phase::fw, 9), 1.0);
    EXPECT_EQ(density(p, "n", "l", TensorName::w, Phase::fw, 10), 0.5);
    EXPECT_EQ(density(p, "n", "l", TensorName::w, Phase::bw), 0.5) << "default: final iteration";
}

TEST(SparsityQuery, AskingForATensorOutsideItsPhasesIsAProgrammingError) {
    const SparsityProfile p = parse(kLayered);
    EXPECT_THROW(density(p, "resnet18", "conv1", TensorName::w, Phase::wu), std::invalid_argument);
    EXPECT_THROW(density(p, "resnet18", "conv1", TensorName::y, Phase::bw), std::invalid_argument);
}

}  // namespace
}  // namespace trainloop
