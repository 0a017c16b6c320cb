// End-to-end: `trainloop map` over a whole network — the JSON contract, totals,
// mappings that evaluate to what is printed, determinism across thread
// counts, one search per distinct problem, and the user errors (no valid
// mapping, bad dataflow, export targets).
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "eval/evaluation.hpp"
#include "mapping/mapping_json.hpp"
#include "problem/training_problems.hpp"
#include "support/run_binary.hpp"
#include "workload/network_library.hpp"

namespace {

using trainloop::testing::CommandResult;
using trainloop::testing::temp_file;
using trainloop::testing::temp_path;

// stdout, and stderr too unless `with_stderr` is false (JSON on stdout must
// parse whatever the progress line says).
CommandResult run(const std::string& arguments, bool with_stderr = true) {
    return trainloop::testing::run_trainloop(
        arguments, with_stderr ? trainloop::testing::Capture::stdout_and_stderr
                               : trainloop::testing::Capture::stdout_only);
}

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";

std::string map_command(const std::string& rest) { return "map --arch " + kArch + " " + rest; }

nlohmann::json run_json(const std::string& arguments) {
    const CommandResult r = run(arguments + " --format json", false);
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return nlohmann::json::parse(r.output);
}

const std::string kMlpRandom = map_command("--workload mlp_mnist --search random --budget 300");

TEST(MapCommand, JsonHasTheIssuesKeysPerLayerAndPhase) {
    const nlohmann::json json = run_json(kMlpRandom);
    ASSERT_EQ(json["layers"].size(), 2u) << json.dump(2);
    const auto& fc1 = json["layers"][0];
    EXPECT_EQ(fc1["name"], "fc1");
    EXPECT_TRUE(fc1["phases"].contains("fw"));
    EXPECT_FALSE(fc1["phases"].contains("bw")) << "the first layer's input needs no gradient";
    EXPECT_TRUE(fc1["phases"].contains("wu"));
    const auto& fc2 = json["layers"][1];
    EXPECT_EQ(fc2["name"], "fc2");
    for (const char* phase : {"fw", "bw", "wu"}) {
        ASSERT_TRUE(fc2["phases"].contains(phase)) << phase;
        const auto& entry = fc2["phases"][phase];
        for (const char* key : {"mapping", "cycles", "energy_pj"}) {
            EXPECT_TRUE(entry.contains(key)) << phase << " " << key;
        }
        EXPECT_GT(entry["cycles"].get<std::int64_t>(), 0);
        EXPECT_GT(entry["energy_pj"].get<double>(), 0);
        EXPECT_EQ(entry["mapping"]["levels"].size(), 3u);
    }
    for (const char* key : {"fw", "bw", "wu", "step"}) {
        ASSERT_TRUE(json["totals"].contains(key)) << key;
        EXPECT_TRUE(json["totals"][key].contains("cycles")) << key;
        EXPECT_TRUE(json["totals"][key].contains("energy_pj")) << key;
    }
    EXPECT_EQ(json["network"], "mlp_mnist");
    EXPECT_EQ(json["searched_problems"], 5);
    EXPECT_EQ(json["layer_phases"], 5);
}

TEST(MapCommand, TotalsArePerPhaseSumsAndTheStepIsTheirSum) {
    const nlohmann::json json = run_json(kMlpRandom);
    std::map<std::string, std::int64_t> cycles;
    std::map<std::string, double> energy;
    std::map<std::string, double> words;
    for (const auto& layer : json["layers"]) {
        for (const auto& [phase, entry] : layer["phases"].items()) {
            cycles[phase] += entry["cycles"].get<std::int64_t>();
            energy[phase] += entry["energy_pj"].get<double>();
            words[phase] += entry["offchip_words"].get<double>();
        }
    }
    const auto& totals = json["totals"];
    std::int64_t step_cycles = 0;
    double step_energy = 0;
    double step_words = 0;
    for (const char* phase : {"fw", "bw", "wu"}) {
        EXPECT_EQ(totals[phase]["cycles"].get<std::int64_t>(), cycles[phase]) << phase;
        EXPECT_NEAR(totals[phase]["energy_pj"].get<double>(), energy[phase], 1e-9 * energy[phase])
            << phase;
        EXPECT_DOUBLE_EQ(totals[phase]["offchip_words"].get<double>(), words[phase]) << phase;
        step_cycles += totals[phase]["cycles"].get<std::int64_t>();
        step_energy += totals[phase]["energy_pj"].get<double>();
        step_words += totals[phase]["offchip_words"].get<double>();
    }
    EXPECT_EQ(totals["step"]["cycles"].get<std::int64_t>(), step_cycles);
    EXPECT_DOUBLE_EQ(totals["step"]["energy_pj"].get<double>(), step_energy);
    EXPECT_DOUBLE_EQ(totals["step"]["offchip_words"].get<double>(), step_words);
}

TEST(MapCommand, EveryMappingReadsBackAndEvaluatesToThePrintedNumbers) {
    const nlohmann::json json = run_json(kMlpRandom);
    const trainloop::Architecture arch = trainloop::load_architecture(kArch);
    const trainloop::ArchModel model = trainloop::build_arch_model(arch);
    const trainloop::Network network = trainloop::load_network("mlp_mnist");
    const trainloop::NetworkTraining training =
        trainloop::derive_training_problems(network, trainloop::kDefaultBatch);
    ASSERT_EQ(json["layers"].size(), training.layers.size());
    int checked = 0;
    for (std::size_t l = 0; l < training.layers.size(); ++l) {
        const auto& layer = json["layers"][l];
        EXPECT_EQ(layer["name"], training.layers[l].layer->layer.name);
        for (const auto& [name, entry] : layer["phases"].items()) {
            const trainloop::PhaseProblem* problem =
                training.layers[l].find(*trainloop::phase_from_name(name));
            ASSERT_NE(problem, nullptr) << name;
            const trainloop::Mapping mapping = trainloop::mapping_from_json(entry["mapping"], arch);
            const trainloop::Evaluation e = trainloop::evaluate(model, *problem, mapping);
            ASSERT_TRUE(e.valid()) << layer["name"] << " " << name;
            EXPECT_EQ(e.cycles, entry["cycles"].get<std::int64_t>())
                << layer["name"] << " " << name;
            EXPECT_DOUBLE_EQ(e.energy_pj, entry["energy_pj"].get<double>())
                << layer["name"] << " " << name;
            EXPECT_DOUBLE_EQ(e.utilization, entry["utilization"].get<double>())
                << layer["name"] << " " << name;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 5);
}

TEST(MapCommand, TheSameCommandGivesTheSameJsonWhateverTheThreadCount) {
    const std::string command =
        map_command("--workload mlp_mnist --search anneal --budget 2000 --seed 7 --format json");
    const CommandResult one = run(command + " --threads 1", false);
    const CommandResult two = run(command + " --threads 2", false);
    const CommandResult four = run(command + " --threads 4", false);
    ASSERT_EQ(one.exit_code, 0) << one.output;
    EXPECT_EQ(one.output, two.output);
    EXPECT_EQ(one.output, four.output);
}

TEST(MapCommand, IdenticalProblemsAreSearchedOnce) {
    const nlohmann::json json =
        run_json(map_command("--workload resnet18 --phase fw --search random --budget 50 --quiet"));
    const std::size_t layers = json["layers"].size();
    EXPECT_EQ(layers, 21u);
    EXPECT_LT(json["searched_problems"].get<std::size_t>(), layers) << "repeated blocks";
    EXPECT_EQ(json["layer_phases"], 21);
    EXPECT_EQ(json["evaluations"], 50 * json["searched_problems"].get<std::int64_t>());
    // layer1's four 3×3 convolutions are one problem: one mapping, one cost.
    std::map<std::string, nlohmann::json> fw;
    for (const auto& layer : json["layers"]) fw[layer["name"]] = layer["phases"]["fw"];
    for (const char* name : {"layer1.0.conv2", "layer1.1.conv1", "layer1.1.conv2"}) {
        EXPECT_EQ(fw[name]["mapping"], fw["layer1.0.conv1"]["mapping"]) << name;
        EXPECT_EQ(fw[name]["cycles"], fw["layer1.0.conv1"]["cycles"]) << name;
        EXPECT_EQ(fw[name]["reused"], true) << name;
    }
    EXPECT_EQ(fw["layer1.0.conv1"]["reused"], false);
    EXPECT_TRUE(json["totals"].contains("fw"));
    EXPECT_FALSE(json["totals"].contains("bw")) << "only fw was mapped";
    EXPECT_FALSE(json["totals"].contains("step")) << "a step needs all three phases";
}

TEST(MapCommand, TextHasTheMapspaceSizeTableTotalsAndSearchSummary) {
    const CommandResult r = run(kMlpRandom + " --dataflow K,N --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto mapspace = r.output.find("mapspace of the largest problem (fc1");
    const auto table = r.output.find("layer  phase");
    ASSERT_NE(mapspace, std::string::npos) << r.output;
    ASSERT_NE(table, std::string::npos) << r.output;
    EXPECT_LT(mapspace, table) << "the mapspace size comes before the search";
    for (const char* text :
         {"spatial ", "tilings ", "orders ", "keeps ", "fc2    bw", "DRAM[", "\nstep ", "pJ/MAC",
          "dataflow K,N", "searched 5 distinct problems for 5 layer-phases in "}) {
        EXPECT_NE(r.output.find(text), std::string::npos) << text << "\n" << r.output;
    }
    EXPECT_NE(r.output.find("evaluations/s)"), std::string::npos) << r.output;
}

// An RF of two FP32 words cannot hold a tile of each of three tensors, and
// --no-bypass makes every level keep all three.
std::string tiny_rf_arch() {
    return temp_file(
        "tiny_rf.yaml",
        "architecture: tiny_rf\n"
        "component_library: " +
            std::string(TRAINLOOP_SOURCE_DIR) +
            "/arch_specs/components/default_45nm.yaml\n"
            "pe_array: {rows: 2, columns: 2, datatype: fp32}\n"
            "storage:\n"
            "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
            "outputs]}\n"
            "  - {name: GLB, class: sram, capacity: 1 MB, data_spaces: [weights, inputs, "
            "outputs]}\n"
            "  - {name: RF, class: regfile, capacity: 8 B, per_pe: true, data_spaces: [weights, "
            "inputs, outputs]}\n"
            "networks:\n"
            "  - {name: unicast, axis: both, kind: unicast, parent: GLB, child: RF}\n");
}

TEST(MapCommand, NoValidMappingExitsWithTwoNamingLayerPhaseAndRejections) {
    const std::string arch = tiny_rf_arch();
    const std::string command =
        "map --arch " + arch + " --workload mlp_mnist --no-bypass --search random --budget 200";
    const CommandResult r = run(command + " --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no valid mapping for fc1 fw: 200 rejected — "), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("capacity at RF "), std::string::npos) << r.output;

    const CommandResult j = run(command + " --format json", false);
    EXPECT_EQ(j.exit_code, 2) << j.output;
    const auto json = nlohmann::json::parse(j.output);
    const std::string message = json["error"]["message"];
    EXPECT_NE(message.find("no valid mapping for fc1 fw: 200 rejected — "), std::string::npos)
        << message;
    EXPECT_NE(message.find("capacity at RF "), std::string::npos) << message;
    EXPECT_NE(json["error"]["hint"].get<std::string>().find("--budget"), std::string::npos);
}

TEST(MapCommand, BadDataflowExitsWithTwoAndShowsTheExpectedForms) {
    const CommandResult r = run(map_command("--workload mlp_mnist --dataflow bad"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("cannot read dataflow `bad`"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("K,N"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("any"), std::string::npos) << r.output;

    const CommandResult j = run(map_command("--workload mlp_mnist --dataflow K,Z --format json"));
    EXPECT_EQ(j.exit_code, 2) << j.output;
    const auto json = nlohmann::json::parse(j.output);
    EXPECT_EQ(json["error"]["key"], "--dataflow");
    EXPECT_NE(json["error"]["expected"].get<std::string>().find("K,N"), std::string::npos);
}

TEST(MapCommand, BadOptionValuesExitWithTwo) {
    EXPECT_EQ(run(map_command("--workload mlp_mnist --objective speed")).exit_code, 2);
    EXPECT_EQ(run(map_command("--workload mlp_mnist --search greedy")).exit_code, 2);
    EXPECT_EQ(run(map_command("--workload mlp_mnist --phase all2")).exit_code, 2);
    EXPECT_EQ(run(map_command("--workload mlp_mnist --budget 0")).exit_code, 2)
        << "an anneal search without any budget never ends";
    EXPECT_EQ(run(map_command("--workload mlp_mnist --export gem5 x")).exit_code, 2);
    EXPECT_EQ(run("map --workload mlp_mnist").exit_code, 2) << "--arch is required";
}

TEST(MapCommand, ExportWritesTimeloopInputsPerLayerPhaseAndDoesNotOverwrite) {
    const std::string dir = temp_path("export");
    std::filesystem::remove_all(dir);
    const std::string command = kMlpRandom + " --quiet --export timeloop " + dir;
    const CommandResult r = run(command);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("exported 5 of 5 layer-phases"), std::string::npos) << r.output;
    for (const char* sub : {"fc1_fw", "fc1_wu", "fc2_fw", "fc2_bw", "fc2_wu"}) {
        for (const char* file : {"map.yaml", "problem.yaml", "arch.yaml", "ERT.yaml", "ART.yaml"}) {
            EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / sub / file))
                << sub << "/" << file;
        }
    }
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir) / "fc1_bw"));
    const CommandResult again = run(command);
    EXPECT_EQ(again.exit_code, 2) << again.output;
    EXPECT_NE(again.output.find("already exists"), std::string::npos) << again.output;
    EXPECT_EQ(run(command + " --force").exit_code, 0);
    std::filesystem::remove_all(dir);
}

TEST(MapCommand, ExportedFwCaseEvaluatesInTimeloopFormToTheMappersNumbers) {
    const std::string dir = temp_path("export");
    std::filesystem::remove_all(dir);
    const nlohmann::json json =
        run_json(kMlpRandom + " --quiet --phase fw --export timeloop " + dir);
    const std::string case_dir = dir + "/fc2_fw/";
    const CommandResult r = run("eval --format json --timeloop " + case_dir + "arch.yaml " +
                                    case_dir + "problem.yaml " + case_dir + "map.yaml " + case_dir +
                                    "ERT.yaml " + case_dir + "ART.yaml",
                                false);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto evaluated = nlohmann::json::parse(r.output);
    EXPECT_EQ(evaluated["cycles"], json["layers"][1]["phases"]["fw"]["cycles"]);
    std::filesystem::remove_all(dir);
}

}  // namespace
