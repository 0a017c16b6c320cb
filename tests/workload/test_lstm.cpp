// An LSTM (`lstm`) expands into a matmul for its input gates and an lstm_cell
// for its recurrence (workload/lstm.hpp): per time step the four gate matmuls
// [x_t, h_{t-1}] × W with W shared over the sequence, so every phase has
// N·T·4H·(I+H) MACs, except bw, which always back-propagates through time
// into h_{t-1} but computes dx_t only when x needs a gradient. Bad parameters
// are located errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "problem/training_problems.hpp"
#include "support/network_text.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/lstm.hpp"
#include "workload/network.hpp"
#include "workload/network_yaml.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

Network build(const std::string& yaml) { return testing::network_from_text(yaml); }

// Input I features × `height` steps; the LSTM says `steps`.
std::string lstm_net(std::int64_t in, std::int64_t hidden, std::int64_t height, std::int64_t steps,
                     bool gradient = false) {
    return fmt::format(
        "network: lstm\n"
        "inputs:\n"
        "  - {{name: x, channels: {}, height: {}{}}}\n"
        "layers:\n"
        "  - {{name: l, type: lstm, inputs: [x], hidden_size: {}, sequence_length: {}}}\n"
        "  - {{name: head, type: matmul, inputs: [l], out_features: 5}}\n",
        in, height, gradient ? ", gradient: true" : "", hidden, steps);
}

std::vector<Phase> phases_of(const LayerTraining& layer) {
    std::vector<Phase> out;
    for (const PhaseProblem& p : layer.phases) out.push_back(p.phase);
    return out;
}

TEST(Lstm, ExpandsIntoInputGatesAndARecurrentCellThatKeepsTheName) {
    const Network net = build(lstm_net(7, 3, 11, 11));
    ASSERT_EQ(net.layers().size(), 3u);
    EXPECT_EQ(net.layers()[0].layer.name, "l.input_gates");
    EXPECT_EQ(net.layers()[0].layer.type, LayerType::matmul);
    EXPECT_EQ(net.layers()[1].layer.name, "l");
    EXPECT_EQ(net.layers()[1].layer.type, LayerType::lstm_cell);
    EXPECT_EQ(net.layers()[0].output_shape, (TensorShape{12, 11, 1}));  // 4H gates per step
    EXPECT_EQ(net.layers()[1].output_shape, (TensorShape{3, 11, 1}));   // h_1..h_T
    EXPECT_EQ(net.layers()[1].layer.location.line, 5);                  // the `lstm` entry
    EXPECT_TRUE(is_mac_layer(LayerType::lstm_cell));
    EXPECT_TRUE(is_recurrent(LayerType::lstm_cell));
    EXPECT_FALSE(is_recurrent(LayerType::matmul));
}

TEST(Lstm, EveryPhaseHasTheGateMatmulsOfEveryStepWithWeightsSharedOverTheSequence) {
    struct Case {
        std::int64_t in, hidden, steps, batch;
    };
    for (const Case c : {Case{153, 1024, 20, 32}, Case{7, 3, 11, 2}, Case{1, 1, 1, 1}}) {
        SCOPED_TRACE(fmt::format("I={} H={} T={} N={}", c.in, c.hidden, c.steps, c.batch));
        const NetworkTraining t = derive_training_problems(
            build(lstm_net(c.in, c.hidden, c.steps, c.steps, true)), c.batch);
        ASSERT_EQ(t.layers.size(), 3u);
        const std::int64_t gates = 4 * c.hidden;
        // W_x (4H × I) and W_h (4H × H): each weight used once per step and sample.
        EXPECT_EQ(t.layers[0].space.weights() + t.layers[1].space.weights(),
                  gates * (c.in + c.hidden));
        const std::int64_t lstm_macs = c.batch * c.steps * gates * (c.in + c.hidden);
        for (Phase phase : kAllPhases) {
            EXPECT_EQ(t.layers[0].find(phase)->macs() + t.layers[1].find(phase)->macs(), lstm_macs);
        }
        const DimBounds& cell = t.layers[1].space.bounds;
        EXPECT_EQ(cell[Dim::K], gates);
        EXPECT_EQ(cell[Dim::C], c.hidden);
        EXPECT_EQ(cell[Dim::P], c.steps);
        EXPECT_EQ(cell[Dim::N], c.batch);
    }
}

TEST(Lstm, BackPropagatesThroughTimeEvenWhenItsInputNeedsNoGradient) {
    // Fed by the data: no dx_t, but dh_{t-1} = W_h^T · d(gates)_t at every step.
    const NetworkTraining t = derive_training_problems(build(lstm_net(7, 3, 11, 11)), 2);
    const std::vector<Phase> all = {Phase::fw, Phase::bw, Phase::wu};
    const std::vector<Phase> no_bw = {Phase::fw, Phase::wu};
    EXPECT_EQ(phases_of(t.layers[0]), no_bw);
    EXPECT_EQ(phases_of(t.layers[1]), all);
    EXPECT_EQ(t.layers[1].find(Phase::bw)->macs(), 2 * 11 * 12 * 3);  // N·T·4H·H
    // A lone lstm_cell on a network input still has its recurrence to train through.
    const Network cell = build(
        "network: cell\n"
        "inputs:\n"
        "  - {name: gates, channels: 8, height: 4}\n"
        "layers:\n"
        "  - {name: c, type: lstm_cell, inputs: [gates], hidden_size: 2, sequence_length: 4}\n");
    const NetworkTraining tc = derive_training_problems(cell, 1);
    EXPECT_EQ(phases_of(tc.layers[0]), all);
}

TEST(Lstm, WritesBackAsTheLayersItExpandsInto) {
    const Network net = build(lstm_net(7, 3, 11, 11));
    const std::string text = network_to_yaml(net.spec());
    EXPECT_TRUE(contains(text, "type: lstm_cell"));
    EXPECT_TRUE(contains(text, "hidden_size: 3, sequence_length: 11"));
    const Network again = build(text);
    ASSERT_EQ(again.layers().size(), net.layers().size());
    for (std::size_t i = 0; i < net.layers().size(); ++i) {
        EXPECT_EQ(again.layers()[i].layer.name, net.layers()[i].layer.name);
        EXPECT_EQ(again.layers()[i].output_shape, net.layers()[i].output_shape);
    }
}

TEST(Lstm, ASequenceLengthThatIsNotTheInputsHeightIsALocatedError) {
    const SpecError e = expect_spec_error([] { build(lstm_net(7, 3, 11, 12)); });
    EXPECT_EQ(e.where().file, "net.yaml");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "layers[0].sequence_length");  // the `lstm` entry, not its parts
    EXPECT_TRUE(contains(e.message(), "sequence_length 12 does not match"));
    EXPECT_TRUE(contains(e.message(), "11 time steps"));
    EXPECT_TRUE(contains(e.expected(), "height sequence_length (12)"));
}

TEST(Lstm, AnInputWiderThanOneIsALocatedError) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: wide\n"
            "inputs:\n"
            "  - {name: x, channels: 4, height: 6, width: 2}\n"
            "layers:\n"
            "  - {name: l, type: lstm, inputs: [x], hidden_size: 3, sequence_length: 6}\n");
    });
    EXPECT_EQ(e.where().line, 5);
    EXPECT_TRUE(contains(e.message(), "width 2"));
}

TEST(Lstm, MissingOrNonPositiveParametersAreLocatedErrors) {
    struct Case {
        const char* keys;
        const char* key;
    };
    for (const Case c :
         {Case{"sequence_length: 6", "hidden_size"}, Case{"hidden_size: 3", "sequence_length"},
          Case{"hidden_size: 0, sequence_length: 6", "hidden_size"},
          Case{"hidden_size: 3, sequence_length: -1", "sequence_length"},
          Case{"hidden_size: 2.5, sequence_length: 6", "hidden_size"},
          Case{"hidden_size: 3, sequence_length: 6, out_features: 4", "out_features"},
          Case{"hidden_size: 2251799813685249, sequence_length: 6", "hidden_size"}}) {
        SCOPED_TRACE(c.keys);
        const SpecError e = expect_spec_error([&] {
            build(
                fmt::format("network: bad\n"
                            "inputs:\n"
                            "  - {{name: x, channels: 4, height: 6}}\n"
                            "layers:\n"
                            "  - {{name: l, type: lstm, inputs: [x], {}}}\n",
                            c.keys));
        });
        EXPECT_EQ(e.where().file, "net.yaml");
        EXPECT_EQ(e.where().line, 5);
        // A missing key is named in the message, a bad value by its key path.
        EXPECT_TRUE(contains(e.key_path() + " " + e.message(), c.key))
            << e.key_path() << ": " << e.message();
    }
}

TEST(Lstm, TwoInputsAreALocatedError) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: two\n"
            "inputs:\n"
            "  - {name: x, channels: 4, height: 6}\n"
            "  - {name: y, channels: 4, height: 6}\n"
            "layers:\n"
            "  - {name: l, type: lstm, inputs: [x, y], hidden_size: 3, sequence_length: 6}\n");
    });
    EXPECT_EQ(e.where().line, 6);
    EXPECT_TRUE(contains(e.key_path(), "inputs"));
    EXPECT_TRUE(contains(e.message(), "exactly one input, got 2"));
}

TEST(Lstm, ACellWhoseInputIsNotFourGatesPerCellIsALocatedError) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: cell\n"
            "inputs:\n"
            "  - {name: gates, channels: 9, height: 4}\n"
            "layers:\n"
            "  - {name: c, type: lstm_cell, inputs: [gates], hidden_size: 2, sequence_length: "
            "4}\n");
    });
    EXPECT_EQ(e.where().line, 5);
    EXPECT_TRUE(contains(e.key_path(), "hidden_size"));
    EXPECT_TRUE(contains(e.message(), "9 channels, not the 4 × 2 gate"));
}

TEST(Lstm, ANameTakenByItsInputGatesIsADuplicate) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: dup\n"
            "inputs:\n"
            "  - {name: x, channels: 4, height: 6}\n"
            "layers:\n"
            "  - {name: l.input_gates, type: relu, inputs: [x]}\n"
            "  - {name: l, type: lstm, inputs: [x], hidden_size: 3, sequence_length: 6}\n");
    });
    EXPECT_EQ(e.where().line, 6);
    EXPECT_TRUE(
        contains(e.message(), "duplicate name `l.input_gates` (the input gates of LSTM `l`)"));
}

// Two entries named `l`: the second's own name is the duplicate, not the
// input gates it would make (which were the first clash the parser met).
TEST(Lstm, ANameWrittenTwiceIsReportedAsWritten) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: dup\n"
            "inputs:\n"
            "  - {name: x, channels: 4, height: 6}\n"
            "layers:\n"
            "  - {name: l, type: lstm, inputs: [x], hidden_size: 3, sequence_length: 6}\n"
            "  - {name: l, type: lstm, inputs: [x], hidden_size: 3, sequence_length: 6}\n");
    });
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.key_path(), "layers[1]");
    EXPECT_TRUE(contains(e.message(), "duplicate name `l`"));
    EXPECT_FALSE(contains(e.message(), "input_gates"));
}

}  // namespace
}  // namespace trainloop
