// The shipped Procrustes profile names real layers of the shipped networks,
// and gives every MAC layer the densities the paper's setup implies.
#include <gtest/gtest.h>

#include "common/data_directory.hpp"
#include "density/glob.hpp"
#include "density/sparsity_query.hpp"
#include "problem/training_problems.hpp"
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

}  // namespace
}  // namespace trainloop
