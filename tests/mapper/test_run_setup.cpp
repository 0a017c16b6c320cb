// One run set-up for `map` and `sweep` (mappers/run/): a sweep honours the
// architecture's `constraints:` section as `map` does, and `map --db` keys a
// run on every input that changes its result.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run/run_identity.hpp"
#include "search/search.hpp"
#include "support/run_binary.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::run_trainloop;
using testing::temp_file;
using testing::temp_path;

const std::string kSource = TRAINLOOP_SOURCE_DIR;
const std::string kArch = kSource + "/arch_specs/procrustes_baseline_16x16.yaml";

// The 16×16 baseline with a `constraints:` section that no unconstrained
// search would choose: exactly K2 across the columns, nothing across the rows.
std::string constrained_arch() {
    std::string yaml = testing::read_text(kArch);
    const std::string library = "component_library: components/";
    yaml.replace(yaml.find(library), library.size(),
                 "component_library: " + kSource + "/arch_specs/components/");
    yaml += "\nconstraints:\n  spatial:\n    x: {dims: [K], factors: {K: 2}}\n    y: []\n";
    return temp_file("k2_arch.yaml", yaml);
}

// Every spatial loop token (`X:K2`, `Y:N16`) of a one-line mapping: an axis,
// a colon, an upper-case letter and digits. (A hand scan, not std::regex: GCC
// 12 warns falsely inside <regex> at -O1 under AddressSanitizer.)
std::vector<std::string> spatial_tokens(const std::string& mapping) {
    auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::vector<std::string> tokens;
    for (std::size_t i = 0; i + 3 < mapping.size(); ++i) {
        if ((mapping[i] != 'X' && mapping[i] != 'Y') || mapping[i + 1] != ':' ||
            !upper(mapping[i + 2]) || !digit(mapping[i + 3])) {
            continue;
        }
        std::size_t end = i + 3;
        while (end < mapping.size() && digit(mapping[end])) ++end;
        tokens.push_back(mapping.substr(i, end - i));
        i = end - 1;
    }
    return tokens;
}

// Runs `sweep` (a sweep file) into a fresh database `db_name` and returns the
// stored mappings' one-line texts, in layer order.
std::vector<std::string> swept_mappings(const std::string& sweep, const std::string& db_name) {
    const std::string db = fresh_db(db_name);
    const auto r = run_trainloop("sweep " + sweep + " --db " + db + " -q -j1");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto rows = run_trainloop("query --db " + db +
                                    " -f csv --sql \"SELECT m.text FROM results r JOIN mappings m "
                                    "ON m.id = r.mapping_id ORDER BY r.layer\"");
    EXPECT_EQ(rows.exit_code, 0) << rows.output;
    std::vector<std::string> texts;
    std::istringstream lines(rows.output);
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) texts.push_back(line);
    return texts;
}

TEST(RunSetup, MapHonoursTheArchitecturesConstraints) {
    const auto r = run_trainloop("map --arch " + constrained_arch() +
                                     " --workload mlp_mnist --phase fw --budget 300 -q -f json",
                                 testing::Capture::stdout_only);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output);
    int mappings = 0;
    for (const auto& layer : json["layers"]) {
        for (const auto& [phase, entry] : layer["phases"].items()) {
            ++mappings;
            std::vector<std::string> x, y;
            for (const auto& level : entry["mapping"]["levels"]) {
                for (const auto& loop : level["spatial_x"]) x.push_back(loop);
                for (const auto& loop : level["spatial_y"]) y.push_back(loop);
            }
            EXPECT_EQ(x, std::vector<std::string>{"K2"}) << layer["name"] << " " << phase;
            EXPECT_TRUE(y.empty()) << layer["name"] << " " << phase;
        }
    }
    EXPECT_EQ(mappings, 2);
}

TEST(RunSetup, SweepHonoursTheArchitecturesConstraints) {
    const std::string sweep =
        temp_file("constrained.yaml", "sweep: constrained\narchitectures: [" + constrained_arch() +
                                          "]\nnetworks: [mlp_mnist]\n"
                                          "dataflows: [any]\nphases: [fw]\n"
                                          "search: {budget: 300}\n");
    const std::vector<std::string> mappings = swept_mappings(sweep, "constrained.db");
    for (const std::string& m : mappings) {
        EXPECT_EQ(spatial_tokens(m), std::vector<std::string>{"X:K2"}) << m;
    }
    EXPECT_EQ(mappings.size(), 2U);  // fc1 and fc2
}

// `search: {imperfect_factors: true}` reaches the sweep's mapspaces: K = 1000
// spreads over all 16 columns (padded to 1,008), as `map --imperfect-factors`.
TEST(RunSetup, SweepHonoursImperfectFactors) {
    const std::string network =
        temp_file("fc1000.yaml",
                  "network: fc1000\n"
                  "inputs:\n  - {name: a, channels: 512, height: 1, width: 1}\n"
                  "layers:\n  - {name: fc, type: fc, inputs: [a], "
                  "out_features: 1000}\n");
    for (const bool imperfect : {false, true}) {
        const std::string sweep = temp_file(
            "imperfect.yaml", "sweep: imperfect\narchitectures: [" + kArch + "]\nnetworks: [" +
                                  network + "]\ndataflows: [\"K,N\"]\nphases: [fw]\n" +
                                  "objectives: [latency]\nsearch: {budget: 3000" +
                                  (imperfect ? ", imperfect_factors: true" : "") + "}\n");
        const std::vector<std::string> mappings = swept_mappings(sweep, "imperfect.db");
        ASSERT_EQ(mappings.size(), 1U);
        EXPECT_EQ(mappings[0].find("X:K16") != std::string::npos, imperfect) << mappings[0];
    }
}

// A constraints file that an architecture's own constraints do not hold:
// sweeps take one (`constraints:` in the sweep file) for every point.
TEST(RunSetup, SweepAppliesItsConstraintsFileOnTopOfTheArchitecture) {
    const std::string constraints = temp_file("x_k2.yaml",
                                              "mapping_constraints: x_k2\nspatial:\n"
                                              "  x: {dims: [K], factors: {K: 2}}\n  y: []\n");
    const std::string sweep =
        temp_file("with_file.yaml",
                  "sweep: with_file\narchitectures: [procrustes_baseline_16x16]\n"
                  "networks: [mlp_mnist]\ndataflows: [any]\nphases: [fw]\n"
                  "search: {budget: 300}\nconstraints: " +
                      std::filesystem::path(constraints).filename().string() + "\n");
    const std::vector<std::string> mappings = swept_mappings(sweep, "with_file.db");
    for (const std::string& m : mappings) {
        EXPECT_EQ(spatial_tokens(m), std::vector<std::string>{"X:K2"}) << m;
    }
    EXPECT_EQ(mappings.size(), 2U);
}

TEST(RunSetup, MapDbRunsThatDifferInConstraintsPatienceOrTimeBudgetAreSeparateRuns) {
    const std::string db = fresh_db("identity.db");
    const std::string map =
        "map --arch " + kArch +
        " --workload mlp_mnist --dataflow K,N --phase fw --budget 200 -q --db " + db;
    const std::string constraints = kSource + "/examples/constraints/procrustes_KN_batch_on_y.yaml";
    for (const std::string& extra :
         {std::string(), " --constraints " + constraints, std::string(" --patience 50"),
          std::string(" --time-budget 100"), std::string()}) {
        const auto r = run_trainloop(map + extra);
        ASSERT_EQ(r.exit_code, 0) << extra << "\n" << r.output;
    }
    // Four different runs (the last command repeats the first).
    const auto n =
        run_trainloop("query --db " + db + " -f csv --sql \"SELECT count(*) AS runs FROM sweeps\"");
    EXPECT_EQ(n.output, "runs\n4\n");
    const auto points = run_trainloop("query --db " + db +
                                      " -f csv --sql \"SELECT count(*) AS points FROM points\"");
    EXPECT_EQ(points.output, "points\n4\n");
    const auto text = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT count(*) AS n FROM sweeps WHERE yaml LIKE '%patience: 50%'\"");
    EXPECT_EQ(text.output, "n\n1\n");
}

}  // namespace
}  // namespace trainloop

namespace trainloop {
namespace {

// The default search (until converged, at most the cap) and a fixed budget
// of the same size give different results, so they are different runs.
TEST(RunIdentity, TheDefaultSearchAndAnEqualFixedBudgetAreDifferentRuns) {
    const SpecText arch{"a", "a: 1"}, network{"n", "n: 1"}, sparsity{"dense", ""};
    RunSettings converging;
    RunSettings fixed = converging;
    fixed.search.stop_when_converged = false;
    ASSERT_EQ(fixed.search.budget, converging.search.budget);
    const RunIdentity a = map_run_identity(arch, network, 16, sparsity, converging);
    const RunIdentity b = map_run_identity(arch, network, 16, sparsity, fixed);
    EXPECT_NE(a.hash, b.hash);
    EXPECT_NE(a.description.find("until_converged: true"), std::string::npos) << a.description;
    EXPECT_EQ(b.description.find("until_converged"), std::string::npos) << b.description;
}

// Imperfect factors change the results, so they are part of a run's
// identity; a run without them keeps the identity it had before the option.
TEST(RunIdentity, ImperfectFactorsMakeAnotherRunAndTheDefaultIsUnchanged) {
    const SpecText arch{"a", "a: 1"}, network{"n", "n: 1"}, sparsity{"dense", ""};
    RunSettings perfect;
    RunSettings padded = perfect;
    padded.imperfect_factors = true;
    const RunIdentity a = map_run_identity(arch, network, 16, sparsity, perfect);
    const RunIdentity b = map_run_identity(arch, network, 16, sparsity, padded);
    EXPECT_NE(a.hash, b.hash);
    EXPECT_EQ(a.description.find("imperfect"), std::string::npos) << a.description;
    EXPECT_NE(b.description.find("imperfect_factors: true"), std::string::npos) << b.description;
}

// `map` with no --budget searches until converged; with one, exactly that
// many evaluations per problem. The JSON says which.
TEST(RunSetup, MapSearchesUntilConvergedUnlessGivenABudget) {
    const std::string map =
        "map --arch " + kArch +
        " --workload mlp_mnist --dataflow K,N --no-bypass --phase fw -q -f json";
    const auto converging = run_trainloop(map, testing::Capture::stdout_only);
    ASSERT_EQ(converging.exit_code, 0) << converging.output;
    const nlohmann::json c = nlohmann::json::parse(converging.output);
    EXPECT_EQ(c["until_converged"], true);
    EXPECT_EQ(c["budget"], kConvergingBudget);
    for (const auto& layer : c["layers"]) {
        EXPECT_EQ(layer["phases"]["fw"]["converged"], true) << layer.dump();
        EXPECT_LE(layer["phases"]["fw"]["evaluations"].get<std::int64_t>(), kConvergingBudget);
    }
    const auto fixed = run_trainloop(map + " --budget 400", testing::Capture::stdout_only);
    ASSERT_EQ(fixed.exit_code, 0) << fixed.output;
    const nlohmann::json f = nlohmann::json::parse(fixed.output);
    EXPECT_EQ(f["until_converged"], false);
    for (const auto& layer : f["layers"]) {
        // 400 annealing, then each chain's closing climb: at most a quarter more.
        const auto evaluations = layer["phases"]["fw"]["evaluations"].get<std::int64_t>();
        EXPECT_GE(evaluations, 400) << layer.dump();
        EXPECT_LE(evaluations, 500) << layer.dump();
    }
}

}  // namespace
}  // namespace trainloop
