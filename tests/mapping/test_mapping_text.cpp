// The one-line text form of a mapping: printing, reading, round trips both
// ways, and errors located at the column of the bad token.
#include <gtest/gtest.h>

#include "mapping/mapping_text.hpp"
#include "mapping_test_support.hpp"

namespace trainloop {
namespace {

using namespace mapping_test;

SpecError text_error(const std::string& text, const Architecture& arch = procrustes()) {
    return expect_spec_error([&] { parse_mapping_text(text, arch); });
}

TEST(MappingText, PrintsTheDocumentedExample) {
    EXPECT_EQ(mapping_to_text(example_mapping(), procrustes()), kExampleText);
}

TEST(MappingText, ReadsTheDocumentedExample) {
    EXPECT_EQ(parse_mapping_text(kExampleText, procrustes()), example_mapping());
}

TEST(MappingText, PrintsEveryLevelEvenWhenEmpty) {
    EXPECT_EQ(mapping_to_text(empty_mapping(procrustes()), procrustes()), "DRAM[] GLB[] RF[]");
}

TEST(MappingText, PrintsTemporalThenXThenYThenKeep) {
    const std::vector<Sample> all = samples();
    EXPECT_EQ(mapping_to_text(all[2].mapping, *all[2].arch),
              "DRAM[] GLB[G2 N8 X:C4 X:K4 Y:P2 Y:Q8 keep:weights] "
              "RF[R3 S3 bypass:weights,inputs,outputs]");
    EXPECT_EQ(mapping_to_text(all[4].mapping, *all[4].arch),
              "DRAM[K2] GLB[Y:N4 bypass:outputs] WBUF[bypass:weights] RF[C3 X:S3 keep:outputs]");
}

TEST(MappingText, ParsePrintRoundTripsEverySample) {
    for (const Sample& sample : samples()) {
        const std::string text = mapping_to_text(sample.mapping, *sample.arch);
        EXPECT_EQ(parse_mapping_text(text, *sample.arch), sample.mapping)
            << sample.name << ": " << text;
    }
}

TEST(MappingText, PrintParseRoundTripsCanonicalText) {
    const std::vector<std::string> texts = {
        kExampleText,
        "DRAM[] GLB[] RF[]",
        "DRAM[G2] GLB[X:C2 X:K8 Y:P16] RF[keep:weights]",
        "DRAM[keep:outputs] GLB[bypass:weights,inputs,outputs] RF[Q7 P7 bypass:outputs]",
    };
    for (const std::string& text : texts) {
        EXPECT_EQ(mapping_to_text(parse_mapping_text(text, procrustes()), procrustes()), text);
    }
}

TEST(MappingText, AcceptsLeftOutLevelsExtraSpaceAndMixedOrder) {
    const Mapping m = parse_mapping_text("  GLB[ X:C16  P4 Y:K16 Q4 ]\n", procrustes());
    Mapping expected = empty_mapping(procrustes());
    expected.levels[1].temporal = loops({{Dim::P, 4}, {Dim::Q, 4}});
    expected.levels[1].spatial_x = loops({{Dim::C, 16}});
    expected.levels[1].spatial_y = loops({{Dim::K, 16}});
    EXPECT_EQ(m, expected);
    EXPECT_EQ(parse_mapping_text("", procrustes()), empty_mapping(procrustes()));
    EXPECT_EQ(mapping_to_text(m, procrustes()), "DRAM[] GLB[P4 Q4 X:C16 Y:K16] RF[]");
}

TEST(MappingText, KeepAndBypassFollowTheLevelsDefaults) {
    using enum DataSpace;
    const Mapping m =
        parse_mapping_text("GLB[bypass:outputs] RF[keep:inputs,weights]", four_level());
    EXPECT_EQ(m.levels[1].keep, spaces({inputs}));
    EXPECT_EQ(m.levels[3].keep, spaces({weights, inputs}));
    EXPECT_EQ(m.levels[2].keep, spaces({weights}));
}

// ---- errors ---------------------------------------------------------------

TEST(MappingTextErrors, BadTokenIsLocatedAtItsColumn) {
    const SpecError e = text_error("DRAM[N16 K4] GLB[P4 K0]");
    EXPECT_EQ(e.where().file, std::string(kMappingTextSource));
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().column, 21);
    EXPECT_EQ(e.key_path(), "GLB.temporal[1]");
    EXPECT_TRUE(mentions(e, "the factor of `K0` is not positive"));
    EXPECT_TRUE(mentions(e, "<mapping text>:1:21: GLB.temporal[1]:"));
}

TEST(MappingTextErrors, SourceNameAndLinesAreReported) {
    const SpecError e = expect_spec_error(
        [] { parse_mapping_text("DRAM[N16]\nGLB[Z4]", procrustes(), "best.txt"); });
    EXPECT_EQ(e.where().file, "best.txt");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.where().column, 5);
}

TEST(MappingTextErrors, BadSpatialTokenPointsPastThePrefix) {
    const SpecError e = text_error("GLB[X:C16 Y:4K]");
    EXPECT_EQ(e.where().column, 13);
    EXPECT_EQ(e.key_path(), "GLB.spatial_y[0]");
    EXPECT_EQ(e.hint(), "did you mean `K4`? the dimension letter comes first");
}

TEST(MappingTextErrors, UnknownLevelSuggestsTheNearest) {
    const SpecError e = text_error("DRAM[] GBL[P4]");
    EXPECT_EQ(e.where().column, 8);
    EXPECT_EQ(e.key_path(), "GBL");
    EXPECT_TRUE(mentions(e, "unknown level `GBL`"));
    EXPECT_EQ(e.hint(), "did you mean `GLB`?");
}

TEST(MappingTextErrors, AnUnknownLevelNameIsQuotedShort) {
    // (Found by fuzz_mapping: a 300-byte name was the key path and the message.)
    const SpecError e = text_error("DRAM[] " + std::string(300, 'G') + "[P4]");
    EXPECT_EQ(e.where().column, 8);
    EXPECT_LT(e.key_path().size(), 70U);
    EXPECT_LT(e.message().size(), 90U);
}

TEST(MappingTextErrors, ALongBadLoopIsQuotedShort) {
    // Every loop-token error quotes at most a line of 60 characters.
    for (const std::string& token :
         {"K" + std::string(3000, '7') + "x", std::string(3000, 'k') + "4",
          "4" + std::string(3000, 'K'), "K-" + std::string(3000, '1')}) {
        const SpecError e = text_error("DRAM[" + token + "] GLB[] RF[]");
        EXPECT_LT(e.message().size(), 200U) << e.message().substr(0, 200);
        EXPECT_LT(e.hint().size(), 300U);
    }
}

TEST(MappingTextErrors, LevelsOutOfOrderOrRepeated) {
    const SpecError order = text_error("RF[] DRAM[]");
    EXPECT_EQ(order.where().column, 6);
    EXPECT_TRUE(mentions(order, "level `DRAM` is listed after `RF`"));
    const SpecError twice = text_error("GLB[P4] GLB[Q4]");
    EXPECT_EQ(twice.where().column, 9);
    EXPECT_TRUE(mentions(twice, "level `GLB` is listed twice"));
}

TEST(MappingTextErrors, MissingOrUnclosedBrackets) {
    const SpecError missing = text_error("DRAM[] GLB P4");
    EXPECT_EQ(missing.where().column, 11);
    EXPECT_TRUE(mentions(missing, "expected `[` after level `GLB`"));
    const SpecError unclosed = text_error("DRAM[N16 GLB[P4]");
    EXPECT_EQ(unclosed.where().column, 13);
    EXPECT_TRUE(mentions(unclosed, "unexpected `[` inside level `DRAM`"));
    const SpecError open = text_error("DRAM[] GLB[P4");
    EXPECT_EQ(open.where().column, 11);
    EXPECT_TRUE(mentions(open, "the `[` of level `GLB` is never closed"));
    const SpecError stray = text_error("DRAM[] ]");
    EXPECT_EQ(stray.where().column, 8);
    EXPECT_TRUE(mentions(stray, "unexpected `]`"));
}

TEST(MappingTextErrors, ALongWordIsQuotedNotEchoed) {
    // Found by fuzz_mapping: a level name of thousands of characters was
    // repeated whole in the message.
    const std::string word(3000, 'x');
    for (const std::string& text : {word, word + "[P4", "DRAM[] " + word + "[P4 ["}) {
        const SpecError e = text_error(text);
        EXPECT_LT(e.message().size(), 200u) << e.message().substr(0, 200);
        EXPECT_LT(e.key_path().size(), 200u);
    }
}

TEST(MappingTextErrors, DimensionRepeatedInOneList) {
    const SpecError e = text_error("GLB[X:C4 P2 X:C4]");
    EXPECT_EQ(e.where().column, 15);
    EXPECT_EQ(e.key_path(), "GLB.spatial_x[1]");
    EXPECT_TRUE(mentions(e, "dimension `C` appears twice in `spatial_x`"));
    EXPECT_EQ(e.hint(), "merge them into one loop: `C16`");
}

TEST(MappingTextErrors, KeepAndBypassTogetherOrTwice) {
    const SpecError both = text_error("RF[keep:weights bypass:inputs]");
    EXPECT_EQ(both.where().column, 17);
    EXPECT_TRUE(mentions(both, "level `RF` has both `keep:` and `bypass:`"));
    const SpecError twice = text_error("RF[keep:weights keep:inputs]");
    EXPECT_TRUE(mentions(twice, "`keep:` is given twice in level `RF`"));
}

TEST(MappingTextErrors, BadDataSpaces) {
    const SpecError unknown = text_error("RF[bypass:weights,inptus]");
    EXPECT_EQ(unknown.where().column, 19);
    EXPECT_EQ(unknown.key_path(), "RF.bypass");
    EXPECT_EQ(unknown.hint(), "did you mean `inputs`?");
    const SpecError empty = text_error("RF[keep:]");
    EXPECT_TRUE(mentions(empty, "missing data space in `keep:`"));
    const SpecError trailing = text_error("RF[keep:weights,]");
    EXPECT_EQ(trailing.where().column, 17);
    const SpecError foreign = text_error("WBUF[keep:inputs]", four_level());
    EXPECT_TRUE(mentions(foreign, "level `WBUF` cannot hold `inputs`"));
}

TEST(MappingTextErrors, UnknownPrefix) {
    const SpecError upper = text_error("GLB[x:C16]");
    EXPECT_EQ(upper.where().column, 5);
    EXPECT_EQ(upper.hint(), "the axes are upper-case: did you mean `X:`?");
    const SpecError typo = text_error("GLB[kep:weights]");
    EXPECT_TRUE(mentions(typo, "unknown prefix `kep:`"));
    EXPECT_EQ(typo.hint(), "did you mean `keep`?");
}

}  // namespace
}  // namespace trainloop
