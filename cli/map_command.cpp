#include "map_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
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
#include "map_export.hpp"
#include "map_options.hpp"
#include "map_progress.hpp"
#include "map_report.hpp"
#include "map_search_options.hpp"
#include "network/network_mapper.hpp"
#include "number_options.hpp"
#include "reporting_errors.hpp"
#include "run/run_setup.hpp"
#include "run_inputs.hpp"
#include "sparse/mask_check.hpp"
#include "sparsity_command_options.hpp"
#include "sweep/map_run_record.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

void run_map(const MapOptions& o) {
    const RunSettings settings = run_settings(o);
    check_search_ends(o);
    const RunInputs inputs = read_run_inputs(o, settings);
    const Architecture& arch = inputs.arch();
    const ArchModel& model = inputs.model;
    const Network& network = *inputs.network;
    const NetworkTraining& training = inputs.training;
    const ArchitectureSpec& spec = inputs.spec;
    const RunSetup setup = inputs.set_up(settings, o.threads);
    const NetworkMapPlan& plan = setup.plan;
    check_something_to_map(inputs, plan.layer_phases.size(), o.phase);
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
        write_map_run(
            *store, {inputs.arch_file.string(), o.workload, o.batch, o.sparsity.profile, settings},
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
