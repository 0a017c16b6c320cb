#include "map_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/count_format.hpp"
#include "common/spec_error.hpp"
#include "mapping/mapping_text.hpp"
#include "mapspace/mapspace.hpp"
#include "search/rejections.hpp"

namespace trainloop::cli {

std::string big_count(double value) {
    if (value < 1e9) return group_thousands(static_cast<std::int64_t>(value));
    return fmt::format("{:.2e}", value);
}

std::string microjoules(double pj) {
    const double uj = pj * 1e-6;
    if (uj >= 1000) return group_thousands(std::llround(uj));
    return fmt::format("{:.4g}", uj);
}

std::string constraints_line(const MapRun& run) {
    if (run.constraints.empty()) return {};
    std::string from = run.arch_has_constraints ? "architecture" : "";
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

std::string summary_line(const MapRun& run) {
    const double seconds = run.result.seconds;
    const double rate = seconds > 0 ? double(run.result.evaluations) / seconds : 0;
    return fmt::format(
        "searched {} distinct problems for {} layer-phases in {:.2f} s ({} evaluations, {} "
        "evaluations/s)\n",
        run.result.searches.size(), run.plan.layer_phases.size(), seconds,
        group_thousands(run.result.evaluations), group_thousands(std::int64_t(rate)));
}

std::string convergence_line(const MapRun& run) {
    std::size_t converged = 0;
    for (const ProblemSearch& s : run.result.searches) converged += s.result.converged ? 1 : 0;
    const std::size_t total = run.result.searches.size();
    std::string rule =
        run.options.search == "exhaustive" ? std::string("the whole mapspace searched")
        : run.options.fixed_budget
            ? fmt::format("at least a quarter of the independent {} within {:.0f} % of the best",
                          run.options.search == "anneal" ? "chains" : "sampling streams",
                          kConvergedTolerance * 100)
            : std::string(
                  "two rounds of independent chains agreed within 0.5 % and a closing climb "
                  "found nothing better, or the mapspace searched whole");
    std::string line =
        fmt::format("converged on {} of {} distinct problems ({})", converged, total, rule);
    if (converged < total && run.options.search != "exhaustive") {
        line += run.options.fixed_budget
                    ? "; a larger --budget may still improve the others"
                    : "; the others stopped at the budget and a larger one may still improve them";
    }
    return line + "\n";
}

std::string idle_axis_line(const MapRun& run) {
    const MapOptions& o = run.options;
    if (o.imperfect_factors && o.imperfect_windows) return "";  // it pads every dimension
    std::size_t count = 0;
    bool window = false;    // some hint is of P, Q, R or S
    bool one_term = false;  // some hint is of N, K, C or G
    std::string example;
    for (const LayerResult& layer : run.result.layers) {
        for (const LayerPhaseResult& lp : layer.phases) {
            const PhaseProblem& problem = run.plan.problems[lp.problem].problem;
            const ProblemShape& shape = problem.space.shape;
            // The dimensions the run does not pad yet.
            const DimSet unpadded =
                (one_term_dims(shape) | window_dims(shape)) &
                paddable_dims(shape, o.imperfect_factors, o.imperfect_windows).complement();
            const auto hint = idle_axis_hint(run.model, problem.space, lp.best->mapping, unpadded);
            if (!hint) continue;
            (window_dims(shape).contains(hint->dim) ? window : one_term) = true;
            if (count++ > 0) continue;
            example = fmt::format("`{}` {}: {} = {} on {} of {} {}", layer.name,
                                  phase_name(lp.phase), shape.dim_name(hint->dim),
                                  group_thousands(problem.space.bounds[hint->dim]), hint->instances,
                                  hint->fanout, hint->x ? "columns" : "rows");
        }
    }
    if (count == 0) return "";
    const std::string options =
        o.imperfect_factors ? "--imperfect-windows pads"
        : !window           ? "--imperfect-factors pads"
        : !one_term         ? "--imperfect-factors --imperfect-windows pad"
                            : "--imperfect-factors pads (with --imperfect-windows for P, Q, R, S)";
    return fmt::format(
        "note: {} layer-phase{} part of an array axis idle because no divisor of a "
        "dimension fills it (e.g. {}); {} such a dimension to use the whole axis "
        "(docs/nest_analysis.md, \"Imperfect factors\")\n",
        count, count == 1 ? " leaves" : "s leave", example, options);
}

std::string map_to_text(const MapRun& run) {
    const MapOptions& o = run.options;
    std::size_t name_width = 5;
    for (const LayerResult& layer : run.result.layers) {
        name_width = std::max(name_width, layer.name.size());
    }
    // With a sparsity profile: the compute cycles lost to load imbalance, in %.
    const bool sparse = !o.sparsity.profile.empty();
    // conv: whether the search converged (search.hpp); E/LB, C/LB: energy
    // and cycles over the lower bound (bounds/lower_bound.hpp; dense only).
    std::string out =
        fmt::format("{:<{}}  {:<5} {:>15} {:>13} {:>8} {:>6}{} {:>4} {:>5} {:>5}  {}\n", "layer",
                    name_width, "phase", "cycles", "energy (µJ)", "pJ/MAC", "util",
                    sparse ? fmt::format(" {:>6}", "imbal") : "", "conv", "E/LB", "C/LB",
                    "mapping (`= `: the same problem as a layer above)");
    out += std::string(name_width + 70 + (sparse ? 7 : 0), '-') + "\n";
    for (const LayerResult& layer : run.result.layers) {
        for (const LayerPhaseResult& lp : layer.phases) {
            const Candidate& best = *lp.best;
            const ProblemSearch& search = run.result.searches[lp.problem];
            auto ratio = [&](double found, double bound) {
                return search.bound && bound > 0 ? fmt::format("{:.2f}", found / bound)
                                                 : std::string("-");
            };
            out += fmt::format(
                "{:<{}}  {:<5} {:>15} {:>13} {:>8.2f} {:>5.1f}%{} {:>4} {:>5} {:>5}  {}{}\n",
                layer.name, name_width, phase_name(lp.phase), group_thousands(best.cycles),
                microjoules(best.energy_pj), best.energy_pj / double(lp.macs), lp.utilization * 100,
                sparse ? fmt::format(" {:>5.1f}%", best.imbalance_pct) : "",
                search.result.converged ? "yes" : "no",
                ratio(best.energy_pj, search.bound ? search.bound->energy_pj : 0),
                ratio(double(best.cycles), search.bound ? double(search.bound->cycles) : 0),
                lp.reused ? "= " : "",
                mapping_to_text(best.mapping, run.arch,
                                run.plan.problems[lp.problem].problem.space.shape));
        }
    }
    out += fmt::format("\n{:<6} {:>15} {:>13} {:>8} {:>18} {:>16}\n", "totals", "cycles",
                       "energy (µJ)", "pJ/MAC", "MACs", "off-chip words");
    auto total_line = [&](std::string_view name, const CostTotal& t) {
        return fmt::format("{:<6} {:>15} {:>13} {:>8.2f} {:>18} {:>16}\n", name,
                           group_thousands(t.cycles), microjoules(t.energy_pj),
                           t.macs > 0 ? t.energy_pj / double(t.macs) : 0.0, group_thousands(t.macs),
                           si_count(t.offchip_words));
    };
    bool all_phases = true;
    for (Phase phase : kAllPhases) {
        if (const auto& t = run.result.total(phase)) {
            out += total_line(phase_name(phase), *t);
        } else {
            all_phases = false;
        }
    }
    if (all_phases) {
        out += total_line("step", run.result.step);
        if (run.arch.pe_array.phase_units == PhaseUnits::separate) {
            out +=
                "  (the phases run on separate units, on successive samples: a step's cycles "
                "are its slowest phase's; its energy is the sum)\n";
        }
    }
    out += fmt::format(
        "\n{} on {}, batch {}, dataflow {}, objective {}, {} search, {} "
        "evaluations per problem, seed {}{}{}\n",
        run.network.name(), run.arch.name, o.batch, run.dataflow ? to_string(*run.dataflow) : "any",
        o.objective, o.search,
        o.budget == 0    ? std::string("unlimited")
        : o.fixed_budget ? fmt::format("budget {}", group_thousands(o.budget))
                         : fmt::format("until converged, at most {}", group_thousands(o.budget)),
        o.seed,
        std::string(o.no_bypass ? ", no bypass" : "") +
            (o.imperfect_factors ? ", imperfect factors" : "") +
            (o.imperfect_windows ? " (windows too)" : ""),
        sparse ? fmt::format(", sparsity {}{}", o.sparsity.profile,
                             o.sparsity.iteration
                                 ? fmt::format(" at iteration {}", *o.sparsity.iteration)
                                 : "")
               : "");
    out += summary_line(run);
    out += convergence_line(run);
    out += idle_axis_line(run);
    return out;
}

void throw_no_mapping(const MapRun& run) {
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

}  // namespace trainloop::cli
