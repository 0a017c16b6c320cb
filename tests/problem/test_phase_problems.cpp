// The three training phases of a layer: one iteration space, three sets of
// tensor roles (docs/design.md, "One iteration space, three phases"; Procrustes §II-A).
#include <gtest/gtest.h>

#include "problem/training_problems.hpp"
#include "support/eval_fixtures.hpp"
#include "support/network_text.hpp"
#include "workload/network.hpp"

namespace trainloop {
namespace {

TEST(PhaseProblem, AllPhasesShareTheMacCount) {
    for (Phase phase : kAllPhases) {
        // ResNet-18 conv3_x at batch 16: the MAC count of the Timeloop golden run.
        EXPECT_EQ(make_phase_problem("l", phase, testing::resnet18_conv3x()).macs(), 1'849'688'064);
    }
}

TEST(PhaseProblem, EachPhaseReducesIntoItsOwnOutputTensor) {
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, testing::resnet18_conv3x());
    const PhaseProblem bw = make_phase_problem("l", Phase::bw, testing::resnet18_conv3x());
    const PhaseProblem wu = make_phase_problem("l", Phase::wu, testing::resnet18_conv3x());
    EXPECT_EQ(fw.output_tensor(), TensorName::y);
    EXPECT_EQ(bw.output_tensor(), TensorName::dx);
    EXPECT_EQ(wu.output_tensor(), TensorName::dw);
    EXPECT_EQ(fw.output(), DataSpace::outputs);
    EXPECT_EQ(bw.output(), DataSpace::inputs);
    EXPECT_EQ(wu.output(), DataSpace::weights);
}

TEST(PhaseProblem, ReadTensorsFollowTheTrainingEquations) {
    // fw: y += w·x; bw: dx += w·dy; wu: dw += x·dy.
    const PhaseProblem bw = make_phase_problem("l", Phase::bw, testing::resnet18_conv3x());
    EXPECT_EQ(bw.role(DataSpace::weights).tensor, TensorName::w);
    EXPECT_EQ(bw.role(DataSpace::outputs).tensor, TensorName::dy);
    EXPECT_FALSE(bw.role(DataSpace::weights).is_output);
    EXPECT_TRUE(bw.role(DataSpace::inputs).is_output);
    const PhaseProblem wu = make_phase_problem("l", Phase::wu, testing::resnet18_conv3x());
    EXPECT_EQ(wu.role(DataSpace::inputs).tensor, TensorName::x);
    EXPECT_EQ(wu.role(DataSpace::outputs).tensor, TensorName::dy);
    EXPECT_TRUE(wu.role(DataSpace::weights).is_output);
}

TEST(PhaseProblem, ReducedDimensionsAreThoseNotIndexingTheOutput) {
    const DimSet fw = make_phase_problem("l", Phase::fw, testing::resnet18_conv3x()).reduced_dims();
    const DimSet bw = make_phase_problem("l", Phase::bw, testing::resnet18_conv3x()).reduced_dims();
    const DimSet wu = make_phase_problem("l", Phase::wu, testing::resnet18_conv3x()).reduced_dims();
    EXPECT_EQ(fw, (DimSet{Dim::C, Dim::R, Dim::S}));
    EXPECT_EQ(bw, (DimSet{Dim::K}));
    EXPECT_EQ(wu, (DimSet{Dim::N, Dim::P, Dim::Q}));
}

Network chain(const std::string& layers) {
    return testing::network_from_text(
        "network: t\ninputs:\n  - {name: image, channels: 3, height: 8, width: 8}\nlayers:\n" +
            layers,
        "t.yaml");
}

TEST(TrainingProblems, LayerFedOnlyThroughUntrainedLayersHasNoBackwardPhase) {
    const Network n = chain(
        "  - {name: pool, type: maxpool, inputs: [image], kernel: 2}\n"
        "  - {name: c1, type: conv, inputs: [pool], out_channels: 4, kernel: 1}\n"
        "  - {name: r1, type: relu, inputs: [c1]}\n"
        "  - {name: c2, type: conv, inputs: [r1], out_channels: 4, kernel: 1}\n");
    const NetworkTraining t = derive_training_problems(n, 2);
    ASSERT_EQ(t.layers.size(), 2u);
    EXPECT_EQ(t.layers[0].phases.size(), 2u);
    EXPECT_EQ(t.layers[0].find(Phase::bw), nullptr);
    EXPECT_EQ(t.layers[1].phases.size(), 3u);
    EXPECT_EQ(t.phase_macs(Phase::bw), t.layers[1].space.macs());
    EXPECT_EQ(t.phase_macs(Phase::fw), t.forward_macs());
}

TEST(TrainingProblems, BatchNormAloneUpstreamMakesTheInputGradientNeeded) {
    const Network n = chain(
        "  - {name: bn, type: batchnorm, inputs: [image]}\n"
        "  - {name: c1, type: conv, inputs: [bn], out_channels: 4, kernel: 1}\n");
    EXPECT_NE(derive_training_problems(n, 1).layers[0].find(Phase::bw), nullptr)
        << "bn's scale and shift train, so they need dx of c1";
}

}  // namespace
}  // namespace trainloop
