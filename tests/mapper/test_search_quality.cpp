// Search quality as `map` reports it: whether each layer-phase's search
// converged, and its lower bound and optimality gap, in the JSON, the text
// and the results database.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "arch/arch_model.hpp"
#include "constraints/architecture_spec.hpp"
#include "mapspace/mapspace.hpp"
#include "problem/phase_problem.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"
#include "support/run_binary.hpp"

namespace trainloop {
namespace {

using testing::run_trainloop;

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";

TEST(SearchQuality, ExhaustiveSearchConvergesExactlyWhenItCoversTheMapspace) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);
    const IterationSpace space = testing::space_of({{Dim::N, 4}, {Dim::K, 8}, {Dim::C, 4}});
    const PhaseProblem problem = make_phase_problem("fc", Phase::fw, space);
    const Mapspace mapspace = Mapspace::build(arch, space, {});
    SearchOptions options;
    options.strategy = SearchStrategy::exhaustive;
    options.budget.max_evaluations = 0;
    options.threads = 1;
    const SearchResult all = search(arch, problem, mapspace, options);
    EXPECT_TRUE(all.exhausted);
    EXPECT_TRUE(all.converged);
    options.budget.max_evaluations = 10;
    const SearchResult cut = search(arch, problem, mapspace, options);
    EXPECT_FALSE(cut.exhausted);
    EXPECT_FALSE(cut.converged);
}

TEST(SearchQuality, AnnealCountsTheChainsThatAgreeOnTheBest) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);
    const IterationSpace space = testing::space_of({{Dim::N, 4}, {Dim::K, 8}, {Dim::C, 4}});
    const PhaseProblem problem = make_phase_problem("fc", Phase::fw, space);
    const Mapspace mapspace = Mapspace::build(arch, space, {});
    SearchOptions options;
    options.threads = 1;
    options.budget.max_evaluations = 8 * 2000;  // ample for a mapspace this small
    const SearchResult r = search(arch, problem, mapspace, options);
    EXPECT_EQ(r.units, 8);
    EXPECT_GE(r.units_near_best, 1);  // the chain that found the best
    EXPECT_EQ(r.converged, r.units_near_best >= 2);
    EXPECT_TRUE(r.converged) << r.units_near_best << " of 8 chains near the best";
    options.budget.max_evaluations = 8;  // one evaluation per chain: a random point each
    const SearchResult tiny = search(arch, problem, mapspace, options);
    EXPECT_EQ(tiny.converged, tiny.units_near_best >= 2);
}

// The default search (SearchBudget::stop_when_converged) on a problem whose
// mapspace is far larger than a round: it runs rounds until two agree, stays
// within its cap, gives the same answer on any number of threads, and ends
// no worse than the fixed 20,000-evaluation annealing that was the default.
TEST(SearchQuality, TheDefaultSearchRunsRoundsUntilTwoAgree) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);
    const IterationSpace space = testing::space_of(
        {{Dim::N, 8}, {Dim::K, 32}, {Dim::C, 16}, {Dim::P, 8}, {Dim::Q, 8}, {Dim::R, 3}});
    const PhaseProblem problem = make_phase_problem("conv", Phase::fw, space);
    const Mapspace mapspace = Mapspace::build(arch, space, {});
    ASSERT_GT(mapspace.size().total(), 1e9);
    SearchOptions options;
    options.budget.max_evaluations = 200'000;  // two rounds (the default cap allows three)
    options.budget.stop_when_converged = true;
    std::optional<SearchResult> first;
    for (int threads : {1, 2}) {
        options.threads = threads;
        const SearchResult r = search(arch, problem, mapspace, options);
        ASSERT_TRUE(r.best);
        EXPECT_FALSE(r.exhausted);
        EXPECT_GE(r.rounds, 2);
        EXPECT_EQ(r.converged, true) << r.rounds << " rounds";
        EXPECT_LE(r.evaluations, 200'000);
        if (!first) {
            first = r;
        } else {
            EXPECT_EQ(r.best->mapping, first->best->mapping);
            EXPECT_EQ(r.evaluations, first->evaluations);
        }
    }
    SearchOptions fixed;
    fixed.threads = 2;
    const SearchResult old_default = search(arch, problem, mapspace, fixed);
    // Its chains anneal the whole budget, then climb: at most a quarter more.
    EXPECT_GT(old_default.evaluations, 20'000);
    EXPECT_LE(old_default.evaluations, 25'000);
    EXPECT_EQ(old_default.rounds, 0);
    EXPECT_LE(first->best->edp(), old_default.best->edp());

    // A cap below a first round: the rounds stop at it.
    options.budget.max_evaluations = 30'000;
    const SearchResult capped = search(arch, problem, mapspace, options);
    EXPECT_GE(capped.rounds, 1);
    EXPECT_LE(capped.evaluations, 30'000);
    EXPECT_GT(capped.evaluations, 20'000);
}

// A mapspace no larger than a first round is searched whole instead.
TEST(SearchQuality, TheDefaultSearchCoversASmallMapspaceExhaustively) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);
    const IterationSpace space = testing::space_of({{Dim::N, 4}, {Dim::K, 8}});
    const PhaseProblem problem = make_phase_problem("fc", Phase::fw, space);
    const Mapspace mapspace = Mapspace::build(arch, space, {parse_dataflow("K,N"), false});
    ASSERT_LE(mapspace.size().total(), 100'000);
    SearchOptions options;
    options.threads = 1;
    options.budget.max_evaluations = kConvergingBudget;
    options.budget.stop_when_converged = true;
    const SearchResult r = search(arch, problem, mapspace, options);
    EXPECT_TRUE(r.exhausted);
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.rounds, 0);
}

// A problem whose default search used to stop, converged, 1.12 % above the
// best known mapping for half the seeds: ResNet-18 layer4.0.conv1 bw with
// `any` (after a 1 × 1 layer, so that it has a bw phase). Its best known EDP
// is from `map --budget 36000000 --seed 1` (100× the default's evaluations).
// With the rounds' chains started cooler, seeds 1–4 (those of
// bench/RESULTS.md's measurement) each reach it; over seeds 1–12, 11 do
// (seed 10 stops 1.12 % above).
TEST(SearchQuality, TheDefaultSearchReachesTheBestKnownMappingOfAHardProblem) {
    const std::string workload =
        testing::temp_file("layer4_0_conv1.yaml", R"(network: layer4_0_conv1
inputs:
  - {name: a, channels: 256, height: 14, width: 14}
layers:
  - {name: pre, type: conv, inputs: [a], out_channels: 256, kernel: 1}
  - {name: conv1, type: conv, inputs: [pre], out_channels: 512, kernel: 3, stride: 2, padding: 1}
)");
    constexpr double kBestKnownEdp = 1.4018372995558619e17;  // pJ × cycles
    for (int seed : {1, 2, 3, 4}) {
        const auto r = run_trainloop(
            "map --arch " + kArch + " --workload " + workload +
                " --phase bw --dataflow any --threads 1 -q -f json --seed " + std::to_string(seed),
            testing::Capture::stdout_only);
        ASSERT_EQ(r.exit_code, 0) << r.output;
        const nlohmann::json json = nlohmann::json::parse(r.output);
        bool found = false;
        for (const auto& layer : json["layers"]) {
            if (layer["name"] != "conv1") continue;
            const auto& bw = layer["phases"]["bw"];
            const double edp = bw["cycles"].get<double>() * bw["energy_pj"].get<double>();
            EXPECT_LE(edp, kBestKnownEdp * 1.01) << "seed " << seed;
            EXPECT_GE(edp, kBestKnownEdp * (1 - 1e-9)) << "seed " << seed << ": a better mapping";
            found = true;
        }
        EXPECT_TRUE(found) << json.dump();
    }
}

TEST(SearchQuality, MapJsonTextAndDatabaseCarryConvergenceBoundAndGap) {
    const std::string db = testing::temp_path("quality.db");
    std::filesystem::remove(db);
    const auto r = run_trainloop(
        "map --arch " + kArch + " --workload mlp_mnist --budget 400 -q -f json --db " + db,
        testing::Capture::stdout_only);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output);
    int checked = 0;
    for (const auto& layer : json["layers"]) {
        for (const auto& [phase, e] : layer["phases"].items()) {
            ASSERT_TRUE(e.contains("converged")) << e.dump();
            ASSERT_TRUE(e.contains("lower_bound")) << e.dump();
            const auto& bound = e["lower_bound"];
            EXPECT_LE(bound["cycles"].get<std::int64_t>(), e["cycles"].get<std::int64_t>());
            EXPECT_LE(bound["energy_pj"].get<double>(), e["energy_pj"].get<double>());
            EXPECT_GT(bound["energy_pj"].get<double>(), 0);
            const auto& gap = e["optimality_gap"];
            EXPECT_NEAR(gap["energy"].get<double>(),
                        e["energy_pj"].get<double>() / bound["energy_pj"].get<double>() - 1, 1e-12);
            EXPECT_GE(gap["cycles"].get<double>(), 0);
            // (1 + energy gap)(1 + cycles gap) - 1, equal to the energy gap
            // (to rounding) where the cycles meet their bound.
            EXPECT_GE(gap["edp"].get<double>(), gap["energy"].get<double>() - 1e-12);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 5);
    const auto rows = run_trainloop(
        "query --db " + db +
        " -f csv --sql \"SELECT count(*) AS n, sum(converged IS NOT NULL) AS c, "
        "sum(lower_bound_cycles <= cycles AND lower_bound_energy_pj <= energy_pj) AS ok "
        "FROM results\"");
    EXPECT_EQ(rows.output, "n,c,ok\n5,5,5\n");
    // The text names the columns and the convergence line.
    const auto text =
        run_trainloop("map --arch " + kArch + " --workload mlp_mnist --phase fw --budget 400 -q");
    EXPECT_NE(text.output.find("conv  E/LB  C/LB"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("converged on "), std::string::npos) << text.output;
}

TEST(SearchQuality, SparseRunsClaimNoBound) {
    const auto r =
        run_trainloop("map --arch " + std::string(TRAINLOOP_SOURCE_DIR) +
                          "/arch_specs/procrustes_sparse_16x16.yaml --workload vgg_s --phase fw "
                          "--sparsity procrustes --budget 200 -q -f json",
                      testing::Capture::stdout_only);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json json = nlohmann::json::parse(r.output);
    // Layers whose densities are all 1 are dense problems and keep theirs.
    int without = 0;
    for (const auto& layer : json["layers"]) {
        const auto& fw = layer["phases"]["fw"];
        EXPECT_TRUE(fw.contains("converged"));
        without += fw.contains("lower_bound") ? 0 : 1;
    }
    EXPECT_GT(without, 0) << json.dump();
}

}  // namespace
}  // namespace trainloop
