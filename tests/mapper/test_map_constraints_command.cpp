// End-to-end: `trainloop map --constraints FILE` — every layer-phase's
// mapping honours the constraints, the reported mapspace reflects them, the
// errors (a constraint leaving a layer no mapping, a conflicting --dataflow,
// a misspelled level) exit 2 naming file, line and key; `spec check` accepts
// a constraints file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "arch/architecture_parser.hpp"
#include "constraints/constraint_check.hpp"
#include "constraints/constraints_parser.hpp"
#include "mapping/mapping_json.hpp"
#include "problem/training_problems.hpp"
#include "support/run_binary.hpp"
#include "workload/network_library.hpp"

namespace {

using trainloop::testing::CommandResult;
using trainloop::testing::temp_file;

CommandResult run(const std::string& arguments, bool with_stderr = true) {
    return trainloop::testing::run_trainloop(
        arguments, with_stderr ? trainloop::testing::Capture::stdout_and_stderr
                               : trainloop::testing::Capture::stdout_only);
}

const std::string kSource = TRAINLOOP_SOURCE_DIR;
const std::string kArch = kSource + "/arch_specs/procrustes_baseline_16x16.yaml";
const std::string kKN = kSource + "/examples/constraints/procrustes_KN_batch_on_y.yaml";
const std::string kMlp =
    "map --arch " + kArch + " --workload mlp_mnist --search random --budget 300 --quiet";

// Checks that every layer-phase's mapping in `map --format json` output
// honours the constraints file (each phase under its own resolution), and
// returns the layer-phases' JSON entries with their phases.
std::vector<std::pair<trainloop::Phase, nlohmann::json>> expect_mappings_honour(
    const nlohmann::json& json, const std::string& constraints_file) {
    const trainloop::Architecture arch = trainloop::load_architecture(kArch);
    const trainloop::MappingConstraints constraints =
        trainloop::load_constraints_file(constraints_file, arch.levels, arch.pe_array).constraints;
    const trainloop::NetworkTraining training = trainloop::derive_training_problems(
        trainloop::load_network("mlp_mnist"), trainloop::kDefaultBatch);
    std::vector<std::pair<trainloop::Phase, nlohmann::json>> checked;
    for (std::size_t l = 0; l < training.layers.size(); ++l) {
        for (const auto& [name, entry] : json["layers"][l]["phases"].items()) {
            const trainloop::Phase phase = *trainloop::phase_from_name(name);
            const trainloop::PhaseProblem* problem = training.layers[l].find(phase);
            EXPECT_NE(problem, nullptr) << name;
            if (problem == nullptr) continue;
            const trainloop::Mapping mapping = trainloop::mapping_from_json(entry["mapping"], arch);
            const auto violation = trainloop::find_constraint_violation(
                trainloop::constraints_for_phase(constraints, phase), problem->space, mapping);
            EXPECT_EQ(violation, std::nullopt) << name << ": " << *violation;
            checked.emplace_back(phase, entry);
        }
    }
    return checked;
}

TEST(MapConstraintsCommand, EveryLayerPhasesMappingHonoursTheConstraintsFile) {
    const CommandResult r = run(kMlp + " --constraints " + kKN + " --format json", false);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["constraints"], "spatial x: K, y: N (N16); keep/bypass 2");
    EXPECT_EQ(expect_mappings_honour(json, kKN).size(), 5U);
}

TEST(MapConstraintsCommand, EachPhaseIsMappedUnderItsOwnEntries) {
    // One output channel per row in each phase: K in fw, C (dx's channels) in
    // bw; wu keeps the general entry. fw and bw of a layer share an iteration
    // space, so this also checks that they do not share a mapspace.
    const std::string file = temp_file("per_phase.yaml",
                                       "mapping_constraints: per_phase\n"
                                       "spatial: {y: [K]}\n"
                                       "phases:\n"
                                       "  bw: {spatial: {y: [C]}}\n");
    const CommandResult r = run(kMlp + " --constraints " + file + " --format json", false);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["constraints"], "spatial y: K; bw: spatial y: C");
    int bw_checked = 0;
    for (const auto& [phase, entry] : expect_mappings_honour(json, file)) {
        std::string rows;
        for (const auto& level : entry["mapping"]["levels"]) {
            for (const auto& loop : level["spatial_y"])
                rows += loop.get<std::string>().substr(0, 1);
        }
        EXPECT_EQ(rows, phase == trainloop::Phase::bw ? "C" : "K") << phase_name(phase);
        bw_checked += phase == trainloop::Phase::bw ? 1 : 0;
    }
    EXPECT_GT(bw_checked, 0);
}

TEST(MapConstraintsCommand, ADataflowAgainstOnePhasesEntryExitsTwoAtThatEntry) {
    const std::string file = temp_file("per_phase_dataflow.yaml",
                                       "mapping_constraints: per_phase_dataflow\n"
                                       "spatial: {y: [K]}\n"
                                       "phases:\n"
                                       "  bw: {spatial: {y: [C]}}\n");
    // --dataflow C,K agrees with fw and wu (K on the rows), not with bw.
    const CommandResult r = run(kMlp + " --dataflow C,K --constraints " + file);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(file + ":4:21: phases.bw.spatial.y"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("conflicts with the spatial constraint across y in bw, which allows C"),
              std::string::npos)
        << r.output;
}

TEST(MapConstraintsCommand, AConflictInFwIsReportedBeforeOneInALaterPhasesEntry) {
    // The general y entry conflicts with C,K in every phase, fw first; wu's own
    // x entry conflicts too. The first phase's conflict is the one named, as
    // the general entry it is (it used to be wu's).
    const std::string file = temp_file("fw_conflict.yaml",
                                       "mapping_constraints: fw_conflict\n"
                                       "spatial: {y: [C]}\n"
                                       "phases:\n"
                                       "  wu: {spatial: {x: [K]}}\n");
    const CommandResult r = run(kMlp + " --dataflow C,K --constraints " + file);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(file + ":2:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("conflicts with the spatial constraint across y, which allows C"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("wu"), std::string::npos) << r.output;
}

TEST(MapConstraintsCommand, TheMapspaceReportedBeforeSearchingReflectsTheConstraints) {
    const auto free = nlohmann::json::parse(run(kMlp + " --format json", false).output);
    const auto constrained =
        nlohmann::json::parse(run(kMlp + " --constraints " + kKN + " --format json", false).output);
    EXPECT_LT(constrained["mapspace"]["spatial"].get<double>(),
              free["mapspace"]["spatial"].get<double>());
    EXPECT_LT(constrained["mapspace"]["keeps"].get<double>(),
              free["mapspace"]["keeps"].get<double>());
    EXPECT_EQ(free["constraints"], "none");

    const CommandResult text = run(kMlp + " --constraints " + kKN);
    ASSERT_EQ(text.exit_code, 0) << text.output;
    const std::size_t line =
        text.output.find("constraints (" + kKN +
                         "): spatial x: K, y: N (N16); keep/bypass 2\nmapspace of the "
                         "largest problem");
    EXPECT_EQ(line, 0u) << text.output;
}

TEST(MapConstraintsCommand, AConstraintLeavingALayerNoMappingNamesItAndExitsTwo) {
    const std::string file =
        temp_file("k3.yaml", "mapping_constraints: k3\nlevels:\n  RF:\n    factors: {K: 3}\n");
    const CommandResult r = run(kMlp + " --constraints " + file);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no valid mapping for fc1 fw: the constraints leave its mapspace "
                            "empty — the factor bounds leave K no split"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("K = 3 at RF, set at " + file + ":4:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("levels.RF.factors.K"), std::string::npos) << r.output;
    // The error is located at the constraint.
    const CommandResult j = run(kMlp + " --constraints " + file + " --format json", false);
    EXPECT_EQ(j.exit_code, 2);
    const auto json = nlohmann::json::parse(j.output);
    EXPECT_EQ(json["error"]["file"], file);
    EXPECT_EQ(json["error"]["line"], 4);
    EXPECT_EQ(json["error"]["key"], "levels.RF.factors.K");
}

TEST(MapConstraintsCommand, RejectionsUnderConstraintsSayNoneWasAConstraints) {
    // Inputs kept in the 256-word RF with at least 392 of fc1's 784 input
    // channels: every mapping overflows a level.
    const std::string file = temp_file(
        "big_c.yaml",
        "mapping_constraints: big_c\nlevels:\n  RF: {factors: {C: {min: 256}}, keep: [inputs]}\n");
    const CommandResult r = run(kMlp + " --constraints " + file);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("no valid mapping for fc1 fw: 300 rejected — capacity at RF "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("; no mapping was rejected by a constraint: the mapspace holds only "
                            "mappings that honour them"),
              std::string::npos)
        << r.output;
}

TEST(MapConstraintsCommand, ConflictingDataflowAndMisspelledLevelExitTwoWithTheirLocation) {
    CommandResult r = run(kMlp + " --constraints " + kKN + " --dataflow C,K");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--dataflow C,K conflicts with the spatial constraint across x, "
                            "which allows K"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(kKN + ":18:"), std::string::npos) << r.output;
    EXPECT_EQ(run(kMlp + " --constraints " + kKN + " --dataflow K,N").exit_code, 0);

    const std::string file =
        temp_file("typo.yaml", "mapping_constraints: typo\nlevels:\n  GBL:\n    keep: [weights]\n");
    r = run(kMlp + " --constraints " + file + " --format json", false);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    const auto json = nlohmann::json::parse(r.output);
    EXPECT_EQ(json["error"]["line"], 3);
    EXPECT_EQ(json["error"]["key"], "levels.GBL");
    EXPECT_NE(json["error"]["hint"].get<std::string>().find("`GLB`"), std::string::npos);
}

TEST(MapConstraintsCommand, SpecCheckAcceptsAConstraintsFileAndNeedsItsArchitecture) {
    CommandResult r = run("spec check " + kKN);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("(mapping constraints `procrustes_KN_batch_on_y`: for "
                            "procrustes_baseline_16x16: spatial x: K, y: N (N16); keep/bypass 2)"),
              std::string::npos)
        << r.output;
    const std::string file =
        temp_file("no_for.yaml", "mapping_constraints: no_for\nspatial: {x: [K]}\n");
    r = run("spec check " + file);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("without `for: {arch: FILE}`"), std::string::npos) << r.output;
}

}  // namespace
