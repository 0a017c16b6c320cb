// Output shapes and iteration spaces of each layer type.
#include <gtest/gtest.h>

#include "problem/iteration_space.hpp"
#include "support/network_text.hpp"
#include "workload/network.hpp"
#include "workload/shape_inference.hpp"

namespace trainloop {
namespace {

Network build(const std::string& layers,
              const std::string& input = "{name: in, channels: 32, height: 16, width: 16}") {
    return testing::network_from_text("network: t\ninputs:\n  - " + input + "\nlayers:\n" + layers,
                                      "t.yaml");
}

const AnalyzedLayer& last(const Network& n) { return n.layers().back(); }

TEST(SlidingWindow, FollowsTheConvolutionOutputFormula) {
    EXPECT_EQ(sliding_window_output(224, 7, 2, 3, 1), 112);  // ResNet conv1
    EXPECT_EQ(sliding_window_output(227, 11, 4, 0, 1), 55);  // AlexNet conv1
    EXPECT_EQ(sliding_window_output(16, 3, 1, 2, 2), 16);    // dilated 3×3, same padding
    EXPECT_EQ(sliding_window_output(2, 5, 1, 0, 1), 0);      // does not fit
}

TEST(LayerShapes, StridedPaddedConvolution) {
    const Network n = build(
        "  - {name: c, type: conv, inputs: [in], out_channels: 64, kernel: 3, stride: 2, padding: "
        "1}\n");
    EXPECT_EQ(last(n).output_shape, (TensorShape{64, 8, 8}));
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 4);
    EXPECT_EQ(to_string(s), "G=1 N=4 K=64 C=32 P=8 Q=8 R=3 S=3");
    EXPECT_EQ(conv_window(s.shape)->stride, (Extent2{2, 2}));
}

TEST(LayerShapes, RectangularKernelAndDilation) {
    const Network n = build(
        "  - {name: c, type: conv, inputs: [in], out_channels: 8, kernel: [1, 3], dilation: [1, "
        "2]}\n");
    EXPECT_EQ(last(n).output_shape, (TensorShape{8, 16, 12}));
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 1);
    EXPECT_EQ(s.bounds[Dim::R], 1);
    EXPECT_EQ(s.bounds[Dim::S], 3);
    EXPECT_EQ(conv_window(s.shape)->dilation, (Extent2{1, 2}));
}

TEST(LayerShapes, DepthwiseConvolutionPutsChannelsOnTheGroupDimension) {
    const Network n = build(
        "  - {name: dw, type: conv, inputs: [in], out_channels: 32, kernel: 3, padding: 1, groups: "
        "32}\n");
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 2);
    EXPECT_EQ(to_string(s), "G=32 N=2 K=1 C=1 P=16 Q=16 R=3 S=3");
    EXPECT_EQ(s.weights(), 32 * 9);
    EXPECT_EQ(s.macs(), 2 * 32 * 16 * 16 * 9);
}

TEST(LayerShapes, GroupedConvolutionSplitsChannels) {
    const Network n =
        build("  - {name: g, type: conv, inputs: [in], out_channels: 64, kernel: 1, groups: 4}\n");
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 1);
    EXPECT_EQ(to_string(s), "G=4 N=1 K=16 C=8 P=16 Q=16 R=1 S=1");
}

TEST(LayerShapes, FullyConnectedFlattensItsInput) {
    const Network n = build("  - {name: fc, type: fc, inputs: [in], out_features: 10}\n");
    EXPECT_EQ(last(n).output_shape, (TensorShape{10, 1, 1}));
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 8);
    EXPECT_EQ(to_string(s), "G=1 N=8 K=10 C=8192 P=1 Q=1 R=1 S=1");
}

TEST(LayerShapes, MatmulAppliesItsMatrixAtEveryToken) {
    const Network n = build("  - {name: proj, type: matmul, inputs: [tokens], out_features: 256}\n",
                            "{name: tokens, channels: 512, height: 128}");
    EXPECT_EQ(last(n).output_shape, (TensorShape{256, 128, 1}));
    const IterationSpace s =
        iteration_space_of(last(n).layer, last(n).input_shapes[0], last(n).output_shape, 4);
    EXPECT_EQ(to_string(s), "G=1 N=4 K=256 C=512 P=128 Q=1 R=1 S=1");
}

TEST(LayerShapes, PoolingAndGlobalPooling) {
    const Network n = build(
        "  - {name: mp, type: maxpool, inputs: [in], kernel: 3, stride: 2, padding: 1}\n"
        "  - {name: ap, type: avgpool, inputs: [mp], kernel: 2}\n"
        "  - {name: gap, type: avgpool, inputs: [ap], global: true}\n");
    EXPECT_EQ(n.layers()[0].output_shape, (TensorShape{32, 8, 8}));
    EXPECT_EQ(n.layers()[1].output_shape, (TensorShape{32, 4, 4}));
    EXPECT_EQ(n.layers()[2].output_shape, (TensorShape{32, 1, 1}));
}

TEST(LayerShapes, ConcatSumsChannelsAndAddKeepsTheShape) {
    const Network n = build(
        "  - {name: r, type: relu, inputs: [in]}\n"
        "  - {name: cat, type: concat, inputs: [in, r]}\n"
        "  - {name: bn, type: batchnorm, inputs: [cat]}\n"
        "  - {name: sum, type: add, inputs: [bn, cat]}\n");
    EXPECT_EQ(n.layers()[1].output_shape, (TensorShape{64, 16, 16}));
    EXPECT_EQ(n.layers()[3].output_shape, (TensorShape{64, 16, 16}));
}

TEST(NetworkOrder, TopologicalOrderKeepsFileOrderWhereEdgesAllow) {
    const Network n = build(
        "  - {name: late, type: relu, inputs: [early]}\n"
        "  - {name: early, type: relu, inputs: [in]}\n"
        "  - {name: side, type: relu, inputs: [in]}\n");
    std::vector<std::string> order;
    for (const auto& l : n.layers()) order.push_back(l.layer.name);
    EXPECT_EQ(order, (std::vector<std::string>{"early", "late", "side"}));
}

}  // namespace
}  // namespace trainloop
