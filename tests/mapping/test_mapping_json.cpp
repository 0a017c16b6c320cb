// The JSON form of a mapping: the documented layout (every key, explicit keep
// lists), round trips (also through serialized text), and errors by key path.
#include <gtest/gtest.h>

#include "mapping/mapping_json.hpp"
#include "mapping_test_support.hpp"

namespace trainloop {
namespace {

using namespace mapping_test;
using Json = nlohmann::json;

SpecError json_error(const std::string& text, const Architecture& arch = procrustes()) {
    return expect_spec_error([&] { mapping_from_json(Json::parse(text), arch); });
}

TEST(MappingJson, WritesEveryLevelWithEveryKey) {
    const Json expected = Json::parse(R"({"levels": [
        {"level": "DRAM", "temporal": ["N16", "K4", "C4"], "spatial_x": [], "spatial_y": [],
         "keep": ["weights", "inputs", "outputs"]},
        {"level": "GLB", "temporal": ["P4", "Q4"], "spatial_x": ["C16"], "spatial_y": ["K16"],
         "keep": ["weights", "inputs", "outputs"]},
        {"level": "RF", "temporal": ["K2", "C2", "R3", "S3", "P7", "Q7"], "spatial_x": [],
         "spatial_y": [], "keep": ["weights", "outputs"]}]})");
    EXPECT_EQ(mapping_to_json(example_mapping(), procrustes()), expected);
}

TEST(MappingJson, AnEmptyKeepIsAnEmptyList) {
    const std::vector<Sample> all = samples();
    const Json json = mapping_to_json(all[4].mapping, *all[4].arch);
    EXPECT_EQ(json["levels"][2]["level"], "WBUF");
    EXPECT_EQ(json["levels"][2]["keep"], Json::array());
}

TEST(MappingJson, ParsePrintRoundTripsEverySample) {
    for (const Sample& sample : samples()) {
        const Json json = mapping_to_json(sample.mapping, *sample.arch);
        EXPECT_EQ(mapping_from_json(json, *sample.arch), sample.mapping) << sample.name;
        const Json reparsed = Json::parse(json.dump());
        EXPECT_EQ(mapping_from_json(reparsed, *sample.arch), sample.mapping) << sample.name;
        EXPECT_EQ(mapping_to_json(mapping_from_json(reparsed, *sample.arch), *sample.arch), json);
    }
}

TEST(MappingJson, LeftOutLevelsAndKeysTakeTheirDefaults) {
    const Mapping m = mapping_from_json(
        Json::parse(R"({"levels": [{"level": "GLB", "temporal": ["K4"]}]})"), four_level());
    Mapping expected = empty_mapping(four_level());
    expected.levels[1].temporal = loops({{Dim::K, 4}});
    EXPECT_EQ(m, expected);
}

// ---- errors ---------------------------------------------------------------

TEST(MappingJsonErrors, ErrorsNameTheKeyPath) {
    const SpecError e = json_error(
        R"({"levels": [{"level": "DRAM"}, {"level": "GLB", "spatial_x": ["C4", "X2"]}]})");
    EXPECT_EQ(e.where().file, std::string(kMappingJsonSource));
    EXPECT_EQ(e.key_path(), "levels[1].spatial_x[1]");
    EXPECT_TRUE(mentions(e, "unknown dimension `X` in `X2`"));
    EXPECT_TRUE(mentions(e, "<mapping json>: levels[1].spatial_x[1]:"));
}

TEST(MappingJsonErrors, SourceNameIsReported) {
    const SpecError e = expect_spec_error([] {
        mapping_from_json(Json::parse(R"({"levels": [{"level": "RF", "temporal": ["K0"]}]})"),
                          procrustes(), "results.db row 7");
    });
    EXPECT_EQ(e.where().file, "results.db row 7");
    EXPECT_EQ(e.key_path(), "levels[0].temporal[0]");
}

TEST(MappingJsonErrors, UnknownKeysSuggestTheNearest) {
    const SpecError top = json_error(R"({"level": []})");
    EXPECT_EQ(top.key_path(), "level");
    EXPECT_EQ(top.hint(), "did you mean `levels`?");
    const SpecError inner = json_error(R"({"levels": [{"level": "RF", "bypass": ["inputs"]}]})");
    EXPECT_EQ(inner.key_path(), "levels[0].bypass");
    EXPECT_TRUE(mentions(inner, "unknown key `bypass` in levels[0]"));
}

TEST(MappingJsonErrors, AnUnknownLongKeyIsQuotedShort) {
    // (Found by fuzz_mapping: a 400-byte key was the key path and the message.)
    const std::string key(400, 'k');
    for (const std::string& text :
         {"{\"" + key + "\": []}", R"({"levels": [{"level": "RF", ")" + key + R"(": []}]})"}) {
        const SpecError e = json_error(text);
        EXPECT_LT(e.key_path().size(), 80U) << e.key_path();
        EXPECT_LT(e.message().size(), 120U) << e.message();
    }
}

TEST(MappingJsonErrors, LevelNamesAndOrder) {
    const SpecError unknown = json_error(R"({"levels": [{"level": "RFF"}]})");
    EXPECT_EQ(unknown.key_path(), "levels[0].level");
    EXPECT_EQ(unknown.hint(), "did you mean `RF`?");
    const SpecError order = json_error(R"({"levels": [{"level": "RF"}, {"level": "DRAM"}]})");
    EXPECT_EQ(order.key_path(), "levels[1].level");
    EXPECT_TRUE(mentions(order, "level `DRAM` is listed after `RF`"));
    const SpecError missing = json_error(R"({"levels": [{"temporal": []}]})");
    EXPECT_EQ(missing.key_path(), "levels[0]");
    EXPECT_TRUE(mentions(missing, "missing key `level`"));
}

TEST(MappingJsonErrors, KeepListsAreChecked) {
    const SpecError unknown = json_error(R"({"levels": [{"level": "RF", "keep": ["weigths"]}]})");
    EXPECT_EQ(unknown.key_path(), "levels[0].keep[0]");
    EXPECT_EQ(unknown.hint(), "did you mean `weights`?");
    const SpecError foreign =
        json_error(R"({"levels": [{"level": "GLB", "keep": ["weights"]}]})", four_level());
    EXPECT_TRUE(mentions(foreign, "level `GLB` cannot hold `weights`"));
}

TEST(MappingJsonErrors, WrongTypes) {
    EXPECT_TRUE(mentions(json_error(R"([])"), "expected an object, got an array"));
    EXPECT_TRUE(mentions(json_error(R"({})"), "missing key `levels`"));
    EXPECT_TRUE(mentions(json_error(R"({"levels": {}})"), "expected an array of levels"));
    const SpecError number = json_error(R"({"levels": [{"level": "RF", "temporal": [4]}]})");
    EXPECT_EQ(number.key_path(), "levels[0].temporal[0]");
    EXPECT_TRUE(mentions(number, "expected a loop such as \"K4\", got `4`"));
    const SpecError name = json_error(R"({"levels": [{"level": 1}]})");
    EXPECT_EQ(name.key_path(), "levels[0].level");
    const SpecError repeated =
        json_error(R"({"levels": [{"level": "RF", "temporal": ["K2", "K2"]}]})");
    EXPECT_TRUE(mentions(repeated, "dimension `K` appears twice in `temporal`"));
}

}  // namespace
}  // namespace trainloop
