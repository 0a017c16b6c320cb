// Each kind of bad network file gets a SpecError that names the file, the
// line, the key path and what was expected.
#include <gtest/gtest.h>

#include <tuple>

#include "support/network_text.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/network.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

Network build(const std::string& yaml) { return testing::network_from_text(yaml); }

const std::string kHeader =
    "network: tiny\n"
    "inputs:\n"
    "  - {name: image, channels: 3, height: 8, width: 8}\n"
    "layers:\n";

TEST(NetworkErrors, BadYamlSyntaxNamesTheLine) {
    const SpecError e = expect_spec_error([] { build(kHeader + "  - {name: a, type: conv\n"); });
    EXPECT_EQ(e.where().file, "net.yaml");
    EXPECT_GE(e.where().line, 5);
    EXPECT_TRUE(contains(e.message(), "YAML syntax error"));
}

TEST(NetworkErrors, UnknownKeySuggestsTheNearestValidKey) {
    const SpecError e = expect_spec_error([] {
        build(kHeader + "  - {name: a, type: conv, inputs: [image], out_chanels: 4, kernel: 3}\n");
    });
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "layers[0].out_chanels");
    EXPECT_TRUE(contains(e.message(), "unknown key `out_chanels`"));
    EXPECT_EQ(e.hint(), "did you mean `out_channels`?");
}

TEST(NetworkErrors, MissingKeyIsNamed) {
    const SpecError e = expect_spec_error(
        [] { build(kHeader + "  - {name: a, type: conv, inputs: [image], kernel: 3}\n"); });
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "layers[0]");
    EXPECT_TRUE(contains(e.message(), "missing key `out_channels`"));
}

// Names hold letters, digits, `_`, `-` and `.` (common/names.hpp): a path
// separator, `..`, a control character or a right-to-left override is
// refused at the name, for the network, its inputs and its layers.
TEST(NetworkErrors, ANameWithCharactersNamesMayNotHoldIsRefused) {
    const std::string layer = "  - {name: a, type: relu, inputs: [image]}\n";
    for (const auto& [text, line, key, said] :
         {std::tuple{kHeader + "  - {name: \"../../etc/passwd\", type: relu, inputs: [image]}\n", 5,
                     "layers[0].name", "holds `/`"},
          std::tuple{kHeader + "  - {name: \"conv\\n1\", type: relu, inputs: [image]}\n", 5,
                     "layers[0].name", "U+000A"},
          std::tuple{kHeader + "  - {name: \"fc\u202Egnp\", type: relu, inputs: [image]}\n", 5,
                     "layers[0].name", "U+202E"},
          std::tuple{kHeader + "  - {name: .., type: relu, inputs: [image]}\n", 5, "layers[0].name",
                     "begins with `.`"},
          std::tuple{"network: a/b\n" + kHeader.substr(kHeader.find('\n') + 1) + layer, 1,
                     "network", "holds `/`"},
          std::tuple{
              "network: tiny\ninputs:\n  - {name: \"im age\", channels: 3}\nlayers:\n" + layer, 3,
              "inputs[0].name", "holds a space"}}) {
        const SpecError e = expect_spec_error([&, text = text] { build(text); });
        EXPECT_EQ(e.where().line, line) << text;
        EXPECT_EQ(e.key_path(), key) << text;
        EXPECT_TRUE(contains(e.message(), said)) << e.message();
        EXPECT_TRUE(contains(e.expected(), "ASCII letters, digits")) << e.expected();
    }
}

TEST(NetworkErrors, WrongTypeSaysWhatWasExpected) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: a, type: conv, inputs: [image], out_channels: four, kernel: 3}\n");
    });
    EXPECT_EQ(e.key_path(), "layers[0].out_channels");
    EXPECT_TRUE(contains(e.message(), "`four` is not an integer"));
    EXPECT_EQ(e.expected(), "an integer");
}

TEST(NetworkErrors, NonPositiveDimensionIsRejected) {
    const SpecError e = expect_spec_error([] {
        build(kHeader + "  - {name: a, type: conv, inputs: [image], out_channels: 0, kernel: 3}\n");
    });
    EXPECT_EQ(e.key_path(), "layers[0].out_channels");
    EXPECT_TRUE(contains(e.message(), "non-positive value 0"));
    const SpecError input = expect_spec_error([] {
        build(
            "network: t\ninputs:\n  - {name: image, channels: 3, height: -8}\nlayers:\n"
            "  - {name: r, type: relu, inputs: [image]}\n");
    });
    EXPECT_EQ(input.key_path(), "inputs[0].height");
    EXPECT_EQ(input.where().line, 3);
}

TEST(NetworkErrors, UnknownLayerTypeSuggestsTheNearestType) {
    const SpecError e =
        expect_spec_error([] { build(kHeader + "  - {name: a, type: cnov, inputs: [image]}\n"); });
    EXPECT_EQ(e.key_path(), "layers[0].type");
    EXPECT_EQ(e.hint(), "did you mean `conv`?");
}

TEST(NetworkErrors, ShapeMismatchNamesBothLayers) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: a, type: conv, inputs: [image], out_channels: 4, kernel: 3, padding: 1}\n"
              "  - {name: b, type: conv, inputs: [image], out_channels: 8, kernel: 3, padding: 1}\n"
              "  - {name: sum, type: add, inputs: [a, b]}\n");
    });
    EXPECT_EQ(e.where().line, 7);
    EXPECT_EQ(e.key_path(), "layers[2]");
    EXPECT_TRUE(contains(e.message(), "input `a` is 4×8×8 but input `b` is 8×8×8"));
}

TEST(NetworkErrors, ConcatNeedsEqualHeightAndWidth) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: a, type: conv, inputs: [image], out_channels: 4, kernel: 3}\n"
              "  - {name: cat, type: concat, inputs: [image, a]}\n");
    });
    EXPECT_TRUE(contains(e.message(), "input `image` is 3×8×8 but input `a` is 4×6×6"));
}

TEST(NetworkErrors, CycleIsReportedWithItsPath) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: a, type: relu, inputs: [c]}\n"
              "  - {name: b, type: relu, inputs: [a]}\n"
              "  - {name: c, type: add, inputs: [b, image]}\n");
    });
    EXPECT_TRUE(contains(e.message(), "cycle"));
    // The cycle is printed from wherever the search closed it: check its edges.
    for (const char* edge : {"a → b", "b → c", "c → a"}) EXPECT_TRUE(contains(e.message(), edge));
}

TEST(NetworkErrors, ALongCycleIsShownByItsEnds) {
    // Found by fuzz_spec_yaml: a DenseNet whose layers were made a cycle gave
    // a 10,009-byte message listing every layer.
    std::string yaml = kHeader + "  - {name: l0, type: add, inputs: [l199, image]}\n";
    for (int i = 1; i < 200; ++i)
        yaml += "  - {name: l" + std::to_string(i) + ", type: relu, inputs: [l" +
                std::to_string(i - 1) + "]}\n";
    const SpecError e = expect_spec_error([&] { build(yaml); });
    EXPECT_TRUE(contains(e.message(), "cycle")) << e.message();
    EXPECT_TRUE(contains(e.message(), "more layers)")) << e.message();
    EXPECT_LT(e.message().size(), 300u) << e.message();
}

TEST(NetworkErrors, UnknownInputSuggestsTheNearestName) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: conv1, type: conv, inputs: [imgae], out_channels: 4, kernel: 3}\n");
    });
    EXPECT_EQ(e.key_path(), "layers[0].inputs");
    EXPECT_EQ(e.hint(), "did you mean `image`?");
}

TEST(NetworkErrors, DisconnectedPiecesAreRejected) {
    const SpecError e = expect_spec_error([] {
        build(
            "network: t\ninputs:\n  - {name: a, channels: 3}\n  - {name: b, channels: 3}\n"
            "layers:\n  - {name: ra, type: relu, inputs: [a]}\n"
            "  - {name: rb, type: relu, inputs: [b]}\n");
    });
    EXPECT_TRUE(contains(e.message(), "not connected"));
}

TEST(NetworkErrors, DuplicateNamesAreRejected) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: a, type: relu, inputs: [image]}\n"
              "  - {name: a, type: relu, inputs: [a]}\n");
    });
    EXPECT_EQ(e.key_path(), "layers[1]");
    EXPECT_TRUE(contains(e.message(), "duplicate name `a`"));
}

TEST(NetworkErrors, GroupsMustDivideTheInputChannels) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: dw, type: conv, inputs: [image], out_channels: 6, kernel: 3, "
              "groups: 2}\n");
    });
    EXPECT_TRUE(contains(e.message(), "groups 2 does not divide the 3 channels of input `image`"));
}

TEST(NetworkErrors, KernelLargerThanItsInputIsRejected) {
    const SpecError e = expect_spec_error([] {
        build(kHeader +
              "  - {name: big, type: conv, inputs: [image], out_channels: 4, kernel: 9}\n");
    });
    EXPECT_TRUE(contains(e.message(), "does not fit input `image`"));
}

TEST(NetworkErrors, AddNeedsTwoInputsAndConvOne) {
    EXPECT_TRUE(contains(expect_spec_error([] {
                             build(kHeader + "  - {name: s, type: add, inputs: [image]}\n");
                         }).message(),
                         "at least two inputs"));
    EXPECT_TRUE(contains(expect_spec_error([] {
                             build(kHeader + "  - {name: r, type: relu, inputs: [image, image]}\n");
                         }).message(),
                         "exactly one input"));
}

TEST(NetworkErrors, MissingFileIsAClearError) {
    const SpecError e = expect_spec_error([] { load_network_spec("/nonexistent/net.yaml"); });
    EXPECT_EQ(e.where().file, "/nonexistent/net.yaml");
    EXPECT_TRUE(contains(e.message(), "cannot open file"));
}

}  // namespace
}  // namespace trainloop
