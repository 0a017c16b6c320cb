// Every file in examples/mappings/ evaluates to a valid result for the layer
// and phase its `for:` block names, and its mapping survives the round trip
// through the forms the tool prints (YAML, one-line text, JSON).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "eval/evaluation_json.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "spec/mapping_case.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

std::vector<std::filesystem::path> example_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "examples/mappings")) {
        if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(ExampleMappings, EveryFileEvaluatesForTheLayerAndPhaseItNames) {
    std::set<std::string> covered;  // layer × phase
    for (const auto& file : example_files()) {
        SCOPED_TRACE(file.string());
        const MappingCase c = load_mapping_case(file);
        const Evaluation e = evaluate_case(c);
        ASSERT_TRUE(e.valid());
        EXPECT_EQ(e.nest.macs, c.problem->macs());
        EXPECT_GE(double(e.cycles) * double(c.arch_model.num_macs()), double(c.problem->macs()));
        EXPECT_GT(e.energy_pj, 0.0);
        covered.insert(*c.target.layer + "/" + std::string(phase_name(*c.target.phase)));
    }
    for (const char* layer : {"layer2.0.conv2", "layer2.0.downsample", "fc"}) {
        for (const char* phase : {"fw", "bw", "wu"}) {
            EXPECT_TRUE(covered.count(std::string(layer) + "/" + phase))
                << "no example for " << layer << " " << phase;
        }
    }
    EXPECT_GE(example_files().size(), 18u) << "3 layers × 3 phases × 2 dataflows";
}

TEST(ExampleMappings, PrintedMappingsReadBackUnchanged) {
    for (const auto& file : example_files()) {
        SCOPED_TRACE(file.string());
        const MappingCase c = load_mapping_case(file);
        const Evaluation e = evaluate_case(c);
        const nlohmann::json json =
            evaluation_to_json(e, c.arch, c.arch_model, *c.problem, c.mapping);
        EXPECT_EQ(mapping_from_json(json["mapping"], c.arch), c.mapping);
        EXPECT_EQ(parse_mapping_text(mapping_to_text(c.mapping, c.arch), c.arch), c.mapping);
        const std::string yaml = mapping_to_yaml(c.mapping, c.arch, c.target);
        EXPECT_EQ(parse_mapping_yaml(SpecNode::load_string(yaml, "printed.yaml"), c.arch).mapping,
                  c.mapping);
    }
}

TEST(ExampleMappings, AccessTotalsInTheJsonAreInstancesTimesPerInstanceCounts) {
    const MappingCase c = load_mapping_case(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                            "examples/mappings/resnet18_3x3_CK_fw.yaml");
    const Evaluation e = evaluate_case(c);
    const nlohmann::json json = evaluation_to_json(e, c.arch, c.arch_model, *c.problem, c.mapping);
    const SpaceAccesses& rf_w = e.nest.levels[2].space(DataSpace::weights);
    EXPECT_EQ(json["accesses"]["RF"]["w"]["instances"], 256);
    EXPECT_EQ(json["accesses"]["RF"]["w"]["reads"], rf_w.reads * 256);
    EXPECT_EQ(json["accesses"]["RF"]["w"]["reads"], c.problem->macs()) << "one read per MAC";
    double sum = 0;
    for (const auto& [component, pj] : json["energy_breakdown"].items()) sum += pj.get<double>();
    EXPECT_NEAR(sum, json["energy_pj"].get<double>(), 1e-6 * json["energy_pj"].get<double>());
}

// A YAML document as JSON: integers as numbers, other scalars as strings.
nlohmann::json as_json(const YAML::Node& node) {
    if (node.IsMap()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& kv : node) out[kv.first.Scalar()] = as_json(kv.second);
        return out;
    }
    if (node.IsSequence()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : node) out.push_back(as_json(item));
        return out;
    }
    const std::string& text = node.Scalar();
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
        return std::stoll(text);
    return text;
}

// The YAML form written as JSON or as flow YAML is the YAML form: its `for:`
// block is read the same way (a regression read JSON with `for:` as the JSON
// form, which has none, and asked for --arch).
TEST(ExampleMappings, TheForBlockReadsTheSameInEveryForm) {
    for (const auto& file : example_files()) {
        SCOPED_TRACE(file.string());
        const MappingCase block = load_mapping_case(file);
        const YAML::Node doc = YAML::LoadFile(file.string());
        YAML::Emitter flow;
        flow.SetMapFormat(YAML::Flow);
        flow.SetSeqFormat(YAML::Flow);
        flow << doc;
        for (const std::string& text :
             {as_json(doc).dump(), as_json(doc).dump(2), std::string(flow.c_str()) + "\n",
              "# a comment first\n" + as_json(doc).dump(1)}) {
            SCOPED_TRACE(text);
            EXPECT_EQ(detect_mapping_form(text), MappingForm::yaml);
            const MappingCase c = load_mapping_case_text(text, file.string());
            EXPECT_EQ(c.target, block.target);
            EXPECT_EQ(c.mapping, block.mapping);
            EXPECT_EQ(evaluate_case(c).cycles, evaluate_case(block).cycles);
        }
    }
    // The JSON forms have no `for:`; they stay JSON.
    EXPECT_EQ(detect_mapping_form(R"({"levels": []})"), MappingForm::json);
    EXPECT_EQ(detect_mapping_form(R"({"mapping": {"levels": []}, "cycles": 1})"),
              MappingForm::json);
    EXPECT_EQ(detect_mapping_form(R"({"network": "resnet18", "layers": []})"), MappingForm::json);
    EXPECT_EQ(detect_mapping_form("{not json, not yaml: ["), MappingForm::json);
    // A bad `for:` entry in JSON is located as in block YAML.
    const std::filesystem::path file = example_files().front();
    const std::string bad = R"({"for": {"arch": "../../arch_specs/procrustes_baseline_16x16.yaml",)"
                            "\n"
                            R"( "phase": "fx"}, "mapping": []})";
    const SpecError e =
        testing::expect_spec_error([&] { load_mapping_case_text(bad, file.string(), {}); });
    EXPECT_EQ(e.where().file, file.string());
    EXPECT_EQ(e.where().line, 2);
    EXPECT_EQ(e.key_path(), "for.phase");
}

}  // namespace
}  // namespace trainloop
