// The whole-run cost: a piecewise-constant schedule integrated exactly (equal
// to a hand sum of `map`'s step totals at each piece), each distinct density
// state mapped once, the dense profile costing what dense training costs, and
// the MACs removed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "arch/architecture_parser.hpp"
#include "density/sparsity_profile.hpp"
#include "network/network_mapper.hpp"
#include "training_run/training_run.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

struct Fixture {
    Architecture arch = load_architecture(std::string(TRAINLOOP_SOURCE_DIR) +
                                          "/arch_specs/procrustes_sparse_16x16.yaml");
    ArchModel model = build_arch_model(arch);
    Network network = load_network("mlp_mnist");
    NetworkTraining training = derive_training_problems(network, kDefaultBatch);
    MapspaceConstraints constraints{parse_dataflow("K,N"), true, {}};
    std::vector<Phase> phases{kAllPhases.begin(), kAllPhases.end()};

    NetworkMapOptions options() const {
        NetworkMapOptions o;
        o.search.strategy = SearchStrategy::random;
        o.search.budget.max_evaluations = 300;
        o.search.threads = 1;
        return o;
    }
};

SparsityProfile profile(const std::string& name, const std::string& rules) {
    const std::string path = ::testing::TempDir() + name + ".yaml";
    std::ofstream(path) << "sparsity_profile: " << name << "\nrules:\n" << rules;
    return load_sparsity_profile(path);
}

// Weights pruned in steps: 1.0, then 0.5 from 100, 0.25 from 300, and back
// to 0.5 from 400 (a state met twice).
const std::string kStepRules =
    "  - tensors: w\n"
    "    schedule:\n"
    "      interpolation: step\n"
    "      points: [{iteration: 0, density: 1.0}, {iteration: 100, density: 0.5},\n"
    "               {iteration: 300, density: 0.25}, {iteration: 400, density: 0.5}]\n";

std::vector<ProblemCost> map_costs(const Fixture& f, const TrainingRunPlan& plan,
                                   std::size_t* searches = nullptr) {
    const NetworkMapResult result =
        map_network(f.model, f.training, as_network_plan(plan), f.options());
    if (searches != nullptr) *searches = result.searches.size();
    const auto costs = problem_costs(result);
    EXPECT_TRUE(costs.has_value());
    return costs.value_or(std::vector<ProblemCost>{});
}

// `map`'s step total at one iteration, found independently of the run plan.
CostTotal map_step(const Fixture& f, const SparsityProfile* p, std::int64_t iteration) {
    const NetworkMapPlan plan = plan_network_mapping(f.model, f.training, f.phases, f.constraints,
                                                     p, "mlp_mnist", iteration);
    return map_network(f.model, f.training, plan, f.options()).step;
}

TEST(TrainingRun, PiecewiseConstantScheduleEqualsTheHandSum) {
    const Fixture f;
    const SparsityProfile p = profile("steps", kStepRules);
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 600, 16);
    ASSERT_EQ(plan.samples.size(), 4u);
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan));

    const CostTotal at0 = map_step(f, &p, 0), at100 = map_step(f, &p, 100),
                    at300 = map_step(f, &p, 300), at400 = map_step(f, &p, 400);
    const std::int64_t cycles =
        100 * at0.cycles + 200 * at100.cycles + 100 * at300.cycles + 200 * at400.cycles;
    const double energy =
        100 * at0.energy_pj + 200 * at100.energy_pj + 100 * at300.energy_pj + 200 * at400.energy_pj;
    EXPECT_EQ(cost.total_cycles, cycles);
    EXPECT_NEAR(cost.total_energy_pj, energy, 1e-9 * energy);
    const CostTotal dense = map_step(f, nullptr, 0);
    EXPECT_EQ(cost.dense_total_cycles, 600 * dense.cycles);
    EXPECT_NEAR(cost.dense_total_energy_pj, 600 * dense.energy_pj, 1e-9 * 600 * dense.energy_pj);
    // The sparse architecture skips zero weights: pruning makes it faster.
    EXPECT_LT(at300.cycles, at100.cycles);
    EXPECT_LT(cost.total_cycles, cost.dense_total_cycles);
}

TEST(TrainingRun, APlanWithoutMapspacesHasTheSameProblemsAndSamples) {
    // What the Cartesian-product evaluator plans: nothing to search, so no mapspaces.
    const Fixture f;
    const SparsityProfile p = profile("steps_no_mapspaces", kStepRules);
    const TrainingRunPlan searched =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 600, 16);
    const TrainingRunPlan costed = plan_training_run(f.model, f.training, f.phases, f.constraints,
                                                     p, "mlp_mnist", 600, 16, PlanMapspaces::none);
    EXPECT_FALSE(searched.mapspaces.empty());
    EXPECT_TRUE(costed.mapspaces.empty());
    ASSERT_EQ(costed.problems.size(), searched.problems.size());
    for (std::size_t i = 0; i < costed.problems.size(); ++i) {
        EXPECT_TRUE(
            costed.problems[i].is(searched.problems[i].problem, searched.problems[i].densities));
        EXPECT_EQ(costed.problems[i].mapspace, 0u);
    }
    EXPECT_EQ(costed.sample_problems, searched.sample_problems);
    EXPECT_EQ(costed.layer_phase_macs, searched.layer_phase_macs);
}

TEST(TrainingRun, PhasesOnSeparateUnitsTakeTheSlowestPhasePerStep) {
    Fixture f;
    f.model.phase_units = PhaseUnits::separate;
    const SparsityProfile p = profile("steps_separate", kStepRules);
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 600, 16);
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan));
    const auto slowest_phase = [&](const SparsityProfile* profile, std::int64_t iteration) {
        const NetworkMapPlan one = plan_network_mapping(
            f.model, f.training, f.phases, f.constraints, profile, "mlp_mnist", iteration);
        const NetworkMapResult r = map_network(f.model, f.training, one, f.options());
        std::int64_t slowest = 0;
        for (Phase phase : kAllPhases) slowest = std::max(slowest, r.total(phase)->cycles);
        EXPECT_EQ(r.step.cycles, slowest) << "map's step, as the run's";
        return slowest;
    };
    EXPECT_EQ(cost.total_cycles, 100 * slowest_phase(&p, 0) + 200 * slowest_phase(&p, 100) +
                                     100 * slowest_phase(&p, 300) + 200 * slowest_phase(&p, 400));
    EXPECT_EQ(cost.dense_total_cycles, 600 * slowest_phase(nullptr, 0));
    // The energy still adds up every phase.
    const CostTotal shared = map_step(Fixture{}, nullptr, 0);
    EXPECT_NEAR(cost.dense_total_energy_pj, 600 * shared.energy_pj, 1e-9 * 600 * shared.energy_pj);
}

TEST(TrainingRun, EachDistinctStateIsMappedOnce) {
    const Fixture f;
    const SparsityProfile p = profile("steps_once", kStepRules);
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 600, 16);
    // mlp_mnist maps 5 layer-phases: fc1 fw and wu, fc2 fw, bw and wu, all
    // different problems. Densities 1.0, 0.5, 0.25 (0.5 again from 400):
    // w is read in fw and bw only, so the wu problems are the same in all
    // samples, and 3 states × 3 w-reading layer-phases + 2 wu problems.
    EXPECT_EQ(plan.sparse_states(), 3u * 3u + 2u);
    EXPECT_EQ(plan.problems.size(), plan.sparse_states() + 5u) << "plus the dense baseline";
    EXPECT_EQ(plan.sample_problems[1], plan.sample_problems[3]) << "iteration 400 = 100";
    std::size_t searches = 0;
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan, &searches));
    EXPECT_EQ(searches, plan.problems.size()) << "one search per distinct problem";
    std::size_t new_states = 0;
    for (const SampleCost& s : cost.samples) new_states += s.new_states;
    EXPECT_EQ(new_states, plan.sparse_states());
    EXPECT_EQ(cost.samples[3].new_states, 0u);
}

TEST(TrainingRun, DenseProfileCostsWhatDenseTrainingCosts) {
    Fixture f;
    // A dense architecture: with every density 1 the sparse evaluation is the dense one.
    f.arch = load_architecture(std::string(TRAINLOOP_SOURCE_DIR) +
                               "/arch_specs/procrustes_baseline_16x16.yaml");
    f.model = build_arch_model(f.arch);
    const SparsityProfile p = profile("no_rules", "  []\n");
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 1000, 16);
    ASSERT_EQ(plan.samples.size(), 1u);
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan));
    EXPECT_EQ(cost.total_cycles, cost.dense_total_cycles);
    EXPECT_DOUBLE_EQ(cost.speedup(), 1.0);
    EXPECT_DOUBLE_EQ(cost.energy_ratio(), 1.0);
    EXPECT_DOUBLE_EQ(cost.macs_removed_fraction(), 0.0);
}

TEST(TrainingRun, DenseDataOnCompressedFormatsPaysTheirMetadata) {
    // The baseline is the dense evaluation (no profile): an architecture that
    // compresses weights pays the formats' metadata even at density 1
    // (docs/sparse_evaluation.md), so a dense profile costs more energy there.
    const Fixture f;
    const SparsityProfile p = profile("no_rules_sparse_arch", "  []\n");
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 1000, 16);
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan));
    EXPECT_GT(cost.energy_ratio(), 1.0);
    EXPECT_DOUBLE_EQ(cost.macs_removed_fraction(), 0.0);
}

TEST(TrainingRun, MacsRemovedAreTheRunsZeroWeightMacs) {
    const Fixture f;
    const SparsityProfile p = profile("steps_macs", kStepRules);
    const TrainingRunPlan plan =
        plan_training_run(f.model, f.training, f.phases, f.constraints, p, "mlp_mnist", 600, 16);
    const TrainingRunCost cost = integrate_training_run(plan, map_costs(f, plan));
    // Only w is sparse, read by fw and bw (wu reads x and dy, both dense):
    // a fw or bw MAC is effectual with the weight density; iteration-weighted
    // mean density (100·1 + 200·0.5 + 100·0.25 + 200·0.5) / 600.
    const double mean_w = (100 * 1.0 + 200 * 0.5 + 100 * 0.25 + 200 * 0.5) / 600;
    double fw_bw = 0, all = 0;
    for (std::size_t i = 0; i < plan.layer_phases.size(); ++i) {
        const double macs = double(plan.layer_phase_macs[i]);
        all += macs;
        if (plan.layer_phases[i].phase != Phase::wu) fw_bw += macs;
    }
    EXPECT_NEAR(cost.macs_removed_fraction(), fw_bw * (1 - mean_w) / all, 1e-12);
    EXPECT_DOUBLE_EQ(cost.total_macs, 600 * all);
}

TEST(TrainingRun, IntegrationIsTheWeightedSumOfTheGivenCosts) {
    // A hand-made plan: two layer-phases, problems 0-1 dense, 2-3 sparse.
    TrainingRunPlan plan;
    plan.iterations = 10;
    plan.layer_phases = {{0, Phase::fw, 0}, {0, Phase::wu, 1}};
    plan.layer_phase_macs = {100, 200};
    plan.problems.resize(4);
    PhaseDensities half_w;
    half_w.spaces[DataSpace::weights].density = 0.4;
    plan.problems[2].densities = half_w;
    plan.problems[1].densities = PhaseDensities{};  // every density 1
    plan.samples = {{0, 0, 4, true}, {4, 4, 10, true}};
    plan.sample_problems = {{0, 1}, {2, 1}};
    // Off-chip words 100, 200, 50 and 990; workload spreads 0, 0, 0.3 and 0.9.
    const std::vector<ProblemCost> costs = {
        {10, 1.0, 100, {0.0}}, {20, 2.0, 200, {0.0}}, {5, 0.5, 50, {0.3}}, {99, 9.0, 990, {0.9}}};
    const TrainingRunCost c = integrate_training_run(plan, costs);
    EXPECT_EQ(c.total_cycles, 4 * (10 + 20) + 6 * (5 + 20));
    EXPECT_DOUBLE_EQ(c.total_energy_pj, 4 * 3.0 + 6 * 2.5);
    EXPECT_EQ(c.dense_total_cycles, 10 * 30);
    EXPECT_DOUBLE_EQ(c.dense_total_energy_pj, 30.0);
    EXPECT_DOUBLE_EQ(c.samples[1].step_effectual_macs, 0.4 * 100 + 200);
    EXPECT_DOUBLE_EQ(c.total_offchip_words, 4 * 300.0 + 6 * 250.0);
    EXPECT_DOUBLE_EQ(c.dense_total_offchip_words, 10 * 300.0);
    // The spread is weighted by effectual MACs: sample 1's fw (40 MACs at 0.3)
    // and wu (200 at 0); sample 0 has none.
    EXPECT_DOUBLE_EQ(c.samples[1].step_spread.partitioned, 40 * 0.3 / 240.0);
    EXPECT_DOUBLE_EQ(c.spread.partitioned, 6 * 40 * 0.3 / (4 * 300.0 + 6 * 240.0));
    EXPECT_DOUBLE_EQ(c.macs_removed_fraction(), 1.0 - (4 * 300.0 + 6 * 240.0) / 3000.0);
    EXPECT_EQ(c.sparse_states, 3u);
    EXPECT_EQ(c.samples[0].new_states, 2u);
    EXPECT_EQ(c.samples[1].new_states, 1u);
    EXPECT_THROW(integrate_training_run(plan, std::vector<ProblemCost>(3)), std::invalid_argument);
}

TEST(TrainingRun, CycleOverflowIsReportedNotWrapped) {
    TrainingRunPlan plan;
    plan.iterations = std::int64_t(1) << 40;
    plan.layer_phases = {{0, Phase::fw, 0}};
    plan.layer_phase_macs = {1};
    plan.problems.resize(1);
    plan.samples = {{0, 0, plan.iterations, true}};
    plan.sample_problems = {{0}};
    const std::vector<ProblemCost> costs = {{std::int64_t(1) << 30, 1.0, 0.0, {}}};
    EXPECT_THROW(integrate_training_run(plan, costs), std::overflow_error);
}

}  // namespace
}  // namespace trainloop
