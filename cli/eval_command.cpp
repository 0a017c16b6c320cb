#include "eval_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>

#include "arch/pricing_notes.hpp"
#include "eval/evaluation_json.hpp"
#include "eval_report.hpp"
#include "mapping_overrides.hpp"
#include "reporting_errors.hpp"
#include "sparse/mask_check.hpp"
#include "sparse/phase_densities.hpp"
#include "sparsity_command_options.hpp"
#include "spec/mapping_case.hpp"
#include "stored_case.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop::cli {
namespace {

struct EvalOptions {
    std::string mapping;
    std::string arch;
    std::string workload;
    std::string layer;
    std::string phase;
    std::optional<std::int64_t> batch;
    std::vector<std::string> timeloop;
    std::string db;
    std::optional<std::int64_t> point;
    std::string format = "text";
    SparsityOptions sparsity;
};

// timeloop-model's own inputs: read, convert, evaluate, and report with
// Timeloop's level names and Weights/Inputs/Outputs.
void run_timeloop_eval(const EvalOptions& o) {
    const TimeloopSpec spec = read_timeloop_spec(o.timeloop);
    for (const std::string& note : spec.notes) std::cerr << "note: " << note << "\n";
    const TimeloopCase c = import_timeloop(spec);
    for (const std::string& note : c.notes) std::cerr << "note: " << note << "\n";
    const ArchModel model = build_arch_model(c.arch);
    const Evaluation e = c.sparse() ? evaluate(model, c.problem, c.mapping, c.densities,
                                               o.sparsity.imbalance_options())
                                    : evaluate(model, c.problem, c.mapping);
    if (!e.valid()) {
        const MappingViolation& v = *e.violation;
        SourceLocation where{o.timeloop.front(), 0, 0};
        for (const TimeloopMappingEntry& entry : spec.mapping) {
            if (v.level >= 0 && entry.target == c.arch.levels[std::size_t(v.level)].name) {
                where = entry.location;
                break;
            }
        }
        throw SpecError(where, "mapping",
                        fmt::format("invalid mapping ({}): {}", violation_kind_name(v.kind),
                                    describe(v, c.arch, c.problem)),
                        "a mapping that fits the problem and the architecture");
    }
    if (o.format == "json") {
        std::cout << json_text(evaluation_to_json(e, c.arch, model, c.problem, c.mapping,
                                                  kTimeloopSpaceNames))
                  << "\n";
    } else {
        std::cout << evaluation_to_text(e, c.arch, model, c.problem, c.mapping);
    }
}

// A stored result evaluated again: the point's specs, batch, profile and
// density iteration from the database (stored_case.hpp).
void run_stored_eval(const EvalOptions& o) {
    if (!o.point || o.layer.empty() || o.phase.empty()) {
        throw SpecError({}, "--db", "--db needs --point, --layer and --phase",
                        "--db FILE --point ID --layer NAME --phase fw|bw|wu");
    }
    if (!o.sparsity.profile.empty() || o.sparsity.iteration || !o.arch.empty() ||
        !o.workload.empty() || o.batch) {
        throw SpecError({}, "--db",
                        "--db takes the architecture, network, batch, sparsity profile and "
                        "iteration from the stored point",
                        "no --arch, --workload, --batch, --sparsity or --iteration with --db");
    }
    const StoredCase c = load_stored_case(o.db, *o.point, o.layer, o.phase);
    check_masks_against(c.profile, c.network->name(), c.training);
    const PhaseDensities densities = phase_densities(c.profile, c.network->name(), c.problem->layer,
                                                     c.problem->phase, c.iteration);
    const Evaluation e =
        evaluate(c.model, *c.problem, c.mapping, densities, o.sparsity.imbalance_options());
    if (!e.valid()) {
        throw SpecError({o.db, 0, 0}, "--point",
                        fmt::format("the stored mapping is not valid on the stored "
                                    "architecture ({})",
                                    describe(*e.violation, c.arch, *c.problem)),
                        "a database written by this trainloop's model");
    }
    if (o.format == "json") {
        std::cout << json_text(evaluation_to_json(e, c.arch, c.model, *c.problem, c.mapping))
                  << "\n";
    } else {
        std::cout << evaluation_to_text(e, c.arch, c.model, *c.problem, c.mapping);
    }
}

void run_eval(const EvalOptions& o) {
    if (!o.timeloop.empty()) return run_timeloop_eval(o);
    if (!o.db.empty()) return run_stored_eval(o);
    if (o.mapping.empty()) {
        throw SpecError(
            {}, "--mapping", "no mapping given",
            "`--mapping FILE` (YAML, JSON or one-line form), `--db FILE --point ID`, or "
            "`--timeloop FILE...` with timeloop-model's inputs");
    }
    const MappingCase c = load_mapping_argument(o.mapping, mapping_overrides(o));
    for (const std::string& note : pricing_notes(c.arch)) std::cerr << "note: " << note << "\n";
    std::optional<PhaseDensities> densities;
    if (!o.sparsity.profile.empty()) {
        const SparsityProfile profile = load_sparsity_profile_named(o.sparsity.profile);
        check_masks_against(profile, c.network->name(), c.training);
        densities = phase_densities(profile, c.network->name(), c.problem->layer, c.problem->phase,
                                    o.sparsity.iteration_or_final());
    }
    const Evaluation e =
        densities ? evaluate_case(c, *densities, o.sparsity.imbalance_options()) : evaluate_case(c);
    if (o.format == "json") {
        std::cout << json_text(evaluation_to_json(e, c.arch, c.arch_model, *c.problem, c.mapping))
                  << "\n";
    } else {
        std::cout << evaluation_to_text(e, c.arch, c.arch_model, *c.problem, c.mapping);
    }
}

}  // namespace

void add_eval_command(CLI::App& app) {
    auto o = std::make_shared<EvalOptions>();
    CLI::App* eval = app.add_subcommand(
        "eval",
        "Evaluate one mapping of one layer's training phase: accesses per level, latency with "
        "its bottleneck, energy by component/tensor/action, area; with --sparsity, the sparse "
        "evaluation (skipping, gating, compressed formats, load imbalance).\nOptions not given "
        "are taken from the mapping file's `for:` block (or, for `map --format json` output, "
        "from its arch, network and batch).");
    CLI::Option* mapping =
        eval->add_option("--mapping,-m", o->mapping,
                         "The mapping: a file in any form trainloop prints (YAML, JSON, the "
                         "one-line form; recognised by content; docs/mapping_format.md), or a "
                         "one-line mapping given inline. From `map --format json` output, "
                         "--layer and --phase pick the layer-phase");
    eval->add_option("--timeloop", o->timeloop,
                     "timeloop-model's input files (architecture v0.3, problem, mapping, ERT, "
                     "ART), merged by top-level key; reported with Timeloop's level names and "
                     "Weights/Inputs/Outputs")
        ->check(CLI::ExistingFile)
        ->excludes(mapping);
    CLI::Option* db =
        eval->add_option("--db", o->db,
                         "Evaluate a stored result again: the results database (with --point, "
                         "--layer, --phase); specs, batch, profile and iteration are the "
                         "point's")
            ->excludes(mapping);
    eval->add_option("--point", o->point, "Point id in the --db database (points.id)")->needs(db);
    add_mapping_override_options(eval, *o);
    add_sparsity_profile_options(eval, o->sparsity);
    add_imbalance_options(eval, o->sparsity);
    eval->add_option("--format,-f", o->format, "Output format")
        ->default_val("text")
        ->check(CLI::IsMember({"text", "json"}));
    eval->callback([o] { run_reporting_errors(o->format, [o] { run_eval(*o); }); });
}

}  // namespace trainloop::cli
