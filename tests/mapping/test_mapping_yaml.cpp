// The YAML form of a mapping: reading the documented example, the `for:`
// target, defaults, the printed layout, round trips, and one test per kind of
// user error (each pinning line, column or key path and the hint).
#include <gtest/gtest.h>

#include "mapping/mapping_target.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "mapping_test_support.hpp"

namespace trainloop {
namespace {

using namespace mapping_test;

// As if the file sat in examples/mappings/, two levels below the repository.
const std::string kFile = TRAINLOOP_SOURCE_DIR "/examples/mappings/inline.yaml";

// Line numbers matter: the error tests point at them.
const std::string kExampleYaml = R"(for:
  arch: ../../arch_specs/procrustes_baseline_16x16.yaml
  workload: resnet18
  layer: layer2.0.conv2
  phase: fw
  batch: 16
mapping:
  - level: DRAM
    temporal: [N16, K4, C4]
  - level: GLB
    temporal: [P4, Q4]
    spatial_x: [C16]
    spatial_y: [K16]
  - level: RF
    temporal: [K2, C2, R3, S3, P7, Q7]
    bypass: [inputs]
)";

ParsedMapping parse(const std::string& text, const Architecture& arch = procrustes()) {
    return parse_mapping_yaml(SpecNode::load_string(text, kFile), arch);
}

// kExampleYaml with the first occurrence of `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
    std::string text = kExampleYaml;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "test bug: `" << from << "` not in kExampleYaml";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

SpecError parse_error(const std::string& text, const Architecture& arch = procrustes()) {
    return expect_spec_error([&] { parse(text, arch); });
}

TEST(MappingYaml, ReadsTheDocumentedExample) {
    const ParsedMapping parsed = parse(kExampleYaml);
    EXPECT_EQ(parsed.mapping, example_mapping()) << mapping_to_text(parsed.mapping, procrustes());
    ASSERT_TRUE(parsed.target.has_value());
    const MappingTarget& target = *parsed.target;
    EXPECT_EQ(target.arch, std::filesystem::path(TRAINLOOP_SOURCE_DIR
                                                 "/arch_specs/procrustes_baseline_16x16.yaml"))
        << "the arch path is resolved relative to the mapping file";
    EXPECT_TRUE(std::filesystem::is_regular_file(*target.arch));
    EXPECT_EQ(target.workload, "resnet18") << "a shipped network name stays a name";
    EXPECT_EQ(target.layer, "layer2.0.conv2");
    EXPECT_EQ(target.phase, Phase::fw);
    EXPECT_EQ(target.batch, 16);
}

TEST(MappingYaml, ForBlockIsOptionalAndSoIsEachOfItsKeys) {
    const ParsedMapping none = parse("mapping:\n  - level: GLB\n    temporal: [K4]\n");
    EXPECT_FALSE(none.target.has_value());
    const ParsedMapping some = parse("for: {layer: conv1, phase: wu}\nmapping: []\n");
    ASSERT_TRUE(some.target.has_value());
    EXPECT_FALSE(some.target->arch.has_value());
    EXPECT_FALSE(some.target->batch.has_value());
    EXPECT_EQ(some.target->layer, "conv1");
    EXPECT_EQ(some.target->phase, Phase::wu);
}

TEST(MappingYaml, AWorkloadPathIsResolvedRelativeToTheFile) {
    const ParsedMapping parsed =
        parse("for: {workload: ../../workloads/resnet18.yaml}\nmapping: []\n");
    ASSERT_TRUE(parsed.target.has_value());
    EXPECT_EQ(parsed.target->workload, TRAINLOOP_SOURCE_DIR "/workloads/resnet18.yaml");
}

TEST(MappingYaml, ReadMappingTargetReadsOnlyTheForBlock) {
    // The mapping names levels of an architecture not loaded yet: not read.
    const std::string text = with("level: GLB", "level: NOT_A_LEVEL");
    const MappingTarget target = read_mapping_target(SpecNode::load_string(text, kFile));
    EXPECT_EQ(target.layer, "layer2.0.conv2");
    EXPECT_TRUE(read_mapping_target(SpecNode::load_string("mapping: []\n", kFile)).empty());
}

TEST(MappingYaml, ReadMappingTargetStillRejectsUnknownTopLevelKeys) {
    const SpecError e = expect_spec_error([] {
        read_mapping_target(SpecNode::load_string("fro: {batch: 4}\nmapping: []\n", kFile));
    });
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.key_path(), "fro");
    EXPECT_EQ(e.hint(), "did you mean `for`?");
}

TEST(MappingYaml, LeftOutLevelsHaveNoLoopsAndKeepTheirDefaults) {
    const Mapping m = parse("mapping:\n  - level: GLB\n    temporal: [K4]\n").mapping;
    Mapping expected = empty_mapping(procrustes());
    expected.levels[1].temporal = loops({{Dim::K, 4}});
    EXPECT_EQ(m, expected);
    EXPECT_EQ(m.num_levels, 3);
    EXPECT_EQ(m.levels[2].keep, DataSpaceSet::all());
}

TEST(MappingYaml, EmptyMappingListIsTheEmptyMapping) {
    EXPECT_EQ(parse("mapping: []\n").mapping, empty_mapping(procrustes()));
}

TEST(MappingYaml, KeepListsWhatTheLevelHolds) {
    using enum DataSpace;
    const Mapping m = parse(with("bypass: [inputs]", "keep: [outputs, weights]")).mapping;
    EXPECT_EQ(m.levels[2].keep, spaces({weights, outputs}));
    const Mapping one = parse(with("bypass: [inputs]", "keep: outputs")).mapping;
    EXPECT_EQ(one.levels[2].keep, spaces({outputs})) << "a single name is accepted";
    const Mapping none = parse(with("bypass: [inputs]", "keep: []")).mapping;
    EXPECT_EQ(none.levels[2].keep, spaces({}));
    const Mapping all = parse(with("bypass: [inputs]", "bypass: []")).mapping;
    EXPECT_EQ(all.levels[2].keep, DataSpaceSet::all());
}

TEST(MappingYaml, KeepDefaultsToWhatTheLevelMayHold) {
    const Mapping m = parse("mapping: []\n", four_level()).mapping;
    EXPECT_EQ(m.levels[1].keep, spaces({DataSpace::inputs, DataSpace::outputs}));
    EXPECT_EQ(m.levels[2].keep, spaces({DataSpace::weights}));
    const Mapping bypassed =
        parse("mapping:\n  - level: GLB\n    bypass: outputs\n", four_level()).mapping;
    EXPECT_EQ(bypassed.levels[1].keep, spaces({DataSpace::inputs}));
}

TEST(MappingYaml, PrintsAStableLayout) {
    MappingTarget target;
    target.arch = "../../arch_specs/procrustes_baseline_16x16.yaml";
    target.workload = "resnet18";
    target.layer = "layer2.0.conv2";
    target.phase = Phase::fw;
    target.batch = 16;
    EXPECT_EQ(mapping_to_yaml(example_mapping(), procrustes(), target), kExampleYaml);
}

TEST(MappingYaml, PrintsEveryLevelAndKeepOnlyWhenNotTheDefault) {
    EXPECT_EQ(mapping_to_yaml(empty_mapping(procrustes()), procrustes()),
              "mapping:\n"
              "  - level: DRAM\n    temporal: []\n"
              "  - level: GLB\n    temporal: []\n"
              "  - level: RF\n    temporal: []\n");
    EXPECT_EQ(mapping_to_yaml(empty_mapping(procrustes()), procrustes(), MappingTarget{}),
              mapping_to_yaml(empty_mapping(procrustes()), procrustes()))
        << "an empty target prints no `for:`";
}

TEST(MappingYaml, PrintsTheShorterOfKeepAndBypass) {
    using enum DataSpace;
    Mapping m = empty_mapping(procrustes());
    m.levels[0].keep = spaces({weights});
    m.levels[1].keep = spaces({weights, outputs});
    m.levels[2].keep = spaces({});
    const std::string yaml = mapping_to_yaml(m, procrustes());
    EXPECT_NE(yaml.find("  - level: DRAM\n    temporal: []\n    keep: [weights]\n"),
              std::string::npos)
        << yaml;
    EXPECT_NE(yaml.find("  - level: GLB\n    temporal: []\n    bypass: [inputs]\n"),
              std::string::npos)
        << yaml;
    EXPECT_NE(
        yaml.find("  - level: RF\n    temporal: []\n    bypass: [weights, inputs, outputs]\n"),
        std::string::npos)
        << "keeping nothing is written as bypassing everything\n"
        << yaml;
}

TEST(MappingYaml, QuotesStringsThatWouldNotReadBack) {
    MappingTarget target;
    target.layer = "block: 1";
    target.workload = "null";
    const std::string yaml = mapping_to_yaml(empty_mapping(procrustes()), procrustes(), target);
    const ParsedMapping parsed = parse(yaml);
    ASSERT_TRUE(parsed.target.has_value());
    EXPECT_EQ(parsed.target->layer, "block: 1") << yaml;
    EXPECT_EQ(parsed.target->workload, "null") << yaml;
}

TEST(MappingYaml, ParsePrintRoundTripsEverySample) {
    for (const Sample& sample : samples()) {
        const std::string yaml = mapping_to_yaml(sample.mapping, *sample.arch);
        EXPECT_EQ(parse(yaml, *sample.arch).mapping, sample.mapping) << sample.name << ":\n"
                                                                     << yaml;
    }
}

TEST(MappingYaml, YamlToMappingToYamlToMappingIsStable) {
    const std::vector<std::string> texts = {
        kExampleYaml,
        with("bypass: [inputs]", "keep: [weights]"),
        "mapping:\n  - level: RF\n    spatial_y: [Q2, P2]\n    keep: [outputs, inputs]\n",
        "mapping:\n  - {level: DRAM}\n  - {level: GLB, spatial_x: [K4, C4], bypass: weights}\n",
    };
    for (const std::string& text : texts) {
        const ParsedMapping first = parse(text);
        const std::string printed = mapping_to_yaml(first.mapping, procrustes(), first.target);
        const ParsedMapping second = parse(printed);
        EXPECT_EQ(second.mapping, first.mapping) << printed;
        EXPECT_EQ(second.target, first.target) << printed;
        EXPECT_EQ(mapping_to_yaml(second.mapping, procrustes(), second.target), printed);
    }
}

TEST(MappingYaml, RelativeToFileRewritesPathsForWhereTheYamlIsWritten) {
    MappingTarget target;
    target.arch = TRAINLOOP_SOURCE_DIR "/arch_specs/procrustes_baseline_16x16.yaml";
    target.workload = TRAINLOOP_SOURCE_DIR "/workloads/resnet18.yaml";
    target.layer = "conv1";
    const MappingTarget relative = relative_to_file(target, kFile);
    EXPECT_EQ(relative.arch,
              std::filesystem::path("../../arch_specs/procrustes_baseline_16x16.yaml"));
    EXPECT_EQ(relative.workload, "../../workloads/resnet18.yaml");
    const std::string yaml = mapping_to_yaml(example_mapping(), procrustes(), relative);
    EXPECT_EQ(parse(yaml).target, target) << "reading it back from that file finds the same files";
}

// ---- errors ---------------------------------------------------------------

TEST(MappingYamlErrors, UnknownLevelSuggestsTheNearest) {
    const SpecError e = parse_error(with("level: GLB", "level: GBL"));
    EXPECT_EQ(e.where().file, kFile);
    EXPECT_EQ(e.where().line, 10);
    EXPECT_EQ(e.key_path(), "mapping[1].level");
    EXPECT_TRUE(mentions(e, "unknown level `GBL`"));
    EXPECT_EQ(e.hint(), "did you mean `GLB`?");
    EXPECT_TRUE(mentions(e, "DRAM, GLB, RF"));
}

TEST(MappingYamlErrors, LevelsOutOfOrder) {
    const SpecError e = parse_error("mapping:\n  - level: RF\n  - level: GLB\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "mapping[1].level");
    EXPECT_TRUE(mentions(e, "level `GLB` is listed after `RF`"));
    EXPECT_TRUE(mentions(e, "outermost inward"));
}

TEST(MappingYamlErrors, LevelRepeated) {
    const SpecError e = parse_error("mapping:\n  - level: GLB\n  - level: GLB\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_TRUE(mentions(e, "level `GLB` is listed twice"));
}

TEST(MappingYamlErrors, MalformedFactorTokens) {
    struct Case {
        std::string token;
        std::string message;
        std::string hint;
    };
    const std::vector<Case> cases = {
        {"K0", "the factor of `K0` is not positive", "a loop that does nothing is `K1`"},
        {"Z4", "unknown dimension `Z` in `Z4`", "dimensions: N, K, C, P, Q, R, S, G"},
        {"k4", "unknown dimension `k` in `k4`", "did you mean `K4`?"},
        {"K", "loop `K` has no factor", "e.g. `K4`"},
        {"4K", "`4K` is not a loop", "did you mean `K4`?"},
        {"K4x", "`K4x` is not a loop: `4x` is not a positive integer", ""},
        {"K-4", "`K-4` is not a loop: `-4` is not a positive integer", ""},
        {"K99999999999999999999", "the factor of `K99999999999999999999` is too large", ""},
    };
    for (const Case& c : cases) {
        const SpecError e = parse_error(with("[N16, K4, C4]", "[N16, " + c.token + ", C4]"));
        EXPECT_EQ(e.where().line, 9) << c.token;
        EXPECT_EQ(e.where().column, 21) << c.token << ": the column of the token";
        EXPECT_EQ(e.key_path(), "mapping[0].temporal[1]") << c.token;
        EXPECT_TRUE(mentions(e, c.message)) << c.token;
        EXPECT_NE(e.hint().find(c.hint), std::string::npos) << c.token << ": " << e.hint();
        EXPECT_TRUE(mentions(e, "a dimension letter (N K C P Q R S G) followed by a positive"));
    }
}

TEST(MappingYamlErrors, ANumberIsNotALoop) {
    const SpecError e = parse_error(with("[N16, K4, C4]", "[16]"));
    EXPECT_EQ(e.key_path(), "mapping[0].temporal[0]");
    EXPECT_TRUE(mentions(e, "`16` is not a loop"));
}

TEST(MappingYamlErrors, DimensionRepeatedInOneList) {
    const SpecError e = parse_error(with("spatial_x: [C16]", "spatial_x: [C4, K2, C4]"));
    EXPECT_EQ(e.where().line, 12);
    EXPECT_EQ(e.key_path(), "mapping[1].spatial_x[2]");
    EXPECT_TRUE(mentions(e, "dimension `C` appears twice in `spatial_x`"));
    EXPECT_EQ(e.hint(), "merge them into one loop: `C16`");
}

TEST(MappingYamlErrors, TheSameDimensionInDifferentListsIsFine) {
    const Mapping m = parse(with("spatial_y: [K16]", "spatial_y: [C2, K16]")).mapping;
    EXPECT_EQ(m.levels[1].spatial_x.factor_of(Dim::C), 16);
    EXPECT_EQ(m.levels[1].spatial_y.factor_of(Dim::C), 2);
}

TEST(MappingYamlErrors, BothKeepAndBypass) {
    const SpecError e =
        parse_error(with("bypass: [inputs]", "keep: [weights]\n    bypass: [inputs]"));
    EXPECT_EQ(e.where().line, 17);
    EXPECT_EQ(e.key_path(), "mapping[2].bypass");
    EXPECT_TRUE(mentions(e, "level `RF` has both `keep:` and `bypass:`"));
}

TEST(MappingYamlErrors, UnknownDataSpaceSuggestsTheNearest) {
    const SpecError e = parse_error(with("bypass: [inputs]", "bypass: [inptus]"));
    EXPECT_EQ(e.where().line, 16);
    EXPECT_EQ(e.key_path(), "mapping[2].bypass[0]");
    EXPECT_TRUE(mentions(e, "unknown data space `inptus`"));
    EXPECT_EQ(e.hint(), "did you mean `inputs`?");
}

TEST(MappingYamlErrors, DataSpaceListedTwice) {
    const SpecError e = parse_error(with("bypass: [inputs]", "keep: [inputs, inputs]"));
    EXPECT_EQ(e.key_path(), "mapping[2].keep[1]");
    EXPECT_TRUE(mentions(e, "data space `inputs` is listed twice in `keep:`"));
}

TEST(MappingYamlErrors, KeepingADataSpaceTheLevelCannotHold) {
    const SpecError e =
        parse_error("mapping:\n  - level: WBUF\n    keep: [weights, inputs]\n", four_level());
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.key_path(), "mapping[0].keep[1]");
    EXPECT_TRUE(mentions(e, "level `WBUF` cannot hold `inputs`"));
    EXPECT_TRUE(mentions(e, "data spaces `WBUF` may hold: weights"));
}

TEST(MappingYamlErrors, BypassingADataSpaceTheLevelNeverHolds) {
    const SpecError e =
        parse_error("mapping:\n  - level: GLB\n    bypass: weights\n", four_level());
    EXPECT_EQ(e.key_path(), "mapping[0].bypass");
    EXPECT_TRUE(mentions(e, "level `GLB` never holds `weights`"));
}

TEST(MappingYamlErrors, UnknownKeyInALevelSuggestsTheNearest) {
    const SpecError e = parse_error(with("    temporal: [P4, Q4]", "    tempral: [P4, Q4]"));
    EXPECT_EQ(e.where().line, 11);
    EXPECT_EQ(e.key_path(), "mapping[1].tempral");
    EXPECT_EQ(e.hint(), "did you mean `temporal`?");
}

TEST(MappingYamlErrors, UnknownKeyInTheForBlock) {
    const SpecError e = parse_error(with("  batch: 16", "  bacth: 16"));
    EXPECT_EQ(e.where().line, 6);
    EXPECT_EQ(e.key_path(), "for.bacth");
    EXPECT_EQ(e.hint(), "did you mean `batch`?");
}

TEST(MappingYamlErrors, MissingMappingKey) {
    const SpecError e = parse_error("for: {batch: 4}\n");
    EXPECT_TRUE(mentions(e, "missing key `mapping`"));
}

TEST(MappingYamlErrors, MissingLevelKey) {
    const SpecError e = parse_error("mapping:\n  - temporal: [K4]\n");
    EXPECT_EQ(e.key_path(), "mapping[0]");
    EXPECT_TRUE(mentions(e, "missing key `level`"));
}

TEST(MappingYamlErrors, WrongTypes) {
    {
        const SpecError e = parse_error(with("temporal: [P4, Q4]", "temporal: P4"));
        EXPECT_EQ(e.where().line, 11);
        EXPECT_EQ(e.key_path(), "mapping[1].temporal");
        EXPECT_TRUE(mentions(e, "expected a list of loops, got `P4`"));
        EXPECT_EQ(e.hint(), "write it as a list: `temporal: [P4]`");
    }
    {
        const SpecError e = parse_error(with("temporal: [P4, Q4]", "temporal:"));
        EXPECT_EQ(e.key_path(), "mapping[1].temporal");
        EXPECT_TRUE(mentions(e, "got nothing"));
    }
    {
        const SpecError e = parse_error(with("level: GLB", "level: [GLB]"));
        EXPECT_EQ(e.key_path(), "mapping[1].level");
        EXPECT_TRUE(mentions(e, "expected a single value"));
    }
    {
        const SpecError e = parse_error("mapping: {level: GLB}\n");
        EXPECT_EQ(e.key_path(), "mapping");
        EXPECT_TRUE(mentions(e, "expected a list of levels"));
    }
    {
        const SpecError e = parse_error("mapping:\n  - GLB\n");
        EXPECT_EQ(e.key_path(), "mapping[0]");
        EXPECT_TRUE(mentions(e, "expected a mapping of keys to values"));
    }
    {
        const SpecError e = parse_error(with("[K2, C2, R3", "[[K2], C2, R3"));
        EXPECT_EQ(e.key_path(), "mapping[2].temporal[0]");
        EXPECT_TRUE(mentions(e, "expected a single value"));
    }
    {
        const SpecError e = parse_error(with("batch: 16", "batch: 0"));
        EXPECT_EQ(e.key_path(), "for.batch");
        EXPECT_TRUE(mentions(e, "non-positive value 0"));
    }
    {
        const SpecError e = parse_error(with("phase: fw", "phase: fwd"));
        EXPECT_EQ(e.key_path(), "for.phase");
        EXPECT_EQ(e.hint(), "did you mean `fw`?");
    }
    {
        const SpecError e = parse_error(with("bypass: [inputs]", "bypass: {inputs: 1}"));
        EXPECT_EQ(e.key_path(), "mapping[2].bypass");
        EXPECT_TRUE(mentions(e, "expected a list of data spaces"));
    }
}

}  // namespace
}  // namespace trainloop
