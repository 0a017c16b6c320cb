#include <gtest/gtest.h>

#include <filesystem>

#include "density/sparsity_profile.hpp"
#include "density/sparsity_query.hpp"
#include "density/tensor_phases.hpp"

namespace trainloop {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "workloads/sparsity";

TEST(ShippedProfiles, EveryFileLoads) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
        if (entry.path().extension() != ".yaml") continue;
        SCOPED_TRACE(entry.path().string());
        EXPECT_NO_THROW(load_sparsity_profile(entry.path()));
        ++count;
    }
    EXPECT_GE(count, 2);
}

TEST(ShippedProfiles, DenseIsDenseEverywhere) {
    const SparsityProfile p = load_sparsity_profile(kDir / "dense.yaml");
    EXPECT_EQ(p.name, "dense");
    for (TensorName t : kAllTensorNames) {
        for (Phase ph : phases_of(t)) {
            EXPECT_EQ(density(p, "resnet18", "layer1.0.conv1", t, ph), 1.0)
                << tensor_name(t) << " in " << phase_name(ph);
        }
    }
}

class Procrustes : public ::testing::Test {
  protected:
    const SparsityProfile p = load_sparsity_profile(kDir / "procrustes.yaml");
};

TEST_F(Procrustes, ResNet18WeightsHaveOneDensityPerLayerInFwAndBw) {
    EXPECT_EQ(p.name, "procrustes");
    // Per-layer densities (their totals against Table II:
    // test_profile_against_networks.cpp); the same in fw and bw; dw dense.
    const double d = density(p, "resnet18", "layer2.1.conv2", TensorName::w, Phase::fw);
    EXPECT_GT(d, 0.0);
    EXPECT_LT(d, 1.0);
    EXPECT_EQ(density(p, "resnet18", "layer2.1.conv2", TensorName::w, Phase::bw), d);
    EXPECT_EQ(density(p, "resnet18", "layer2.1.conv2", TensorName::dw, Phase::wu), 1.0);
}

TEST_F(Procrustes, EveryLayerOfTheTableIINetworksIsPruned) {
    for (const char* network :
         {"resnet18", "mobilenet_v2", "vgg_s", "wrn_28_10", "densenet_cifar"}) {
        EXPECT_EQ(density(p, network, "any_layer", TensorName::w, Phase::fw), 1.0)
            << network << ": the rules name layers, not networks";
    }
    EXPECT_LT(density(p, "wrn_28_10", "conv0", TensorName::w, Phase::fw), 1.0);
    EXPECT_EQ(density(p, "alexnet", "conv2", TensorName::w, Phase::fw), 1.0)
        << "a network the profile does not name keeps dense weights";
}

TEST_F(Procrustes, OutputGradientsAreDense) {
    EXPECT_EQ(density(p, "resnet18", "layer1.0.conv1", TensorName::dy, Phase::bw), 1.0);
    EXPECT_EQ(density(p, "resnet18", "layer1.0.conv1", TensorName::dy, Phase::wu), 1.0);
}

TEST_F(Procrustes, InputActivationsArePostReluExceptTheImage) {
    EXPECT_EQ(density(p, "vgg_s", "conv3", TensorName::x, Phase::fw), 0.5);
    EXPECT_EQ(density(p, "vgg_s", "conv3", TensorName::x, Phase::wu), 0.5);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::x, Phase::fw), 1.0);
    EXPECT_EQ(density(p, "resnet18", "conv1", TensorName::x, Phase::wu), 1.0);
}

TEST_F(Procrustes, WeightDensityDecaysOverTheFirstThousandIterations) {
    const double final = density(p, "resnet18", "fc", TensorName::w, Phase::fw);
    EXPECT_EQ(density(p, "resnet18", "fc", TensorName::w, Phase::fw, 0), 1.0);
    EXPECT_NEAR(density(p, "resnet18", "fc", TensorName::w, Phase::fw, 500), (1 + final) / 2, 1e-9);
    EXPECT_EQ(density(p, "resnet18", "fc", TensorName::w, Phase::bw, 1000), final);
    EXPECT_EQ(density(p, "resnet18", "fc", TensorName::w, Phase::bw, 200000), final);
}

TEST_F(Procrustes, UsesTheUniformModel) {
    EXPECT_EQ(density_model_name(density_model(p, "resnet18", "fc", TensorName::w, Phase::fw)),
              "uniform");
}

// Chen et al. 2024 (seed 003) §II-A.2 and §V-A: W pruned to 95 % by epoch 500
// of 1000 (iteration 5,004,500 at minibatch 128), G as sparse as W, A and E
// constant (0.5 assumed), the image dense.
TEST(ShippedProfiles, Chen2024PrunesWeightsAndGradientsToFivePercentByEpoch500) {
    const SparsityProfile p = load_sparsity_profile(kDir / "chen2024.yaml");
    EXPECT_EQ(p.name, "chen2024");
    constexpr std::int64_t kPruned = 5'004'500;
    for (const char* net : {"alexnet", "vgg16", "resnet152", "densenet169"}) {
        SCOPED_TRACE(net);
        const char* layer = "some.conv";
        EXPECT_EQ(density(p, net, layer, TensorName::w, Phase::fw, 0), 1.0);
        EXPECT_NEAR(density(p, net, layer, TensorName::w, Phase::bw, kPruned / 2), 0.525, 1e-9);
        EXPECT_NEAR(density(p, net, layer, TensorName::w, Phase::fw, kPruned), 0.05, 1e-12);
        EXPECT_NEAR(density(p, net, layer, TensorName::w, Phase::fw), 0.05, 1e-12);
        for (std::int64_t it : {std::int64_t(0), kPruned / 3, kPruned, 2 * kPruned}) {
            EXPECT_EQ(density(p, net, layer, TensorName::dw, Phase::wu, it),
                      density(p, net, layer, TensorName::w, Phase::fw, it));
        }
        EXPECT_EQ(density(p, net, layer, TensorName::x, Phase::fw), 0.5);
        EXPECT_EQ(density(p, net, layer, TensorName::x, Phase::wu), 0.5);
        EXPECT_EQ(density(p, net, layer, TensorName::dy, Phase::bw), 0.5);
        EXPECT_EQ(density(p, net, layer, TensorName::dy, Phase::wu), 0.5);
    }
    for (const char* first : {"conv1", "conv1_1", "features.conv0"}) {
        EXPECT_EQ(density(p, "any", first, TensorName::x, Phase::fw), 1.0) << first;
    }
}

}  // namespace
}  // namespace trainloop
