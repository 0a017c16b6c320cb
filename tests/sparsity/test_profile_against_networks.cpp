// The shipped Procrustes profile names real layers of the shipped networks,
// and gives every MAC layer the densities the paper's setup implies.
#include <gtest/gtest.h>

#include "common/data_directory.hpp"
#include "density/glob.hpp"
#include "density/sparsity_query.hpp"
#include "problem/training_problems.hpp"
#include "sparse/network_densities.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

SparsityProfile procrustes() {
    return load_sparsity_profile(data_directory() / "workloads/sparsity/procrustes.yaml");
}

TEST(ProcrustesProfile, EveryLayerPatternOfANamedNetworkMatchesALayer) {
    const SparsityProfile profile = procrustes();
    for (const SparsityRule& rule : profile.rules) {
        for (const std::string& network_name : rule.networks) {
            const Network network = load_network(network_name);
            for (const std::string& pattern : rule.layers) {
                bool found = false;
                for (const AnalyzedLayer& layer : network.layers()) {
                    found = found || glob_match(pattern, layer.layer.name);
                }
                EXPECT_TRUE(found) << network_name << " has no layer matching `" << pattern
                                   << "` (rule at line " << rule.location.line << ")";
            }
        }
    }
}

TEST(ProcrustesProfile, TheImageFedFirstLayerReadsDenseInputs) {
    const SparsityProfile profile = procrustes();
    for (const char* name : {"resnet18", "mobilenet_v2", "vgg_s", "wrn_28_10", "densenet_cifar"}) {
        const Network network = load_network(name);
        const NetworkTraining training = derive_training_problems(network, 1);
        const std::string& first = training.layers.front().layer->layer.name;
        EXPECT_EQ(density(profile, name, first, TensorName::x, Phase::fw), 1.0) << name;
        const std::string& second = training.layers[1].layer->layer.name;
        EXPECT_LT(density(profile, name, second, TensorName::x, Phase::wu), 1.0) << name;
    }
}

// Procrustes Table II: weights and forward MACs before and after pruning.
struct TableII {
    const char* network;
    double dense_weights, dense_macs, sparse_weights, sparse_macs;
};
constexpr TableII kTableII[] = {
    {"densenet_cifar", 2.7e6, 528e6, 692e3, 157e6}, {"wrn_28_10", 36e6, 4e9, 8.3e6, 863e6},
    {"vgg_s", 15e6, 269e6, 2.9e6, 113e6},           {"mobilenet_v2", 3.5e6, 301e6, 0.35e6, 75e6},
    {"resnet18", 11.7e6, 1.8e9, 1e6, 359e6},
};

// The profile's final weight densities, weighted by each layer's weights and
// by its forward MACs, reproduce Table II's two reductions per network (to
// the rounding of Table II's three significant digits).
TEST(ProcrustesProfile, PerLayerWeightDensitiesReproduceBothTableIIReductions) {
    const SparsityProfile profile = procrustes();
    for (const TableII& row : kTableII) {
        const Network network = load_network(row.network);
        const NetworkDensities d =
            network_densities(profile, row.network, derive_training_problems(network, 1));
        const double weight_reduction = row.dense_weights / row.sparse_weights;
        const double mac_reduction = row.dense_macs / row.sparse_macs;
        EXPECT_NEAR(d.weight_reduction(), weight_reduction, 0.005 * weight_reduction)
            << row.network;
        EXPECT_NEAR(d.mac_reduction(), mac_reduction, 0.005 * mac_reduction) << row.network;
    }
}

// The densities differ by layer (the old assumption, one density per
// network, gives ResNet-18 an 11.7x MAC reduction instead of Table II's 5x).
TEST(ProcrustesProfile, WeightDensitiesDifferAcrossLayers) {
    const SparsityProfile profile = procrustes();
    const double first = density(profile, "resnet18", "layer1.0.conv1", TensorName::w, Phase::fw);
    const double last = density(profile, "resnet18", "fc", TensorName::w, Phase::fw);
    EXPECT_GT(first, 10 * last);
    EXPECT_EQ(density(profile, "resnet18", "layer1.0.conv1", TensorName::w, Phase::bw), first);
}

}  // namespace
}  // namespace trainloop
