#include "train_cost_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch_model.hpp"
#include "arch/architecture_library.hpp"
#include "arch/pricing_notes.hpp"
#include "common/count_format.hpp"
#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"
#include "evaluator/evaluators.hpp"
#include "interruption.hpp"
#include "map_options.hpp"
#include "map_report.hpp"
#include "map_search_options.hpp"
#include "number_options.hpp"
#include "progress_bar.hpp"
#include "reporting_errors.hpp"
#include "run/run_setup.hpp"
#include "run_inputs.hpp"
#include "sparse/mask_check.hpp"
#include "sweep/map_run_record.hpp"
#include "train_cost_report.hpp"
#include "training_run/training_run.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

// The evaluator's located refusal of an architecture it cannot run.
void check_evaluator_runs(const Evaluator& evaluator, const RunInputs& inputs) {
    const std::optional<ArchitectureGap> gap = evaluator.unsupported(inputs.arch());
    if (!gap) return;
    throw SpecError(
        {inputs.arch_file.string()}, gap->section,
        fmt::format("architecture '{}' has no `{}:` section, so --evaluator {} has no "
                    "{} to evaluate",
                    inputs.arch().name, gap->section, evaluator.name(), gap->missing),
        fmt::format("an architecture with a `{}:` section (docs/arch_format.md), e.g. {}",
                    gap->section, gap->example),
        fmt::format("--evaluator {} (the default) searches loop-nest mappings",
                    default_evaluator().name()));
}

void run_train_cost(const TrainCostOptions& t) {
    const MapOptions& o = t.map;
    const Evaluator& evaluator = *t.evaluator;
    RunSettings settings = run_settings(o);
    settings.training_run = TrainingRunLength{t.iterations, t.samples};
    settings.cartesian_zeros = t.zeros.value_or(CartesianZeros::expected);
    check_search_ends(o);
    if (t.zeros && !evaluator.places_zeros()) {
        throw SpecError({}, "--zeros", "--zeros without --evaluator cartesian",
                        "--zeros with --evaluator cartesian",
                        fmt::format("{} takes the profile's density models "
                                    "(docs/sparsity_format.md)",
                                    evaluator.title()));
    }
    const RunInputs inputs = read_run_inputs(o, settings);  // --sparsity is required
    check_evaluator_runs(evaluator, inputs);
    const Architecture& arch = inputs.arch();
    const ArchModel& model = inputs.model;
    const Network& network = *inputs.network;
    const NetworkTraining& training = inputs.training;
    const RunSubject subject = inputs.subject();
    const RunSetup setup = inputs.set_up(settings, o.threads, evaluator.mapspaces());
    const TrainingRunPlan& plan = *setup.training_run;
    check_something_to_map(inputs, plan.layer_phases.size(), o.phase);

    // Opened before the search, so a locked or broken database fails fast.
    std::optional<ResultsStore> store;
    if (!o.db.empty()) store.emplace(ResultsStore::open_for_writing(o.db));
    set_interruption_note(
        o.db.empty() ? std::string("Nothing was written.")
                     : fmt::format("Nothing was written to {} (train-cost writes the run in one "
                                   "transaction after every problem is mapped).",
                                   o.db),
        "Rerun:", true);
    if (!o.quiet) {
        std::cerr << fmt::format(
            "train-cost: {} sample{} over {} iterations; {} distinct problems to {} ({} in the "
            "samples, the rest for the dense baseline)\n",
            plan.samples.size(), plan.samples.size() == 1 ? "" : "s", group_thousands(t.iterations),
            plan.problems.size(), evaluator.searches_mappings() ? "map" : "evaluate",
            plan.sparse_states());
    }
    // Progress is the searches'; an evaluator that searches nothing has none to show.
    ProgressBar bar("train-cost", "problems", !o.quiet && evaluator.searches_mappings(), 5.0,
                    false);
    bar.start();
    const EvaluatedRun evaluated = evaluator.evaluate(
        {subject, settings, setup, o.batch, [&bar](const NetworkMapProgress& p) {
             bar.update(std::int64_t(p.problems_done), std::int64_t(p.problems_total), p.seconds,
                        fmt::format("{} evaluations", si_count(double(p.evaluations))),
                        p.fraction_done);
         }});
    bar.finish();
    if (!evaluated.costs) {
        const MapRun run{o,
                         arch,
                         model,
                         network,
                         training,
                         setup.plan,
                         *evaluated.searches,
                         settings.dataflow,
                         setup.constraints,
                         !inputs.spec.constraints.empty()};
        throw_no_mapping(run);
    }
    TrainingRunCost cost;
    try {
        cost = integrate_training_run(plan, *evaluated.costs);
    } catch (const std::overflow_error& e) {
        throw SpecError({}, "--iterations", e.what(),
                        "a run whose total cycles fit in 64 bits (about 9.2e18)",
                        "fewer iterations, or a smaller --batch");
    }
    const TrainCostRun run{
        t, settings, arch, network, plan, cost, evaluated.evaluations, settings.dataflow};
    if (o.format == "json") {
        std::cout << json_text(train_cost_to_json(run)) << "\n";
    } else {
        std::cout << train_cost_to_text(run);
    }
    if (store) {
        const MapRunInputs stored{inputs.arch_file.string(), o.workload, o.batch,
                                  o.sparsity.profile, settings};
        write_train_cost_run(*store, stored, evaluator, arch, model, network, evaluated);
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
        ->transform(count_from(1));
    cmd->add_option("--samples", t->samples,
                    "Samples shared by the parts of the run where some density ramps linearly "
                    "(constant pieces take one exact sample each)")
        ->default_val(t->samples)
        ->transform(integer_in(1, kMaxRunSamples));
    std::string evaluator_help;
    for (const Evaluator* e : evaluators()) {
        if (!evaluator_help.empty()) evaluator_help += "; ";
        evaluator_help += fmt::format("{}: {}", e->name(), e->help());
    }
    cmd->add_option_function<std::string>(
           "--evaluator",
           [t](const std::string& name) {  // one of the registry's names: checked below
               if (const Evaluator* e = find_evaluator(name)) t->evaluator = e;
           },
           evaluator_help)
        ->default_str(std::string(t->evaluator->name()))
        ->check(CLI::IsMember(evaluator_names()));
    cmd->add_option_function<std::string>(
           "--zeros",
           [t](const std::string& name) {
               t->zeros = cartesian_zeros_from_name(name);  // one of the names: checked below
           },
           "With --evaluator cartesian: expected (default): every PE holds the expected count of "
           "nonzeros of its share; random: zeros fall independently, so at each (sample, channel) "
           "step the PEs wait for the one that drew the most (as the `cartesian` command's "
           "--zeros)")
        ->check(CLI::IsMember(kCartesianZerosNames));
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
