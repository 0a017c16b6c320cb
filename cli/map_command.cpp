#include "map_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>

#include "arch/architecture_parser.hpp"
#include "common/count_format.hpp"
#include "constraints/constraints_parser.hpp"
#include "duration_text.hpp"
#include "eval/arch_model.hpp"
#include "interruption.hpp"
#include "json_errors.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "network/network_mapper.hpp"
#include "number_options.hpp"
#include "sparse/mask_check.hpp"
#include "sparsity_options.hpp"
#include "sweep/map_run_record.hpp"
#include "timeloop/timeloop_export.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {
namespace {

struct MapOptions {
    std::string arch;
    std::string workload;
    std::int64_t batch = kDefaultBatch;
    std::string phase = "all";
    std::string dataflow = "any";
    std::string objective = "edp";
    std::string search = "anneal";
    std::int64_t budget = SearchBudget{}.max_evaluations;
    double time_budget = 0;
    std::int64_t patience = 0;
    int threads = 0;
    std::uint64_t seed = 1;
    bool no_bypass = false;
    std::string constraints;  // a constraints file; empty: the architecture's only
    std::string format = "text";
    std::vector<std::string> export_to;  // {"timeloop", DIR}
    bool force = false;
    bool quiet = false;
    SparsityOptions sparsity;
    std::string db;  // also write the results to this database
};

// The files export_timeloop writes into each layer-phase's directory.
const std::vector<std::string> kTimeloopFiles = {"map.yaml", "problem.yaml", "arch.yaml",
                                                 "ERT.yaml", "ART.yaml"};

std::vector<Phase> selected_phases(const std::string& name) {
    if (name == "all") return {kAllPhases.begin(), kAllPhases.end()};
    return {*phase_from_name(name)};  // CLI11 checked the name
}

// "1,234" for counts a table can hold, "1.23e+19" beyond.
std::string big_count(double value) {
    if (value < 1e9) return group_thousands(static_cast<std::int64_t>(value));
    return fmt::format("{:.2e}", value);
}

// µJ: grouped whole µJ from 1 mJ up, else four significant digits.
std::string microjoules(double pj) {
    const double uj = pj * 1e-6;
    if (uj >= 1000) return group_thousands(std::llround(uj));
    return fmt::format("{:.4g}", uj);
}

// Layer names become directory names: keep them readable, drop separators.
std::string file_stem(const std::string& name) {
    std::string out = name;
    for (char& c : out) {
        const bool plain =
            std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
        if (!plain) c = '_';
    }
    return out;
}

// "812 rejected — capacity at RF 700, capacity at GLB 100, fanout_x 12",
// biggest counts first.
std::string rejection_summary(const SearchResult& r, const Architecture& arch) {
    std::vector<std::pair<std::string, std::int64_t>> parts;
    std::int64_t total = 0;
    for (std::size_t k = 0; k < kNumViolationKinds; ++k) {
        const auto kind = static_cast<ViolationKind>(k);
        const std::int64_t n = r.rejected[k];
        total += n;
        if (n == 0) continue;
        if (kind != ViolationKind::capacity) {
            parts.emplace_back(std::string(violation_kind_name(kind)), n);
            continue;
        }
        std::int64_t by_level = 0;
        for (std::size_t level = 0; level < arch.levels.size() && level < kMaxLevels; ++level) {
            const std::int64_t c = r.rejected_capacity_by_level[level];
            by_level += c;
            if (c > 0) parts.emplace_back("capacity at " + arch.levels[level].name, c);
        }
        if (by_level < n) parts.emplace_back("capacity", n - by_level);
    }
    if (total == 0) return fmt::format("{} mappings evaluated, none rejected", r.evaluations);
    std::stable_sort(parts.begin(), parts.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string text = fmt::format("{} rejected —", group_thousands(total));
    for (std::size_t i = 0; i < parts.size(); ++i) {
        text += fmt::format("{} {} {}", i == 0 ? "" : ",", parts[i].first,
                            group_thousands(parts[i].second));
    }
    return text;
}

// One line on standard error: redrawn in place on a terminal, else printed
// every few seconds.
class ProgressLine {
  public:
    ProgressLine(bool enabled, Objective objective)
        : enabled_(enabled),
          terminal_(enabled && isatty(STDERR_FILENO) != 0),
          objective_(objective) {}

    void update(const NetworkMapProgress& p) {
        if (!enabled_) return;
        const auto now = std::chrono::steady_clock::now();
        const double interval = terminal_ ? 0.1 : 5.0;
        if (std::chrono::duration<double>(now - last_).count() < interval) return;
        last_ = now;
        if (!started_) {  // the first call is the start: nothing to say yet
            started_ = true;
            return;
        }
        const double rate = p.seconds > 0 ? double(p.evaluations) / p.seconds : 0;
        std::string line = fmt::format(
            "map: {}/{} layer-phases ({}/{} problems), {} evaluations, {} evaluations/s",
            p.layer_phases_done, p.layer_phases_total, p.problems_done, p.problems_total,
            si_count(double(p.evaluations)), si_count(rate));
        if (p.best_objective > 0) line += ", best so far " + best_text(p.best_objective);
        if (p.fraction_done > 0 && p.fraction_done < 1) {
            line += ", ETA " + duration_text(p.seconds * (1 - p.fraction_done) / p.fraction_done);
        }
        if (terminal_) {
            const std::size_t width = line.size();
            if (line.size() < width_) line.append(width_ - line.size(), ' ');
            width_ = width;
            std::cerr << "\r" << line << std::flush;
        } else {
            std::cerr << line << "\n" << std::flush;
        }
    }

    // Erases the line on a terminal so what follows starts clean.
    void finish() {
        if (terminal_ && width_ > 0) std::cerr << "\r" << std::string(width_, ' ') << "\r";
        width_ = 0;
    }

  private:
    // The current problem's best objective value, in its unit.
    std::string best_text(double value) const {
        switch (objective_) {
            case Objective::energy:
                return microjoules(value) + " µJ";
            case Objective::latency:
                return si_count(value) + " cycles";
            case Objective::edp:
            case Objective::pareto:
                return fmt::format("EDP {:.3g} pJ·cycles", value);
        }
        return fmt::format("{:.3g}", value);
    }

    bool enabled_;
    bool terminal_;
    Objective objective_;
    bool started_ = false;
    std::size_t width_ = 0;
    std::chrono::steady_clock::time_point last_{};
};

struct MapRun {
    const MapOptions& options;
    const Architecture& arch;
    const ArchModel& model;
    const Network& network;
    const NetworkTraining& training;
    const NetworkMapPlan& plan;
    const NetworkMapResult& result;
    std::optional<Dataflow> dataflow;
    const MappingConstraints& constraints;
};

// "constraints (architecture + FILE): spatial y: N (N16); keep/bypass 1", or
// empty when there are none.
std::string constraints_line(const MapRun& run) {
    if (run.constraints.empty()) return {};
    std::string from = run.arch.constraints.empty() ? "" : "architecture";
    if (!run.options.constraints.empty()) {
        from += (from.empty() ? "" : " + ") + run.options.constraints;
    }
    return fmt::format("constraints ({}): {}\n", from, constraints_summary(run.constraints));
}

std::string mapspace_line(const MapRun& run) {
    const MapspaceSize size = run.plan.mapspaces[run.plan.largest_mapspace].size();
    const PhaseProblem& p =
        run.plan.problems[run.plan.mapspace_problem[run.plan.largest_mapspace]].problem;
    return fmt::format(
        "mapspace of the largest problem ({}, {}): spatial {}, tilings {}, orders {}, keeps {} "
        "— {} mappings\n",
        p.layer, to_string(p.space), big_count(size.spatial), big_count(size.tilings),
        big_count(size.orders), big_count(size.keeps), big_count(size.total()));
}

nlohmann::json cost_json(const CostTotal& t) {
    return {{"cycles", t.cycles}, {"energy_pj", t.energy_pj}, {"macs", t.macs}};
}

nlohmann::json map_to_json(const MapRun& run) {
    const MapOptions& o = run.options;
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerResult& layer : run.result.layers) {
        nlohmann::json phases = nlohmann::json::object();
        for (const LayerPhaseResult& lp : layer.phases) {
            const Candidate& best = *lp.best;  // a failure is reported before this
            const SearchResult& search = run.result.searches[lp.problem].result;
            nlohmann::json entry = {{"mapping", mapping_to_json(best.mapping, run.arch)},
                                    {"cycles", best.cycles},
                                    {"energy_pj", best.energy_pj},
                                    {"macs", lp.macs},
                                    {"pj_per_mac", best.energy_pj / double(lp.macs)},
                                    {"utilization", lp.utilization},
                                    {"evaluations", search.evaluations},
                                    {"valid", search.valid},
                                    {"reused", lp.reused}};
            if (!o.sparsity.profile.empty()) {
                entry["effectual_macs"] = best.effectual_macs;
                entry["imbalance_cycles"] = best.imbalance_cycles;
                entry["imbalance_pct"] = best.imbalance_pct;
            }
            if (o.objective == "pareto") {
                nlohmann::json front = nlohmann::json::array();
                for (const Candidate& c : search.pareto) {
                    front.push_back({{"cycles", c.cycles},
                                     {"energy_pj", c.energy_pj},
                                     {"mapping", mapping_to_json(c.mapping, run.arch)}});
                }
                entry["pareto"] = front;
            }
            phases[std::string(phase_name(lp.phase))] = entry;
        }
        layers.push_back({{"name", layer.name}, {"phases", phases}});
    }
    nlohmann::json totals = nlohmann::json::object();
    bool all_phases = true;
    for (Phase phase : kAllPhases) {
        if (const auto& t = run.result.total(phase)) {
            totals[std::string(phase_name(phase))] = cost_json(*t);
        } else {
            all_phases = false;
        }
    }
    if (all_phases) totals["step"] = cost_json(run.result.step);

    const PlannedProblem& largest =
        run.plan.problems[run.plan.mapspace_problem[run.plan.largest_mapspace]];
    const MapspaceSize size = run.plan.mapspaces[run.plan.largest_mapspace].size();
    nlohmann::json phase_names = nlohmann::json::array();
    for (Phase phase : selected_phases(o.phase))
        phase_names.push_back(std::string(phase_name(phase)));
    return {{"network", run.network.name()},
            {"arch", run.arch.name},
            {"batch", o.batch},
            {"phases", phase_names},
            {"dataflow", run.dataflow ? to_string(*run.dataflow) : "any"},
            {"objective", o.objective},
            {"search", o.search},
            {"budget", o.budget},
            {"seed", o.seed},
            {"bypass", !o.no_bypass},
            {"constraints", constraints_summary(run.constraints)},
            {"mapspace",
             {{"layer", largest.problem.layer},
              {"phase", std::string(phase_name(largest.problem.phase))},
              {"spatial", size.spatial},
              {"tilings", size.tilings},
              {"orders", size.orders},
              {"keeps", size.keeps},
              {"total", size.total()}}},
            {"layers", layers},
            {"totals", totals},
            {"searched_problems", run.result.searches.size()},
            {"layer_phases", run.plan.layer_phases.size()},
            {"evaluations", run.result.evaluations}};
}

std::string summary_line(const MapRun& run) {
    const double seconds = run.result.seconds;
    const double rate = seconds > 0 ? double(run.result.evaluations) / seconds : 0;
    return fmt::format(
        "searched {} distinct problems for {} layer-phases in {:.2f} s ({} evaluations, {} "
        "evaluations/s)\n",
        run.result.searches.size(), run.plan.layer_phases.size(), seconds,
        group_thousands(run.result.evaluations), group_thousands(std::int64_t(rate)));
}

std::string map_to_text(const MapRun& run) {
    const MapOptions& o = run.options;
    std::size_t name_width = 5;
    for (const LayerResult& layer : run.result.layers) {
        name_width = std::max(name_width, layer.name.size());
    }
    // With a sparsity profile: the compute cycles lost to load imbalance, in %.
    const bool sparse = !o.sparsity.profile.empty();
    std::string out = fmt::format("{:<{}}  {:<5} {:>15} {:>13} {:>8} {:>6}{}  {}\n", "layer",
                                  name_width, "phase", "cycles", "energy (µJ)", "pJ/MAC", "util",
                                  sparse ? fmt::format(" {:>6}", "imbal") : "",
                                  "mapping (`= `: the same problem as a layer above)");
    out += std::string(name_width + 53 + (sparse ? 7 : 0), '-') + "\n";
    for (const LayerResult& layer : run.result.layers) {
        for (const LayerPhaseResult& lp : layer.phases) {
            const Candidate& best = *lp.best;
            out += fmt::format("{:<{}}  {:<5} {:>15} {:>13} {:>8.2f} {:>5.1f}%{}  {}{}\n",
                               layer.name, name_width, phase_name(lp.phase),
                               group_thousands(best.cycles), microjoules(best.energy_pj),
                               best.energy_pj / double(lp.macs), lp.utilization * 100,
                               sparse ? fmt::format(" {:>5.1f}%", best.imbalance_pct) : "",
                               lp.reused ? "= " : "", mapping_to_text(best.mapping, run.arch));
        }
    }
    out += fmt::format("\n{:<6} {:>15} {:>13} {:>8} {:>18}\n", "totals", "cycles", "energy (µJ)",
                       "pJ/MAC", "MACs");
    auto total_line = [&](std::string_view name, const CostTotal& t) {
        return fmt::format("{:<6} {:>15} {:>13} {:>8.2f} {:>18}\n", name, group_thousands(t.cycles),
                           microjoules(t.energy_pj),
                           t.macs > 0 ? t.energy_pj / double(t.macs) : 0.0,
                           group_thousands(t.macs));
    };
    bool all_phases = true;
    for (Phase phase : kAllPhases) {
        if (const auto& t = run.result.total(phase)) {
            out += total_line(phase_name(phase), *t);
        } else {
            all_phases = false;
        }
    }
    if (all_phases) out += total_line("step", run.result.step);
    out += fmt::format(
        "\n{} on {}, batch {}, dataflow {}, objective {}, {} search, budget {} "
        "evaluations per problem, seed {}{}{}\n",
        run.network.name(), run.arch.name, o.batch, run.dataflow ? to_string(*run.dataflow) : "any",
        o.objective, o.search, o.budget == 0 ? std::string("unlimited") : group_thousands(o.budget),
        o.seed, o.no_bypass ? ", no bypass" : "",
        sparse ? fmt::format(", sparsity {}{}", o.sparsity.profile,
                             o.sparsity.iteration
                                 ? fmt::format(" at iteration {}", *o.sparsity.iteration)
                                 : "")
               : "");
    out += summary_line(run);
    return out;
}

[[noreturn]] void throw_no_mapping(const MapRun& run) {
    const NetworkMapResult::Failure& f = *run.result.failure;
    const SearchResult& r = run.result.searches[f.search].result;
    // Searches run in plan order: the failed search is the plan's problem f.search.
    const Mapspace& space = run.plan.mapspaces[run.plan.problems[f.search].mapspace];
    if (const auto& reason = space.empty_reason()) {
        throw SpecError(reason->origin.where, reason->origin.key,
                        fmt::format("no valid mapping for {} {}: the constraints leave its "
                                    "mapspace empty — {}",
                                    f.layer, phase_name(f.phase), reason->text),
                        "constraints that every layer of the network can meet",
                        "loosen that constraint (factors above a dimension's size already "
                        "apply as the whole dimension), or move it to a constraints file "
                        "used only for the layers it fits");
    }
    std::string message = fmt::format("no valid mapping for {} {}: {}", f.layer,
                                      phase_name(f.phase), rejection_summary(r, run.arch));
    if (r.exhausted) message += " (the whole mapspace was searched)";
    if (!run.constraints.empty()) {
        message +=
            "; no mapping was rejected by a constraint: the mapspace holds only mappings that "
            "honour them";
    }
    throw SpecError({run.options.arch, 0, 0}, "", message,
                    "an architecture whose levels can hold some tiling of every layer",
                    r.exhausted ? "a larger level, or another --dataflow"
                                : "valid mappings may be rare rather than absent: try a larger "
                                  "--budget or --search exhaustive; else a larger level or "
                                  "another --dataflow");
}

std::filesystem::path export_dir(const MapOptions& o, const std::string& layer, Phase phase) {
    return std::filesystem::path(o.export_to[1]) /
           fmt::format("{}_{}", file_stem(layer), phase_name(phase));
}

// Before searching: refuse to overwrite earlier exports unless --force.
void check_export_target(const MapOptions& o, const NetworkTraining& training,
                         const NetworkMapPlan& plan) {
    if (o.export_to.empty()) return;
    if (o.export_to[0] != "timeloop") {
        throw SpecError({}, "--export", fmt::format("cannot export to `{}`", o.export_to[0]),
                        "`--export timeloop DIR`");
    }
    if (o.force) return;
    for (const PlannedLayerPhase& lp : plan.layer_phases) {
        const auto dir = export_dir(o, training.layers[lp.layer].layer->layer.name, lp.phase);
        for (const std::string& file : kTimeloopFiles) {
            if (std::filesystem::exists(dir / file)) {
                throw SpecError(
                    {}, "--export", fmt::format("{} already exists", (dir / file).string()),
                    "an export directory without earlier exports", "--force overwrites them");
            }
        }
    }
}

// One directory per layer-phase; what Timeloop cannot express is a warning.
void export_all(const MapRun& run, std::ostream& out) {
    const MapOptions& o = run.options;
    std::set<std::string> notes;
    std::size_t written = 0;
    std::size_t total = 0;
    for (const LayerResult& layer : run.result.layers) {
        const LayerTraining& training = run.training.layers[layer.layer];
        for (const LayerPhaseResult& lp : layer.phases) {
            ++total;
            try {
                for (std::string& note :
                     export_timeloop(export_dir(o, layer.name, lp.phase), run.arch,
                                     *training.find(lp.phase), lp.best->mapping, o.force)) {
                    notes.insert(std::move(note));
                }
                ++written;
            } catch (const SpecError& e) {
                std::cerr << fmt::format("warning: {} {} not exported: {}\n", layer.name,
                                         phase_name(lp.phase), e.message());
            }
        }
    }
    for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
    out << fmt::format("exported {} of {} layer-phases to {}/<layer>_<phase>/ ({})\n", written,
                       total, o.export_to[1], fmt::join(kTimeloopFiles, ", "));
}

void run_map(const MapOptions& o) {
    const std::optional<Dataflow> dataflow = parse_dataflow(o.dataflow);
    if (o.budget == 0 && o.search != "exhaustive" && o.time_budget <= 0) {
        throw SpecError({}, "--budget",
                        "--budget 0 (no limit) never ends a random or anneal search",
                        "a positive number of evaluations per layer-phase",
                        "--budget 0 goes with --search exhaustive or --time-budget SECONDS");
    }
    const Architecture arch = load_architecture(o.arch);
    const ArchModel model = build_arch_model(arch);
    // The file's constraints add to the architecture's, or override them
    // entry by entry (docs/mapping_constraints.md).
    MappingConstraints constraints = arch.constraints;
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
    MapRun preview{o, arch, model, network, training, plan, empty, dataflow, constraints};
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
    options.search.threads = usable_threads(o.threads);
    options.time_budget_seconds = o.time_budget;
    // Opened before the search, so a locked or broken database fails fast.
    std::optional<ResultsStore> store;
    if (!o.db.empty()) store.emplace(ResultsStore::open_for_writing(o.db));
    set_interruption_note(
        o.db.empty() ? std::string("Nothing was written.")
                     : fmt::format("Nothing was written to {} (map writes its results in one "
                                   "transaction after every layer is mapped).",
                                   o.db),
        "Rerun:", true);
    ProgressLine progress(!o.quiet, options.search.objective);
    const NetworkMapResult result =
        map_network(model, training, plan, options,
                    [&progress](const NetworkMapProgress& p) { progress.update(p); });
    progress.finish();

    const MapRun run{o, arch, model, network, training, plan, result, dataflow, constraints};
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
    map->add_option("--arch,-a", o->arch, "Architecture YAML file")
        ->required()
        ->check(CLI::ExistingFile);
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
                    "letters split an axis, e.g. KC,N), or `any` to let the mapper choose")
        ->default_val("any");
    map->add_option("--objective", o->objective, "What the best mapping minimizes")
        ->default_val("edp")
        ->check(CLI::IsMember({"energy", "latency", "edp", "pareto"}));
    map->add_option("--search", o->search, "Search strategy")
        ->default_val("anneal")
        ->check(CLI::IsMember({"exhaustive", "random", "anneal"}));
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
