// Loops are written with the names the layer's problem gives its dimensions:
// the conv letters for the conv family, an einsum's own indices otherwise
// (mapping/mapping_syntax.hpp). Every form reads back what it writes, and an
// unknown name is refused with the layer's names in the hint.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/spec_node.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_syntax.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "mapping_test_support.hpp"
#include "vocabulary/einsum.hpp"

namespace trainloop {
namespace {

using namespace mapping_test;

const ProblemShape& attention() {
    static const ProblemShape shape =
        parse_einsum("S[b,h,q,k] += Q[b,h,q,d_head] * K[b,h,k,d_head]", {}, "einsum");
    return shape;
}

Dim slot(std::string_view name) {
    const std::optional<Dim> d = attention().dim_named(name);
    if (!d) ADD_FAILURE() << name;
    return d.value_or(Dim::N);
}

// DRAM[b2 h12] GLB[q8 X:d_head16 Y:k4] RF[q2], every level keeping everything.
Mapping attention_mapping() {
    Mapping m = empty_mapping(procrustes());
    m.level(0).temporal.push_back({slot("b"), 2});
    m.level(0).temporal.push_back({slot("h"), 12});
    m.level(1).temporal.push_back({slot("q"), 8});
    m.level(1).spatial_x.push_back({slot("d_head"), 16});
    m.level(1).spatial_y.push_back({slot("k"), 4});
    m.level(2).temporal.push_back({slot("q"), 2});
    return m;
}

TEST(MappingNames, TheTextFormWritesAndReadsTheEinsumsIndices) {
    const std::string text = mapping_to_text(attention_mapping(), procrustes(), attention());
    EXPECT_EQ(text, "DRAM[b2 h12] GLB[q8 X:d_head16 Y:k4] RF[q2]");
    EXPECT_EQ(parse_mapping_text(text, procrustes(), kMappingTextSource, attention()),
              attention_mapping());
}

TEST(MappingNames, TheJsonAndYamlFormsRoundTrip) {
    const nlohmann::json json = mapping_to_json(attention_mapping(), procrustes(), attention());
    EXPECT_EQ(json["levels"][1]["spatial_x"][0], "d_head16");
    EXPECT_EQ(mapping_from_json(json, procrustes(), kMappingJsonSource, attention()),
              attention_mapping());
    const std::string yaml = mapping_to_yaml(attention_mapping(), procrustes(), {}, attention());
    EXPECT_NE(yaml.find("temporal: [b2, h12]"), std::string::npos) << yaml;
    const SpecNode root = SpecNode::load_string(yaml, "m.yaml");
    EXPECT_EQ(parse_mapping_yaml(root, procrustes(), attention()).mapping, attention_mapping());
}

TEST(MappingNames, AConvLetterIsNoDimensionOfAnEinsum) {
    const SpecError e = expect_spec_error([] {
        parse_mapping_text("DRAM[K4] GLB[] RF[]", procrustes(), kMappingTextSource, attention());
    });
    EXPECT_NE(e.message().find("unknown dimension `K`"), std::string::npos) << e.message();
    // `K` upper-cased is not `k`: the hint lists the layer's own names.
    EXPECT_NE(e.hint().find("dimensions: k, q, d_head, h, b"), std::string::npos) << e.hint();
    EXPECT_NE(e.expected().find("a dimension of the layer"), std::string::npos) << e.expected();
}

TEST(MappingNames, ALongNameIsReadWholeBeforeItsFactor) {
    using mapping_syntax::parse_loop_token;
    const auto loop = parse_loop_token("d_head64", attention());
    ASSERT_TRUE(std::holds_alternative<Loop>(loop));
    EXPECT_EQ(std::get<Loop>(loop), (Loop{slot("d_head"), 64}));
    const auto unknown = parse_loop_token("d64", attention());
    ASSERT_TRUE(std::holds_alternative<mapping_syntax::SyntaxProblem>(unknown));
    EXPECT_NE(
        std::get<mapping_syntax::SyntaxProblem>(unknown).message.find("unknown dimension `d`"),
        std::string::npos);
}

TEST(MappingNames, TheConvFamilyKeepsItsLetters) {
    EXPECT_EQ(mapping_to_text(example_mapping(), procrustes(), conv_shape({2, 2})),
              mapping_to_text(example_mapping(), procrustes()));
    EXPECT_EQ(mapping_syntax::loop_token_expected(conv_family_shape()),
              "a dimension letter (N K C P Q R S G) followed by a positive factor, e.g. `K4`");
}

}  // namespace
}  // namespace trainloop
