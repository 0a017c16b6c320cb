// The evaluators' registry (evaluator/evaluators.hpp): lookup by the name a
// sweep file or --evaluator writes, the located error for any other name,
// what each evaluator refuses to run, and what each hands back for a small
// training run (the costs, the searches, the record filled without
// evaluating again).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "common/spec_node.hpp"
#include "common/spec_reading.hpp"
#include "density/sparsity_library.hpp"
#include "evaluator/evaluators.hpp"
#include "problem/training_problems.hpp"
#include "run/run_setup.hpp"
#include "support/spec_error_matchers.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

Architecture shipped(const std::string& name) {
    return load_architecture(std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/" + name + ".yaml");
}

TEST(Evaluators, EachIsFoundByItsNameTheDefaultFirst) {
    const std::vector<std::string> names = evaluator_names();
    EXPECT_EQ(names, (std::vector<std::string>{"loop-nest", "cartesian"}));
    EXPECT_EQ(&default_evaluator(), evaluators().front());
    EXPECT_EQ(default_evaluator().name(), "loop-nest");
    std::set<std::string> seen;
    for (const Evaluator* e : evaluators()) {
        EXPECT_EQ(find_evaluator(e->name()), e);
        EXPECT_TRUE(seen.insert(std::string(e->name())).second) << e->name();
        EXPECT_FALSE(e->title().empty()) << e->name();
        EXPECT_FALSE(e->help().empty()) << e->name();
        // One that searches nothing must say why (a sweep's searching keys are refused with it).
        EXPECT_EQ(e->searches_mappings(), e->why_nothing_is_searched().empty()) << e->name();
    }
    EXPECT_EQ(find_evaluator("cartesain"), nullptr);
    EXPECT_EQ(find_evaluator(""), nullptr);
}

// The value of `key` in YAML text `text`, read as the file sweep.yaml.
SpecNode value_of(const std::string& text, std::string_view key) {
    return MapReader(SpecNode::load_string(text, "sweep.yaml")).required(key);
}

TEST(Evaluators, ANameFromAFileIsLookedUpThere) {
    EXPECT_EQ(evaluator_named(value_of("evaluator: cartesian\n", "evaluator")).name(), "cartesian");

    const SpecNode bad = value_of("sweep: s\nevaluator: vector\n", "evaluator");
    const SpecError e = expect_spec_error([&] { evaluator_named(bad); });
    EXPECT_EQ(e.where().file, "sweep.yaml");
    EXPECT_EQ(e.where().line, 2);
    EXPECT_TRUE(contains(e.message(), "`vector`"));
    EXPECT_TRUE(contains(e.expected(), "one of loop-nest, cartesian"));
    const SpecNode typo = value_of("evaluator: cartesain\n", "evaluator");
    const SpecError near = expect_spec_error([&] { evaluator_named(typo); });
    EXPECT_TRUE(contains(near.hint(), "did you mean `cartesian`"));
}

TEST(Evaluators, EachSaysWhichArchitecturesItCannotRun) {
    const Architecture gscn = shipped("gscn_4x64");
    const Architecture procrustes = shipped("procrustes_sparse_16x16");
    const Evaluator& loop_nest = *find_evaluator("loop-nest");
    const Evaluator& cartesian = *find_evaluator("cartesian");
    EXPECT_FALSE(loop_nest.unsupported(gscn)) << "a loop-nest mapspace of any array";
    EXPECT_FALSE(loop_nest.unsupported(procrustes));
    EXPECT_FALSE(cartesian.unsupported(gscn));
    const std::optional<ArchitectureGap> gap = cartesian.unsupported(procrustes);
    ASSERT_TRUE(gap) << "procrustes has no `cartesian_product:` section";
    EXPECT_EQ(gap->section, "cartesian_product");
    EXPECT_FALSE(cartesian.unsupported(shipped(gap->example))) << "the example has the section";
}

TEST(Evaluators, OnlyTheDefaultKeepsTheIdentityOfOlderRuns) {
    RunSettings settings;
    EXPECT_EQ(default_evaluator().identity(settings), "");
    const Evaluator& cartesian = *find_evaluator("cartesian");
    EXPECT_EQ(cartesian.identity(settings), "  evaluator: cartesian\n");
    settings.cartesian_zeros = CartesianZeros::random;
    EXPECT_EQ(cartesian.identity(settings), "  evaluator: cartesian\n  zeros: random\n");
    EXPECT_EQ(cartesian.mapspaces(), PlanMapspaces::none) << "nothing to search";
    EXPECT_EQ(default_evaluator().mapspaces(), PlanMapspaces::build);
}

// A one-iteration training run of `network` on `arch`, set up for `evaluator`.
struct SmallRun {
    Architecture arch;
    ArchModel model;
    Network network;
    NetworkTraining training;
    SparsityProfile profile;
    MappingConstraints constraints;
    RunSettings settings;
    RunSetup setup;

    SmallRun(const std::string& arch_name, const std::string& network_name,
             const Evaluator& evaluator)
        : arch(shipped(arch_name)),
          model(build_arch_model(arch)),
          network(load_network(network_name)),
          training(derive_training_problems(network, 4)),
          profile(load_sparsity_profile_named("procrustes")) {
        settings.phases = {kAllPhases.begin(), kAllPhases.end()};
        settings.training_run = TrainingRunLength{1, 1};
        settings.search.budget = 200;
        settings.search.stop_when_converged = false;
        setup = set_up_run(subject(), settings, 1, evaluator.mapspaces());
    }
    RunSubject subject() const {
        return {arch, constraints, model, network.name(), training, &profile};
    }
};

TEST(Evaluators, TheLoopNestSearchFillsItsRecordFromWhatItKept) {
    const Evaluator& loop_nest = default_evaluator();
    const SmallRun run("procrustes_sparse_16x16", "mlp_mnist", loop_nest);
    const RunSubject subject = run.subject();
    const EvaluatedRun evaluated = loop_nest.evaluate({subject, run.settings, run.setup, 4, {}});
    ASSERT_TRUE(evaluated.costs);
    EXPECT_EQ(evaluated.costs->size(), run.setup.training_run->problems.size());
    ASSERT_NE(evaluated.searches, nullptr);
    EXPECT_GT(evaluated.evaluations, 0);
    EXPECT_EQ(evaluated.evaluations, evaluated.searches->evaluations);
    PointRecord record;
    evaluated.fill_record(record);
    EXPECT_FALSE(record.failure);
    EXPECT_EQ(record.evaluations, evaluated.evaluations) << "nothing searched again";
    EXPECT_TRUE(record.training_run);
    EXPECT_FALSE(record.results.empty());
}

TEST(Evaluators, TheCartesianArraySearchesNothing) {
    const Evaluator& cartesian = *find_evaluator("cartesian");
    const SmallRun run("gscn_4x64", "lenet", cartesian);
    EXPECT_TRUE(run.setup.training_run->mapspaces.empty()) << "PlanMapspaces::none";
    const RunSubject subject = run.subject();
    const EvaluatedRun evaluated = cartesian.evaluate({subject, run.settings, run.setup, 4, {}});
    ASSERT_TRUE(evaluated.costs);
    EXPECT_EQ(evaluated.costs->size(), run.setup.training_run->problems.size());
    EXPECT_EQ(evaluated.searches, nullptr);
    EXPECT_EQ(evaluated.evaluations, 0);
    PointRecord record;
    record.dataflow = "any";  // the caller's coordinates; the evaluator owns these
    evaluated.fill_record(record);
    EXPECT_EQ(record.dataflow, "cartesian");
    EXPECT_EQ(record.objective, "none");
    EXPECT_TRUE(record.training_run);
    EXPECT_FALSE(record.results.empty());
}

}  // namespace
}  // namespace trainloop
