#include "train_cost_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <optional>
#include <stdexcept>

#include "arch/arch_model.hpp"
#include "arch/pricing_notes.hpp"
#include "common/count_format.hpp"
#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"
#include "constraints/constraints_parser.hpp"
#include "json_errors.hpp"
#include "map_options.hpp"
#include "map_report.hpp"
#include "map_search_options.hpp"
#include "progress_bar.hpp"
#include "sparse/mask_check.hpp"
#include "sweep/map_run_record.hpp"
#include "train_cost_report.hpp"
#include "training_run/training_run.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

void run_train_cost(const TrainCostOptions& t) {
    const MapOptions& o = t.map;
    const std::optional<Dataflow> dataflow = parse_dataflow(o.dataflow);
    if (o.budget == 0 && o.search != "exhaustive" && o.time_budget <= 0) {
        throw SpecError({}, "--budget",
                        "--budget 0 (no limit) never ends a random or anneal search",
                        "a positive number of evaluations per distinct problem",
                        "--budget 0 goes with --search exhaustive or --time-budget SECONDS");
    }
    const ArchitectureSpec spec = load_architecture_spec(o.arch);
    const Architecture& arch = spec.arch;
    const ArchModel model = build_arch_model(arch);
    for (const std::string& note : pricing_notes(arch)) std::cerr << "note: " << note << "\n";
    MappingConstraints constraints = spec.constraints;
    if (!o.constraints.empty()) {
        constraints = merge_constraints(
            constraints,
            load_constraints_file(o.constraints, arch.levels, arch.pe_array).constraints);
        check_constraints_consistent(constraints);
    }
    const MapspaceConstraints mapspace{dataflow, !o.no_bypass, constraints};
    check_dataflow_against_constraints(mapspace);
    const Network network = load_network(o.workload);
    const NetworkTraining training = derive_training_problems(network, o.batch);
    const SparsityProfile sparsity = load_sparsity_profile_named(o.sparsity.profile);
    check_masks_against(sparsity, network.name(), training);

    const TrainingRunPlan plan =
        plan_training_run(model, training, selected_phases(o.phase), mapspace, sparsity,
                          network.name(), t.iterations, t.samples);
    if (plan.layer_phases.empty()) {
        throw SpecError({}, "--phase",
                        fmt::format("{} has no {} phase to map", network.name(), o.phase),
                        "a phase some MAC layer has");
    }
    const NetworkMapPlan map_plan = as_network_plan(plan);

    NetworkMapOptions options;
    options.search.objective = *objective_from_name(o.objective);
    options.search.strategy = *strategy_from_name(o.search);
    options.search.budget.max_evaluations = o.budget;
    options.search.budget.patience = o.patience;
    options.search.seed = o.seed;
    options.search.threads = o.threads;
    options.time_budget_seconds = o.time_budget;

    // Opened before the search, so a locked or broken database fails fast.
    std::optional<ResultsStore> store;
    if (!o.db.empty()) store.emplace(ResultsStore::open_for_writing(o.db));
    if (!o.quiet) {
        std::cerr << fmt::format(
            "train-cost: {} samples over {} iterations; {} distinct problems to map ({} in the "
            "samples, the rest for the dense baseline)\n",
            plan.samples.size(), group_thousands(t.iterations), plan.problems.size(),
            plan.sparse_states());
    }
    ProgressBar bar("train-cost", "problems", !o.quiet, 5.0, false);
    bar.start();
    const NetworkMapResult result =
        map_network(model, training, map_plan, options, [&bar](const NetworkMapProgress& p) {
            bar.update(std::int64_t(p.problems_done), std::int64_t(p.problems_total), p.seconds,
                       fmt::format("{} evaluations", si_count(double(p.evaluations))),
                       p.fraction_done);
        });
    bar.finish();

    const std::optional<std::vector<ProblemCost>> costs = problem_costs(result);
    if (!costs) {
        const MapRun run{o,        arch,   model,    network,     training,
                         map_plan, result, dataflow, constraints, !spec.constraints.empty()};
        throw_no_mapping(run);
    }
    TrainingRunCost cost;
    try {
        cost = integrate_training_run(plan, *costs);
    } catch (const std::overflow_error& e) {
        throw SpecError({}, "--iterations", e.what(),
                        "a run whose total cycles fit in 64 bits (about 9.2e18)",
                        "fewer iterations, or a smaller --batch");
    }
    const TrainCostRun run{t, arch, network, plan, cost, result.evaluations, dataflow};
    if (o.format == "json") {
        std::cout << train_cost_to_json(run).dump(2) << "\n";
    } else {
        std::cout << train_cost_to_text(run);
    }
    if (store) {
        write_train_cost_run(*store,
                             {o.arch, o.workload, o.batch, selected_phases(o.phase),
                              dataflow ? to_string(*dataflow) : "any", options.search.objective,
                              options.search.strategy, o.budget, o.seed, !o.no_bypass,
                              o.sparsity.profile, kFinalIteration},
                             {t.iterations, t.samples}, arch, model, network, training, plan,
                             result, cost);
        (o.format == "json" ? std::cerr : std::cout)
            << fmt::format("results written to {}\n", o.db);
    }
}

}  // namespace

void add_train_cost_command(CLI::App& app) {
    auto t = std::make_shared<TrainCostOptions>();
    CLI::App* cmd = app.add_subcommand(
        "train-cost",
        "The time and energy of a whole training run: integrate one training iteration's cost "
        "(fw, bw and wu of every MAC layer, as `map` reports a step) over a sparsity profile's "
        "density schedules from iteration 0 to --iterations, and compare with dense training "
        "on the same architecture. Where every schedule is piecewise constant the integral is "
        "exact (one sample per piece, weighted by its length); linear ramps share --samples "
        "samples (midpoint rule). Each distinct problem (iteration space, phase, densities) is "
        "mapped once over the whole run.");
    add_mapping_search_options(cmd, t->map);
    cmd->add_option("--sparsity,-s", t->map.sparsity.profile,
                    "Sparsity profile with the density schedules: a shipped name (procrustes, "
                    "dense, ...) or a profile YAML file (docs/sparsity_format.md)")
        ->required();
    cmd->add_option("--iterations,-n", t->iterations,
                    "Training iterations (minibatches) of the run: iterations 0 to N-1")
        ->required()
        ->check(CLI::PositiveNumber);
    cmd->add_option("--samples", t->samples,
                    "Samples shared by the parts of the run where some density ramps linearly "
                    "(constant pieces take one exact sample each)")
        ->default_val(t->samples)
        ->check(CLI::PositiveNumber);
    cmd->add_option("--format,-f", t->map.format, "Output format")
        ->default_val("text")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_flag("--quiet,-q", t->map.quiet, "No progress on standard error");
    cmd->add_option("--db", t->map.db,
                    "Also write the run to this SQLite results database (created when missing; "
                    "its totals in training_runs, the last sample's layers as a point's "
                    "results: docs/training_run.md)");
    cmd->callback([t] { run_reporting_errors(t->map.format, [t] { run_train_cost(*t); }); });
}

}  // namespace trainloop::cli
