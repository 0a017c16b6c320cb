// Sweep files: parsing, architecture overrides, point order, exclusions and
// shards, and their errors.
#include <gtest/gtest.h>

#include "common/spec_error.hpp"
#include "support/run_binary.hpp"
#include "sweep/architecture_variant.hpp"
#include "sweep/sweep_parser.hpp"
#include "sweep/sweep_points.hpp"

namespace trainloop {
namespace {

const std::string kArch =
    std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_baseline_16x16.yaml";

SweepSpec parse(const std::string& text) {
    return parse_sweep(SpecNode::load_string(
                           text, std::string(TRAINLOOP_SOURCE_DIR) + "/examples/sweeps/test.yaml"),
                       text);
}

std::string error_of(const std::string& text) {
    try {
        const SweepSpec spec = parse(text);
        for (const SweepArchitecture& a : spec.architectures) load_architecture_variant(a);
    } catch (const SpecError& e) {
        return e.what();
    }
    return "no error";
}

const std::string kHead = "sweep: t\nnetworks: [mlp_mnist]\ndataflows: [\"K,N\"]\narchitectures:\n";

TEST(SweepSpec, ReadsAxesAndDefaults) {
    const SweepSpec s = parse(kHead + "  - procrustes_baseline_16x16\n");
    ASSERT_EQ(s.architectures.size(), 1u);
    EXPECT_EQ(s.architectures[0].file.substr(s.architectures[0].file.size() - 30),
              "procrustes_baseline_16x16.yaml");
    EXPECT_EQ(s.batches, (std::vector<std::int64_t>{16}));
    EXPECT_EQ(s.objectives, (std::vector<std::string>{"edp"}));
    EXPECT_EQ(s.phases.size(), 3u);
    EXPECT_EQ(s.dataflows, (std::vector<std::string>{"K,N"}));
}

// No `budget:`: the search stops when it converges (as `map` with no
// --budget), at most kConvergingBudget; a `budget:` as `map --budget`.
TEST(SweepSpec, WithoutABudgetTheSearchRunsUntilConverged) {
    const SweepSpec converging = parse(kHead + "  - procrustes_baseline_16x16\n");
    EXPECT_TRUE(converging.stop_when_converged);
    EXPECT_EQ(converging.budget, kConvergingBudget);
    const SweepSpec fixed = parse(kHead + "  - procrustes_baseline_16x16\nsearch: {budget: 300}\n");
    EXPECT_FALSE(fixed.stop_when_converged);
    EXPECT_EQ(fixed.budget, 300);
}

TEST(SweepSpec, ImperfectFactorsAreASearchOption) {
    EXPECT_FALSE(parse(kHead + "  - procrustes_baseline_16x16\n").imperfect_factors);
    const SweepSpec s =
        parse(kHead + "  - procrustes_baseline_16x16\nsearch: {imperfect_factors: true}\n");
    EXPECT_TRUE(s.imperfect_factors);
    EXPECT_NE(error_of(kHead + "  - procrustes_baseline_16x16\nsearch: {imperfect_factors: 3}\n")
                  .find("imperfect_factors"),
              std::string::npos);
    EXPECT_FALSE(s.imperfect_windows);
    EXPECT_TRUE(parse(kHead + "  - procrustes_baseline_16x16\n"
                              "search: {imperfect_factors: true, imperfect_windows: true}\n")
                    .imperfect_windows);
    // Windows are padded only with imperfect factors: alone, an error at the key.
    const std::string alone =
        error_of(kHead + "  - procrustes_baseline_16x16\nsearch: {imperfect_windows: true}\n");
    EXPECT_NE(alone.find("imperfect_windows without imperfect_factors"), std::string::npos)
        << alone;
    EXPECT_NE(alone.find("search.imperfect_windows"), std::string::npos) << alone;
}

TEST(SweepSpec, OverridesApplyToTheTreeBeforeParsing) {
    const SweepSpec s = parse(kHead +
                              "  - file: procrustes_baseline_16x16\n    name: small\n    set:\n"
                              "      pe_array.rows: 8\n      storage.GLB.capacity: 64 KB\n");
    const ArchitectureVariant v = load_architecture_variant(s.architectures[0]);
    EXPECT_EQ(v.arch.name, "small");
    EXPECT_EQ(v.arch.pe_array.rows, 8);
    EXPECT_EQ(v.arch.pe_array.columns, 16);
    EXPECT_EQ(v.arch.find_level("GLB")->capacity_bytes.value(), 64 * 1024);
    EXPECT_NE(v.yaml.find("architecture: small"), std::string::npos) << v.yaml;
    EXPECT_NE(v.yaml.find("64 KB"), std::string::npos) << v.yaml;
}

TEST(SweepSpec, AnOverridePathThatLeadsNowhereIsLocated) {
    const std::string message = error_of(kHead +
                                         "  - file: procrustes_baseline_16x16\n    name: x\n"
                                         "    set:\n      storage.GBL.capacity: 64 KB\n");
    EXPECT_NE(message.find("no list element named `GBL`"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean `GLB`"), std::string::npos) << message;
    EXPECT_NE(message.find("test.yaml:8"), std::string::npos) << message;
}

TEST(SweepSpec, AnOverrideThatBreaksTheArchitectureGetsTheParsersError) {
    const std::string message = error_of(kHead +
                                         "  - file: procrustes_baseline_16x16\n    name: x\n"
                                         "    set:\n      pe_array.rows: -4\n");
    EXPECT_NE(message.find("architecture `x`"), std::string::npos) << message;
    EXPECT_NE(message.find("pe_array.rows"), std::string::npos) << message;
}

TEST(SweepSpec, OverridesNeedAName) {
    const std::string message = error_of(kHead +
                                         "  - file: procrustes_baseline_16x16\n"
                                         "    set: {pe_array.rows: 8}\n");
    EXPECT_NE(message.find("needs a `name`"), std::string::npos) << message;
}

TEST(SweepSpec, UserErrorsAreLocated) {
    EXPECT_NE(error_of(kHead + "  - procrustes_baseline_61x16\n").find("did you mean"),
              std::string::npos);
    EXPECT_NE(error_of("sweep: t\nnetworks: [resnet81]\ndataflows: [\"K,N\"]\n"
                       "architectures: [procrustes_baseline_16x16]\n")
                  .find("resnet18"),
              std::string::npos);
    EXPECT_NE(
        error_of(kHead + "  - procrustes_baseline_16x16\nobjectives: [edp, power]\n").find("power"),
        std::string::npos);
    EXPECT_NE(error_of(kHead + "  - procrustes_baseline_16x16\nbatchs: [4]\n")
                  .find("did you mean `batches`"),
              std::string::npos);
    const std::string bad_dataflow = error_of(
        "sweep: t\nnetworks: [mlp_mnist]\ndataflows: [C,K]\n"
        "architectures: [procrustes_baseline_16x16]\n");
    EXPECT_NE(bad_dataflow.find("quote it"), std::string::npos) << bad_dataflow;
    EXPECT_NE(
        error_of(kHead + "  - procrustes_baseline_16x16\nbatches: [16, 16]\n").find("listed twice"),
        std::string::npos);
}

TEST(SweepSpec, APathTheSystemCannotExamineIsNoSuchFile) {
    // (Found by fuzz_spec_yaml: a 5,000-byte name made std::filesystem throw
    // "File name too long", an internal error instead of a located one.)
    const std::string long_name(5000, 'a');
    for (const std::string& text :
         {kHead + "  - " + long_name + "\n",
          "sweep: t\nnetworks: [" + long_name +
              "]\ndataflows: [\"K,N\"]\n"
              "architectures: [procrustes_baseline_16x16]\n",
          kHead + "  - procrustes_baseline_16x16\nconstraints: " + long_name + "\n"}) {
        const std::string error = error_of(text);
        EXPECT_NE(error.find("no "), std::string::npos) << error.substr(0, 300);
        EXPECT_LT(error.size(), 1500U) << error.substr(0, 600);
    }
}

TEST(SweepPoints, CartesianOrderLastAxisFastestMinusExclusions) {
    SweepSpec s = parse(kHead +
                        "  - procrustes_baseline_16x16\n  - procrustes_baseline_32x32\n"
                        "batches: [4, 8]\nobjectives: [edp, energy]\n"
                        "exclude: [{architecture: b, batch: 8}]\n");
    const auto points = sweep_points(s, {"a", "b"}, {"mlp_mnist"}, {"dense"});
    ASSERT_EQ(points.size(), 6u);  // 2 × 2 × 2 − 2 excluded
    EXPECT_EQ(points[1].objective, 1u);
    EXPECT_EQ(points[2].batch, 1u);
    EXPECT_EQ(points[4].architecture, 1u);
    EXPECT_EQ(points[5].batch, 0u);
    for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i].index, std::int64_t(i));
}

// An exclusion names an entry by its name or as the axis writes it, and one
// that names no entry is a located error: it used to match nothing, silently.
TEST(SweepPoints, AnExclusionNamesAnEntryAsTheAxisWritesIt) {
    const SweepSpec s = parse(kHead +
                              "  - procrustes_baseline_16x16\n  - procrustes_baseline_32x32\n"
                              "batches: [4, 8]\n"
                              "exclude: [{architecture: procrustes_baseline_32x32, batch: 8}]\n");
    // The loaded variants' names differ from the written entries here.
    const auto points = sweep_points(s, {"a", "b"}, {"mlp_mnist"}, {"dense"});
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[2].architecture, 1u);
    EXPECT_EQ(points[2].batch, 0u);
}

TEST(SweepPoints, AnExclusionThatNamesNoEntryIsLocated) {
    const SweepSpec s = parse(kHead +
                              "  - procrustes_baseline_16x16\n"
                              "sparsity: [dense]\n"
                              "exclude:\n  - {batch: 16}\n  - {sparsity: w05.yaml}\n");
    try {
        sweep_points(s, {"a"}, {"mlp_mnist"}, {"dense_profile"});
        FAIL() << "no error";
    } catch (const SpecError& e) {
        EXPECT_EQ(e.where().line, 9);
        EXPECT_EQ(e.key_path(), "exclude[1].sparsity");
        EXPECT_EQ(e.message(), "`sparsity: w05.yaml` names no entry of the sweep's `sparsity:`");
        EXPECT_EQ(e.expected(), "one of: dense_profile (dense)");
    }
    for (const char* bad :
         {"{batch: 32}", "{dataflow: \"C, K\"}", "{objective: energy}", "{network: lenet}"}) {
        const SweepSpec t =
            parse(kHead + "  - procrustes_baseline_16x16\nexclude: [" + bad + "]\n");
        EXPECT_THROW(sweep_points(t, {"a"}, {"mlp_mnist"}, {"dense"}), SpecError) << bad;
    }
}

TEST(SweepSpec, AnEmptyExclusionIsRefused) {
    const std::string error = error_of(kHead + "  - procrustes_baseline_16x16\nexclude: [{}]\n");
    EXPECT_NE(error.find("would leave out every point"), std::string::npos) << error;
}

TEST(SweepSpec, IterationsIsAnAxisOfTrainingRuns) {
    const SweepSpec s = parse(kHead +
                              "  - procrustes_baseline_16x16\n"
                              "iterations: [1000, 5000]\nsamples: 4\n");
    EXPECT_EQ(s.iterations, (std::vector<std::int64_t>{1000, 5000}));
    EXPECT_EQ(s.samples, 4);
    const SweepSpec one = parse(kHead + "  - procrustes_baseline_16x16\niterations: 300\n");
    EXPECT_EQ(one.iterations, (std::vector<std::int64_t>{300}));
    EXPECT_EQ(one.samples, 16) << "train-cost's default";
    EXPECT_TRUE(parse(kHead + "  - procrustes_baseline_16x16\n").iterations.empty());
}

TEST(SweepSpec, TheTrainingRunExampleParses) {
    const std::string path =
        std::string(TRAINLOOP_SOURCE_DIR) + "/examples/sweeps/eager_pruning_runs.yaml";
    const SweepSpec s = load_sweep(path);
    EXPECT_EQ(s.iterations, (std::vector<std::int64_t>{225'000, 450'000}));
    EXPECT_EQ(sweep_points(s, {"a"}, {"alexnet"}, {"eager_pruning", "dense"}).size(), 4u);
}

TEST(SweepSpec, IterationsErrorsAreLocated) {
    const std::string both =
        error_of(kHead + "  - procrustes_baseline_16x16\niteration: 5\niterations: [10]\n");
    EXPECT_NE(both.find("both `iteration:` and `iterations:`"), std::string::npos) << both;
    EXPECT_NE(both.find("test.yaml:7"), std::string::npos) << both;
    const std::string zero = error_of(kHead + "  - procrustes_baseline_16x16\niterations: [0]\n");
    EXPECT_NE(zero.find("iterations"), std::string::npos) << zero;
    EXPECT_NE(zero.find("test.yaml:6"), std::string::npos) << zero;
    EXPECT_NE(error_of(kHead + "  - procrustes_baseline_16x16\niterations: [10, 10]\n")
                  .find("listed twice"),
              std::string::npos);
    const std::string lone = error_of(kHead + "  - procrustes_baseline_16x16\nsamples: 4\n");
    EXPECT_NE(lone.find("`samples:` without `iterations:`"), std::string::npos) << lone;
}

const std::string kCartesianHead =
    "sweep: t\nnetworks: [lenet]\narchitectures: [gscn_4x64]\nevaluator: cartesian\n";

TEST(SweepSpec, TheCartesianEvaluatorHasOneDataflowAndNoObjective) {
    const SweepSpec s = parse(kCartesianHead + "iterations: [10, 20]\n");
    EXPECT_EQ(s.evaluator->name(), "cartesian");
    EXPECT_EQ(s.dataflows, (std::vector<std::string>{"cartesian"}));
    EXPECT_EQ(s.objectives, (std::vector<std::string>{"none"}));
    EXPECT_EQ(sweep_points(s, {"gscn_4x64"}, {"lenet"}, {"dense"}).size(), 2u);
    EXPECT_EQ(parse(kHead + "  - procrustes_baseline_16x16\nevaluator: loop-nest\n").evaluator,
              &default_evaluator());
    EXPECT_EQ(parse(kHead + "  - procrustes_baseline_16x16\n").evaluator, &default_evaluator());
    EXPECT_EQ(s.cartesian_zeros, CartesianZeros::expected);
    EXPECT_EQ(parse(kCartesianHead + "iterations: [1]\nzeros: random\n").cartesian_zeros,
              CartesianZeros::random);
}

TEST(SweepSpec, CartesianEvaluatorErrorsAreLocated) {
    for (const char* key :
         {"dataflows: [any]", "objectives: [edp]", "search: {seed: 2}", "constraints: c.yaml"}) {
        const std::string e = error_of(kCartesianHead + "iterations: [1]\n" + key + "\n");
        EXPECT_NE(e.find("with `evaluator: cartesian`"), std::string::npos) << key << ": " << e;
        EXPECT_NE(e.find("test.yaml:6"), std::string::npos) << key << ": " << e;
    }
    const std::string no_run = error_of(kCartesianHead);
    EXPECT_NE(no_run.find("`evaluator: cartesian` without `iterations:`"), std::string::npos)
        << no_run;
    EXPECT_NE(no_run.find("test.yaml:4"), std::string::npos) << no_run;
    const std::string lone = error_of(kHead + "  - procrustes_baseline_16x16\nzeros: random\n");
    EXPECT_NE(lone.find("`zeros:` without `evaluator: cartesian`"), std::string::npos) << lone;
    const std::string zeros = error_of(kCartesianHead + "iterations: [1]\nzeros: randm\n");
    EXPECT_NE(zeros.find("did you mean `random`"), std::string::npos) << zeros;
    EXPECT_NE(zeros.find("test.yaml:6"), std::string::npos) << zeros;
    const std::string typo =
        error_of(kHead + "  - procrustes_baseline_16x16\nevaluator: cartesain\n");
    EXPECT_NE(typo.find("did you mean `cartesian`"), std::string::npos) << typo;
}

TEST(SweepPoints, RunLengthsVaryFastestAndCanBeExcluded) {
    const SweepSpec s = parse(kHead +
                              "  - procrustes_baseline_16x16\nbatches: [4, 8]\n"
                              "iterations: [10, 20, 30]\n"
                              "exclude: [{batch: 8, iterations: 20}]\n");
    const auto points = sweep_points(s, {"a"}, {"mlp_mnist"}, {"dense"});
    ASSERT_EQ(points.size(), 5u);  // 2 × 3 − 1 excluded
    EXPECT_EQ(points[0].run, 0u);
    EXPECT_EQ(points[1].run, 1u);
    EXPECT_EQ(points[2].run, 2u);
    EXPECT_EQ(points[3].batch, 1u);
    EXPECT_EQ(points[3].run, 0u);
    EXPECT_EQ(points[4].run, 2u);
}

TEST(SweepPoints, ShardsCoverEveryPointExactlyOnce) {
    std::vector<SweepPoint> all(11);
    for (std::size_t i = 0; i < all.size(); ++i) all[i].index = std::int64_t(i);
    std::vector<int> seen(all.size(), 0);
    for (std::int64_t i = 1; i <= 3; ++i) {
        for (const SweepPoint& p : shard_points(all, {i, 3})) ++seen[std::size_t(p.index)];
    }
    EXPECT_EQ(seen, std::vector<int>(all.size(), 1));
}

TEST(SweepPoints, BadShardsAreRefused) {
    EXPECT_EQ(parse_shard("2/8").index, 2);
    EXPECT_EQ(parse_shard("2/8").count, 8);
    for (const char* bad : {"0/4", "5/4", "1", "a/b", "1/0", "2/4x"}) {
        EXPECT_THROW(parse_shard(bad), SpecError) << bad;
    }
}

}  // namespace
}  // namespace trainloop
