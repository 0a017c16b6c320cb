#include "map_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "arch/arch_model.hpp"
#include "arch/pricing_notes.hpp"
#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"
#include "constraints/constraints_parser.hpp"
#include "json_errors.hpp"
#include "map_export.hpp"
#include "map_options.hpp"
#include "map_progress.hpp"
#include "map_report.hpp"
#include "map_search_options.hpp"
#include "network/network_mapper.hpp"
#include "sparse/mask_check.hpp"
#include "sweep/map_run_record.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

void run_map(const MapOptions& o) {
    const std::optional<Dataflow> dataflow = parse_dataflow(o.dataflow);
    if (o.budget == 0 && o.search != "exhaustive" && o.time_budget <= 0) {
        throw SpecError({}, "--budget",
                        "--budget 0 (no limit) never ends a random or anneal search",
                        "a positive number of evaluations per layer-phase",
                        "--budget 0 goes with --search exhaustive or --time-budget SECONDS");
    }
    const ArchitectureSpec spec = load_architecture_spec(o.arch);
    const Architecture& arch = spec.arch;
    const ArchModel model = build_arch_model(arch);
    for (const std::string& note : pricing_notes(arch)) std::cerr << "note: " << note << "\n";
    // The file's constraints add to the architecture's, or override them
    // entry by entry (docs/mapping_constraints.md).
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
    std::optional<SparsityProfile> sparsity;
    if (!o.sparsity.profile.empty()) {
        sparsity = load_sparsity_profile_named(o.sparsity.profile);
        check_masks_against(*sparsity, network.name(), training);
    }
    const NetworkMapPlan plan = plan_network_mapping(
        model, training, selected_phases(o.phase), mapspace, sparsity ? &*sparsity : nullptr,
        network.name(), o.sparsity.iteration_or_final());
    if (plan.layer_phases.empty()) {
        throw SpecError({}, "--phase",
                        fmt::format("{} has no {} phase to map", network.name(), o.phase),
                        "a phase some MAC layer has");
    }
    check_export_target(o, training, plan);

    const bool json = o.format == "json";
    NetworkMapResult empty;
    MapRun preview{o,    arch,  model,    network,     training,
                   plan, empty, dataflow, constraints, !spec.constraints.empty()};
    if (!json) {
        std::cout << constraints_line(preview) << mapspace_line(preview) << std::flush;
    } else if (!o.quiet) {
        std::cerr << constraints_line(preview) << mapspace_line(preview);
    }

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
    MapProgress progress(!o.quiet, options.search.objective);
    const NetworkMapResult result =
        map_network(model, training, plan, options,
                    [&progress](const NetworkMapProgress& p) { progress.update(p); });
    progress.finish();

    const MapRun run{o,    arch,   model,    network,     training,
                     plan, result, dataflow, constraints, !spec.constraints.empty()};
    if (result.failure) throw_no_mapping(run);
    if (json) {
        std::cout << map_to_json(run).dump(2) << "\n";
        if (!o.quiet) std::cerr << summary_line(run);
    } else {
        std::cout << "\n" << map_to_text(run);
    }
    if (!o.export_to.empty()) export_all(run, json ? std::cerr : std::cout);
    if (store) {
        write_map_run(*store,
                      {o.arch, o.workload, o.batch, selected_phases(o.phase),
                       dataflow ? to_string(*dataflow) : "any", options.search.objective,
                       options.search.strategy, o.budget, o.seed, !o.no_bypass, o.sparsity.profile,
                       o.sparsity.iteration_or_final()},
                      arch, model, network, training, plan, result);
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
    add_mapping_search_options(map, *o);
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
