// Every file in examples/mappings/ evaluates to a valid result for the layer
// and phase its `for:` block names, and its mapping survives the round trip
// through the forms the tool prints (YAML, one-line text, JSON).
#include <gtest/gtest.h>

#include <set>

#include "eval/evaluation_json.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "spec/mapping_case.hpp"

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

}  // namespace
}  // namespace trainloop
