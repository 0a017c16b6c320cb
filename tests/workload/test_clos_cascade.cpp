// A Clos cascade (`clos_fc`, CloNets §II) expands into three grouped fc stages
// joined by two weightless shuffles: its weights are the paper's
// P = Rm (I + O + Ri·Ro), each stage's MACs equal its weights per sample, and
// it trains in all three phases; invalid router counts are located errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "problem/training_problems.hpp"
#include "support/network_text.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/clos_cascade.hpp"
#include "workload/network.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

Network build(const std::string& yaml) { return testing::network_from_text(yaml); }

std::string cascade_net(std::int64_t in, std::int64_t out, std::int64_t ri, std::int64_t rm,
                        std::int64_t ro, bool gradient = false) {
    return fmt::format(
        "network: clos\n"
        "inputs:\n"
        "  - {{name: x, channels: {}{}}}\n"
        "layers:\n"
        "  - {{name: c, type: clos_fc, inputs: [x], out_features: {}, input_routers: {}, "
        "middle_routers: {}, output_routers: {}}}\n"
        "  - {{name: head, type: fc, inputs: [c], out_features: 3}}\n",
        in, gradient ? ", gradient: true" : "", out, ri, rm, ro);
}

struct Config {
    std::int64_t in, out, ri, rm, ro;
};

// CloNets §IV's four MNIST router configurations, Table I's 1024 × 1024 one,
// and uneven ones (I != O, Ri != Ro, not powers of two).
constexpr Config kConfigs[] = {{1024, 256, 32, 16, 32},  {1024, 256, 32, 8, 32},
                               {1024, 256, 16, 8, 16},   {1024, 256, 16, 5, 16},
                               {1024, 1024, 32, 32, 32}, {8, 8, 4, 2, 4},
                               {4, 4, 2, 2, 2},          {90, 12, 6, 7, 4}};

TEST(ClosCascade, WeightsAreThePapersParameterCountAndMacsEqualThemPerSample) {
    for (const Config& c : kConfigs) {
        SCOPED_TRACE(fmt::format("({}, {}, {}, {}, {})", c.in, c.out, c.ri, c.rm, c.ro));
        const Network net = build(cascade_net(c.in, c.out, c.ri, c.rm, c.ro));
        const NetworkTraining training = derive_training_problems(net, 1);
        ASSERT_EQ(training.layers.size(), 4u);  // three stages and the head
        std::int64_t weights = 0;
        std::int64_t macs = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            weights += training.layers[i].space.weights();
            macs += training.layers[i].space.macs();
            EXPECT_EQ(training.layers[i].layer->layer.cascade, "c");
        }
        const std::int64_t paper = c.rm * (c.in + c.out + c.ri * c.ro);  // §II
        EXPECT_EQ(weights, paper);
        EXPECT_EQ(clos_parameter_count(c.in, {c.out, c.ri, c.rm, c.ro}), paper);
        EXPECT_EQ(macs, paper);
        EXPECT_EQ(net.layers().back().input_shapes.front().channels, c.out);
    }
}

TEST(ClosCascade, StagesAreBlockDiagonalGroupsOfTheRouterSizes) {
    const NetworkTraining training =
        derive_training_problems(build(cascade_net(90, 12, 6, 7, 4)), 2);
    const auto bounds = [&](std::size_t i) { return training.layers[i].space.bounds; };
    // Input routers: Ri = 6 blocks of (90/6 = 15 inputs) × Rm = 7 outputs.
    EXPECT_EQ(bounds(0)[Dim::G], 6);
    EXPECT_EQ(bounds(0)[Dim::C], 15);
    EXPECT_EQ(bounds(0)[Dim::K], 7);
    // Middle routers: Rm = 7 blocks of Ri = 6 × Ro = 4.
    EXPECT_EQ(bounds(1)[Dim::G], 7);
    EXPECT_EQ(bounds(1)[Dim::C], 6);
    EXPECT_EQ(bounds(1)[Dim::K], 4);
    // Output routers: Ro = 4 blocks of Rm = 7 × (12/4 = 3).
    EXPECT_EQ(bounds(2)[Dim::G], 4);
    EXPECT_EQ(bounds(2)[Dim::C], 7);
    EXPECT_EQ(bounds(2)[Dim::K], 3);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(bounds(i)[Dim::N], 2);
}

TEST(ClosCascade, WeightlessShufflesJoinTheStages) {
    const Network net = build(cascade_net(8, 8, 4, 2, 4));
    ASSERT_EQ(net.layers().size(), 6u);
    const std::vector<std::string> names = {
        "c.input_routers", "c.shuffle_in", "c.middle_routers", "c.shuffle_out", "c", "head"};
    const std::vector<LayerType> types = {LayerType::fc,      LayerType::shuffle, LayerType::fc,
                                          LayerType::shuffle, LayerType::fc,      LayerType::fc};
    for (std::size_t i = 0; i < names.size(); ++i) {
        EXPECT_EQ(net.layers()[i].layer.name, names[i]);
        EXPECT_EQ(net.layers()[i].layer.type, types[i]);
    }
    EXPECT_FALSE(has_parameters(LayerType::shuffle));
    EXPECT_EQ(std::get<ShuffleAttributes>(net.layers()[1].layer.attributes).groups, 4);  // Ri
    EXPECT_EQ(std::get<ShuffleAttributes>(net.layers()[3].layer.attributes).groups, 2);  // Rm
    EXPECT_EQ(net.layers()[1].output_shape.channels, 8);                                 // Ri·Rm
    EXPECT_EQ(net.layers()[3].output_shape.channels, 8);                                 // Rm·Ro
}

TEST(ClosCascade, TrainsInAllThreePhasesWhenItsInputNeedsAGradient) {
    const auto phases = [](const NetworkTraining& t, std::size_t i) {
        std::vector<Phase> out;
        for (const PhaseProblem& p : t.layers[i].phases) out.push_back(p.phase);
        return out;
    };
    const std::vector<Phase> all = {Phase::fw, Phase::bw, Phase::wu};
    const std::vector<Phase> no_bw = {Phase::fw, Phase::wu};
    // Fed by the data, the first stage needs no input gradient; the later ones do.
    const Network first = build(cascade_net(16, 16, 4, 4, 4));
    const NetworkTraining t1 = derive_training_problems(first, 1);
    EXPECT_EQ(phases(t1, 0), no_bw);
    EXPECT_EQ(phases(t1, 1), all);
    EXPECT_EQ(phases(t1, 2), all);
    // An input marked `gradient: true` comes from trainable layers elsewhere.
    const Network inner = build(cascade_net(16, 16, 4, 4, 4, true));
    const NetworkTraining t2 = derive_training_problems(inner, 1);
    for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(phases(t2, i), all);
    EXPECT_EQ(t2.phase_macs(Phase::bw), t2.phase_macs(Phase::fw));
    EXPECT_EQ(t2.phase_macs(Phase::wu), t2.phase_macs(Phase::fw));
}

TEST(ClosCascade, OutputRoutersThatDoNotDivideTheOutputsAreALocatedError) {
    const SpecError e = expect_spec_error([] { build(cascade_net(16, 10, 4, 4, 4)); });
    EXPECT_EQ(e.where().file, "net.yaml");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "layers[0].output_routers");
    EXPECT_TRUE(contains(e.message(), "output_routers 4 does not divide out_features 10"));
    EXPECT_TRUE(contains(e.expected(), "divides out_features"));
}

TEST(ClosCascade, InputRoutersThatDoNotDivideTheInputsAreALocatedError) {
    const SpecError e = expect_spec_error([] { build(cascade_net(10, 16, 4, 4, 4)); });
    EXPECT_EQ(e.where().line, 5);
    EXPECT_TRUE(contains(e.key_path(), "input_routers"));
    EXPECT_TRUE(contains(e.message(),
                         "input_routers 4 does not divide the 10 input features of "
                         "Clos cascade `c`"));
}

TEST(ClosCascade, MissingRouterCountAndZeroRoutersAreLocatedErrors) {
    const SpecError missing = expect_spec_error([] {
        build(
            "network: n\ninputs:\n  - {name: x, channels: 8}\nlayers:\n"
            "  - {name: c, type: clos_fc, inputs: [x], out_features: 8, input_routers: 2, "
            "output_routers: 2}\n");
    });
    EXPECT_TRUE(contains(missing.message(), "missing key `middle_routers`"));
    const SpecError zero = expect_spec_error([] { build(cascade_net(8, 8, 2, 0, 2)); });
    EXPECT_EQ(zero.key_path(), "layers[0].middle_routers");
}

TEST(ClosCascade, AStageNameThatIsTakenIsALocatedError) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: n\ninputs:\n  - {name: x, channels: 8}\nlayers:\n"
            "  - {name: c.shuffle_in, type: relu, inputs: [x]}\n"
            "  - {name: c, type: clos_fc, inputs: [c.shuffle_in], out_features: 8, "
            "input_routers: 2, middle_routers: 2, output_routers: 2}\n");
    });
    EXPECT_EQ(e.where().line, 6);
    EXPECT_TRUE(contains(e.message(), "duplicate name `c.shuffle_in` (a stage of Clos cascade"));
}

// A layer named like the cascade: the cascade's own name is the duplicate
// (not "`c` (a stage of Clos cascade `c`)").
TEST(ClosCascade, ANameWrittenTwiceIsReportedAsWritten) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: n\ninputs:\n  - {name: x, channels: 8}\nlayers:\n"
            "  - {name: c, type: relu, inputs: [x]}\n"
            "  - {name: c, type: clos_fc, inputs: [x], out_features: 8, "
            "input_routers: 2, middle_routers: 2, output_routers: 2}\n");
    });
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.key_path(), "layers[1]");
    EXPECT_TRUE(contains(e.message(), "duplicate name `c`"));
    EXPECT_FALSE(contains(e.message(), "stage"));
}

TEST(GroupedLayers, FcAndShuffleGroupsMustDivideTheirTensors) {
    const std::string head = "network: n\ninputs:\n  - {name: x, channels: 6}\nlayers:\n";
    const SpecError out = expect_spec_error([&] {
        build(head + "  - {name: f, type: fc, inputs: [x], out_features: 9, groups: 2}\n");
    });
    EXPECT_EQ(out.key_path(), "layers[0].groups");
    const SpecError in = expect_spec_error([&] {
        build(head + "  - {name: f, type: fc, inputs: [x], out_features: 8, groups: 4}\n");
    });
    EXPECT_TRUE(contains(in.message(), "groups 4 does not divide the 6 input features"));
    const SpecError shuffle = expect_spec_error(
        [&] { build(head + "  - {name: s, type: shuffle, inputs: [x], groups: 4}\n"); });
    EXPECT_EQ(shuffle.key_path(), "layers[0].groups");
    // A valid grouped fc: G = 2 blocks of 3 × 4.
    const Network ok =
        build(head + "  - {name: f, type: fc, inputs: [x], out_features: 8, groups: 2}\n");
    const NetworkTraining t = derive_training_problems(ok, 1);
    EXPECT_EQ(t.layers[0].space.weights(), 2 * 3 * 4);
}

}  // namespace
}  // namespace trainloop
