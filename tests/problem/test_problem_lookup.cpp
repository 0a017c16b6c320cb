// Finding a layer's phase problem by name: each way of getting it wrong says why.
#include <gtest/gtest.h>

#include "problem/problem_lookup.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

class ProblemLookup : public ::testing::Test {
  protected:
    const Network network = load_network("resnet18");
    const NetworkTraining training = derive_training_problems(network, 16);
};

TEST_F(ProblemLookup, FindsAMacLayersPhase) {
    const PhaseProblem& p = find_phase_problem(network, training, "layer2.0.conv2", Phase::wu);
    EXPECT_EQ(p.layer, "layer2.0.conv2");
    EXPECT_EQ(p.phase, Phase::wu);
}

TEST_F(ProblemLookup, AMisspelledLayerGetsTheNearestName) {
    const SpecError e = expect_spec_error([&] {
        find_phase_problem(network, training, "layer2.0.cnov2", Phase::fw, {"m.yaml", 0, 0});
    });
    EXPECT_EQ(e.where().file, "m.yaml");
    EXPECT_EQ(e.key_path(), "layer");
    EXPECT_EQ(e.hint(), "did you mean `layer2.0.conv2`?");
}

TEST_F(ProblemLookup, ANonMacLayerIsNamedAsSuch) {
    const SpecError e =
        expect_spec_error([&] { find_phase_problem(network, training, "bn1", Phase::fw); });
    EXPECT_TRUE(contains(e.message(), "is a batchnorm layer, which does no MACs"));
}

TEST_F(ProblemLookup, TheFirstLayersMissingBackwardPhaseIsExplained) {
    const SpecError e =
        expect_spec_error([&] { find_phase_problem(network, training, "conv1", Phase::bw); });
    EXPECT_TRUE(contains(e.message(), "has no bw phase"));
}

}  // namespace
}  // namespace trainloop
