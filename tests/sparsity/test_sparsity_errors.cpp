// One test per kind of user error: each must be a SpecError at the right
// line and key path, with a message (and hint) a user can act on.
#include <gtest/gtest.h>

#include "density/sparsity_profile.hpp"

namespace trainloop {
namespace {

SpecError error_of(const std::string& yaml) {
    try {
        parse_sparsity_profile(SpecNode::load_string(yaml, "inline.yaml"));
    } catch (const SpecError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a SpecError for:\n" << yaml;
    return SpecError({}, "", "");
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

#define EXPECT_CONTAINS(text, part) EXPECT_TRUE(contains(text, part)) << "`" << (text) << "`"

TEST(SparsityErrors, UnknownTopLevelKeySuggestsTheNearestOne) {
    const SpecError e = error_of(R"(sparsity_profile: p
rule:
  - {tensors: w, density: 0.5}
)");
    EXPECT_EQ(e.where().file, "inline.yaml");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.key_path(), "rule");
    EXPECT_CONTAINS(e.message(), "unknown key `rule`");
    EXPECT_EQ(e.hint(), "did you mean `rules`?");
}

TEST(SparsityErrors, UnknownRuleKeySuggestsTheNearestOne) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: w, density: 0.5}
  - tensor: x
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[1].tensor");
    EXPECT_EQ(e.hint(), "did you mean `tensors`?");
}

TEST(SparsityErrors, MissingTensors) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - layers: conv1
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0]");
    EXPECT_CONTAINS(e.message(), "missing key `tensors`");
}

TEST(SparsityErrors, MissingDensityAndSchedule) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    phases: fw
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0]");
    EXPECT_CONTAINS(e.message(), "missing key `density`");
}

TEST(SparsityErrors, MissingProfileName) {
    const SpecError e = error_of(R"(description: no name
rules: []
)");
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.key_path(), "");
    EXPECT_CONTAINS(e.message(), "missing key `sparsity_profile`");
}

TEST(SparsityErrors, DensityThatIsNotANumber) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: high
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].density");
    EXPECT_CONTAINS(e.message(), "not a number");
}

TEST(SparsityErrors, RulesThatAreNotAList) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  tensors: w
  density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules");
    EXPECT_CONTAINS(e.message(), "expected a list");
}

TEST(SparsityErrors, TensorsThatAreAMapping) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: {w: 1}
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].tensors");
    EXPECT_CONTAINS(e.message(), "a list of them");
}

TEST(SparsityErrors, DensityAboveOne) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 11.7
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].density");
    EXPECT_CONTAINS(e.message(), "outside [0, 1]");
}

TEST(SparsityErrors, NegativeDensityInASchedulePoint) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    schedule:
      points:
        - {iteration: 0, density: 1.0}
        - {iteration: 100, density: -0.1}
)");
    EXPECT_EQ(e.where().line, 7);
    EXPECT_EQ(e.key_path(), "rules[0].schedule.points[1].density");
    EXPECT_CONTAINS(e.message(), "outside [0, 1]");
}

TEST(SparsityErrors, UnknownTensorListsTheValidOnes) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: [w, dz]
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].tensors[1]");
    EXPECT_CONTAINS(e.message(), "unknown value `dz`");
    EXPECT_CONTAINS(e.expected(), "w, x, y, dw, dx, dy");
}

TEST(SparsityErrors, UnknownPhaseSuggestsTheNearestOne) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    phases: [fwd]
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].phases[0]");
    EXPECT_EQ(e.hint(), "did you mean `fw`?");
}

TEST(SparsityErrors, PhaseInWhichTheTensorDoesNotAppear) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: [x, w]
    phases: [fw, wu]
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].phases[1]");
    EXPECT_EQ(e.message(), "tensor `w` does not appear in phase `wu` (it appears in fw and bw)");
    EXPECT_CONTAINS(e.hint(), "in wu the weights data space holds `dw`");
}

TEST(SparsityErrors, OutputTensorInAnotherPhase) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - {tensors: dx, phases: fw, density: 0.5}
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].phases");
    EXPECT_CONTAINS(e.message(), "tensor `dx` does not appear in phase `fw` (it appears in bw)");
}

TEST(SparsityErrors, UnknownModelSuggestsTheNearestOne) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.5
    model: {name: unifrom}
)");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "rules[0].model.name");
    EXPECT_CONTAINS(e.message(), "unknown density model `unifrom`");
    EXPECT_EQ(e.hint(), "did you mean `uniform`?");
}

TEST(SparsityErrors, ClusteredModelNeedsItsCoefficientOfVariation) {
    const SpecError e = error_of(R"(sparsity_profile: p
model: clustered
rules: []
)");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.key_path(), "model");
    EXPECT_CONTAINS(e.message(), "model `clustered` needs `cv:`");
}

TEST(SparsityErrors, UniformModelTakesNoParameters) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.5
    model:
      name: uniform
      parameters:
        cv: 0.3
)");
    EXPECT_EQ(e.where().line, 8);
    EXPECT_EQ(e.key_path(), "rules[0].model.parameters.cv");
    EXPECT_CONTAINS(e.message(), "takes no parameters");
}

TEST(SparsityErrors, ScheduleIterationsNotIncreasing) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    schedule:
      points:
        - {iteration: 0, density: 1.0}
        - {iteration: 1000, density: 0.1}
        - {iteration: 1000, density: 0.05}
)");
    EXPECT_EQ(e.where().line, 8);
    EXPECT_EQ(e.key_path(), "rules[0].schedule.points[2].iteration");
    EXPECT_CONTAINS(e.message(), "iteration 1000 does not come after the previous point's 1000");
}

TEST(SparsityErrors, ScheduleWithNoPoints) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    schedule: {points: []}
)");
    EXPECT_EQ(e.where().line, 4);
    EXPECT_EQ(e.key_path(), "rules[0].schedule.points");
}

TEST(SparsityErrors, DensityAndScheduleTogether) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - tensors: w
    density: 0.5
    schedule: {points: [{iteration: 0, density: 1.0}]}
)");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.key_path(), "rules[0].schedule");
    EXPECT_CONTAINS(e.message(), "not both");
}

TEST(SparsityErrors, BadLayerPattern) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - layers: ["layer*", "conv[12]"]
    tensors: w
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].layers[1]");
    EXPECT_CONTAINS(e.message(), "bad pattern `conv[12]`");
}

// A pattern that is a paragraph (a file pasted into the key by mistake; found
// by fuzz_spec_yaml) is quoted as an excerpt, not echoed whole.
TEST(SparsityErrors, ALongBadPatternIsQuotedAsAnExcerpt) {
    const std::string pattern = "conv[" + std::string(5000, 'x') + "]";
    const SpecError e = error_of("sparsity_profile: p\nrules:\n  - layers: \"" + pattern +
                                 "\"\n    tensors: w\n    density: 0.5\n");
    EXPECT_EQ(e.key_path(), "rules[0].layers");
    EXPECT_CONTAINS(e.message(), "bad pattern `conv[xxx");
    EXPECT_LT(e.message().size(), 300u);
}

TEST(SparsityErrors, ALongUnknownModelNameIsQuotedAsAnExcerpt) {
    const SpecError e = error_of("sparsity_profile: p\nmodel: " + std::string(5000, 'm') +
                                 "\nrules:\n  - {layers: conv1, tensors: w, density: 0.5}\n");
    EXPECT_CONTAINS(e.message(), "unknown density model `mmm");
    EXPECT_LT(e.message().size(), 300u);
}

TEST(SparsityErrors, EmptyNetworkPattern) {
    const SpecError e = error_of(R"(sparsity_profile: p
rules:
  - networks: ""
    tensors: w
    density: 0.5
)");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "rules[0].networks");
    EXPECT_CONTAINS(e.message(), "empty pattern");
}

TEST(SparsityErrors, ErrorsInAFileNameTheFile) {
    try {
        load_sparsity_profile("/nonexistent/profile.yaml");
        FAIL() << "expected a SpecError";
    } catch (const SpecError& e) {
        EXPECT_EQ(e.where().file, "/nonexistent/profile.yaml");
        EXPECT_CONTAINS(e.message(), "cannot open file");
    }
}

}  // namespace
}  // namespace trainloop
