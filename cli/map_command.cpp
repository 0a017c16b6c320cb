#include "map_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <limits>
#include <optional>

#include "arch/arch_model.hpp"
#include "arch/architecture_library.hpp"
#include "arch/pricing_notes.hpp"
#include "common/file_text.hpp"
#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"
#include "interruption.hpp"
#include "json_errors.hpp"
#include "map_export.hpp"
#include "map_options.hpp"
#include "map_progress.hpp"
#include "map_report.hpp"
#include "network/network_mapper.hpp"
#include "number_options.hpp"
#include "run/run_setup.hpp"
#include "sparse/mask_check.hpp"
#include "sweep/map_run_record.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

// The run's settings from map's options (run/run_settings.hpp): the same
// value a sweep point is mapped with.
RunSettings run_settings(const MapOptions& o) {
    RunSettings settings;
    settings.dataflow = parse_dataflow(o.dataflow);
    settings.bypass = !o.no_bypass;
    if (!o.constraints.empty()) {
        settings.constraints_file =
            ConstraintsFileInput{o.constraints, read_file_text(o.constraints)};
    }
    settings.search.objective = *objective_from_name(o.objective);
    settings.search.strategy = *strategy_from_name(o.search);
    settings.search.budget = o.budget;
    settings.search.patience = o.patience;
    settings.search.time_budget_seconds = o.time_budget;
    settings.search.seed = o.seed;
    settings.phases = selected_phases(o.phase);
    settings.iteration = o.sparsity.iteration_or_final();
    return settings;
}

void run_map(const MapOptions& o) {
    const RunSettings settings = run_settings(o);
    if (o.budget == 0 && o.search != "exhaustive" && o.time_budget <= 0) {
        throw SpecError({}, "--budget",
                        "--budget 0 (no limit) never ends a random or anneal search",
                        "a positive number of evaluations per layer-phase",
                        "--budget 0 goes with --search exhaustive or --time-budget SECONDS");
    }
    const std::filesystem::path arch_file = resolve_architecture(o.arch);
    const ArchitectureSpec spec = load_architecture_spec(arch_file);
    const Architecture& arch = spec.arch;
    const ArchModel model = build_arch_model(arch);
    for (const std::string& note : pricing_notes(arch)) std::cerr << "note: " << note << "\n";
    // The constraints first: a bad constraints file fails before the network is read.
    const MappingConstraints constraints =
        merged_constraints(arch, spec.constraints, settings.constraints_file);
    check_dataflow_against_constraints({settings.dataflow, settings.bypass, constraints});
    const Network network = load_network(o.workload);
    const NetworkTraining training = derive_training_problems(network, o.batch);
    std::optional<SparsityProfile> sparsity;
    if (!o.sparsity.profile.empty()) {
        sparsity = load_sparsity_profile_named(o.sparsity.profile);
        check_masks_against(*sparsity, network.name(), training);
    }
    const RunSetup setup = set_up_run(
        {arch, spec.constraints, model, network.name(), training, sparsity ? &*sparsity : nullptr},
        settings, usable_threads(o.threads));
    const NetworkMapPlan& plan = setup.plan;
    if (plan.layer_phases.empty()) {
        throw SpecError({}, "--phase",
                        fmt::format("{} has no {} phase to map", network.name(), o.phase),
                        "a phase some MAC layer has");
    }
    check_export_target(o, training, plan);

    const bool json = o.format == "json";
    NetworkMapResult empty;
    MapRun preview{o,
                   arch,
                   model,
                   network,
                   training,
                   plan,
                   empty,
                   settings.dataflow,
                   setup.constraints,
                   !spec.constraints.empty()};
    if (!json) {
        std::cout << constraints_line(preview) << mapspace_line(preview) << std::flush;
    } else if (!o.quiet) {
        std::cerr << constraints_line(preview) << mapspace_line(preview);
    }

    // Opened before the search, so a locked or broken database fails fast.
    std::optional<ResultsStore> store;
    if (!o.db.empty()) store.emplace(ResultsStore::open_for_writing(o.db));
    set_interruption_note(
        o.db.empty() ? std::string("Nothing was written.")
                     : fmt::format("Nothing was written to {} (map writes its results in one "
                                   "transaction after every layer is mapped).",
                                   o.db),
        "Rerun:", true);
    MapProgress progress(!o.quiet, setup.options.search.objective);
    const NetworkMapResult result =
        map_network(model, training, plan, setup.options,
                    [&progress](const NetworkMapProgress& p) { progress.update(p); });
    progress.finish();

    const MapRun run{o,
                     arch,
                     model,
                     network,
                     training,
                     plan,
                     result,
                     settings.dataflow,
                     setup.constraints,
                     !spec.constraints.empty()};
    if (result.failure) throw_no_mapping(run);
    if (json) {
        std::cout << json_text(map_to_json(run)) << "\n";
        if (!o.quiet) std::cerr << summary_line(run);
    } else {
        std::cout << "\n" << map_to_text(run);
    }
    if (!o.export_to.empty()) export_all(run, json ? std::cerr : std::cout);
    if (store) {
        write_map_run(*store,
                      {arch_file.string(), o.workload, o.batch, o.sparsity.profile, settings}, arch,
                      model, network, training, plan, result);
        (json ? std::cerr : std::cout) << fmt::format("results written to {}\n", o.db);
    }
}

}  // namespace

void add_map_command(CLI::App& app) {
    auto o = std::make_shared<MapOptions>();
    CLI::App* map = app.add_subcommand(
        "map",
        "Find the best mapping of every MAC layer's training phases (fw, bw, wu) of a network "
        "on an architecture; report each with its cycles and energy, and the totals per phase "
        "and per training step. Layer-phases with the same problem (iteration space, stride, "
        "dilation, phase, and with --sparsity the densities) are searched once.");
    map->add_option("--arch,-a", o->arch,
                    "Shipped architecture name (arch_specs/) or architecture YAML file")
        ->required();
    map->add_option("--workload,-w", o->workload, "Shipped network name or network YAML file")
        ->required();
    map->add_option("--batch,-b", o->batch, "Minibatch size N")
        ->default_val(kDefaultBatch)
        ->transform(count_from(1));
    map->add_option("--phase,-p", o->phase, "Training phase(s) to map")
        ->default_val("all")
        ->check(CLI::IsMember({"fw", "bw", "wu", "all"}));
    map->add_option("--dataflow,-d", o->dataflow,
                    "Dimensions across the PE array's columns and rows, X,Y: C,K K,N P,Q C,N (two "
                    "letters split an axis, e.g. KC,N; K and C are a layer's channels, so a "
                    "grouped or depthwise layer's groups G join their axis unless G is named), or "
                    "`any` to let the mapper choose")
        ->default_val("any");
    map->add_option("--objective", o->objective, "What the best mapping minimizes")
        ->default_val("edp")
        ->check(CLI::IsMember(objective_names()));
    map->add_option("--search", o->search, "Search strategy")
        ->default_val("anneal")
        ->check(CLI::IsMember(strategy_names()));
    map->add_option("--budget", o->budget,
                    "Evaluations per distinct layer-phase problem (0: no limit; exhaustive: the "
                    "whole mapspace)")
        ->default_val(SearchBudget{}.max_evaluations)
        ->transform(count_from(0));
    map->add_option("--time-budget", o->time_budget,
                    "Seconds for the whole network, shared out over the problems still to search "
                    "(0: none; results then depend on the machine)")
        ->default_val(0)
        ->transform(finite_number_in(0, 1e9));
    map->add_option("--patience", o->patience,
                    "Stop a search after this many evaluations without improvement (0: never)")
        ->default_val(0)
        ->transform(count_from(0));
    map->add_option("--threads,-j", o->threads,
                    "Worker threads (0: all cores; more than the machine has are capped)")
        ->default_val(0)
        ->transform(integer_in(0, std::numeric_limits<int>::max()));
    map->add_option("--seed", o->seed, "Random seed (same seed, same result)")
        ->default_val(1)
        ->transform(unsigned_integer());
    map->add_flag("--no-bypass", o->no_bypass,
                  "Every level keeps every tensor it may hold (do not explore bypass; a "
                  "constraint's required bypasses still apply)");
    map->add_option("--constraints", o->constraints,
                    "Mapping constraints YAML (fixed spatial dimensions and factors, factor "
                    "bounds, loop orders, keep/bypass; docs/mapping_constraints.md). They add to "
                    "the architecture's `constraints:` and override its entries one by one")
        ->check(CLI::ExistingFile);
    add_sparsity_profile_options(map, o->sparsity);
    map->add_option("--format,-f", o->format, "Output format")
        ->default_val("text")
        ->check(CLI::IsMember({"text", "json"}));
    map->add_option("--export", o->export_to,
                    "`--export timeloop DIR`: write each layer-phase's best mapping as "
                    "timeloop-model's inputs into DIR/<layer>_<phase>/")
        ->expected(2);
    map->add_flag("--force", o->force, "With --export: overwrite files that already exist");
    map->add_flag("--quiet,-q", o->quiet, "No progress on standard error");
    map->add_option("--db", o->db,
                    "Also write the results to this SQLite results database (created when "
                    "missing; docs/results_db.md)");
    map->callback([o] { run_reporting_errors(o->format, [o] { run_map(*o); }); });
}

}  // namespace trainloop::cli
