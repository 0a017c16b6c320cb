#include <fmt/format.h>

#include "map_report.hpp"
#include "mapping/mapping_json.hpp"

namespace trainloop::cli {
namespace {

nlohmann::json cost_json(const CostTotal& t) {
    return {{"cycles", t.cycles},
            {"energy_pj", t.energy_pj},
            {"macs", t.macs},
            {"offchip_words", t.offchip_words}};
}

}  // namespace

nlohmann::json search_settings_json(const MapOptions& o, const std::optional<Dataflow>& dataflow) {
    return {{"dataflow", dataflow ? to_string(*dataflow) : "any"},
            {"objective", o.objective},
            {"search", o.search},
            {"budget", o.budget},
            {"until_converged", !o.fixed_budget},
            {"seed", o.seed}};
}

nlohmann::json map_to_json(const MapRun& run) {
    const MapOptions& o = run.options;
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerResult& layer : run.result.layers) {
        nlohmann::json phases = nlohmann::json::object();
        for (const LayerPhaseResult& lp : layer.phases) {
            const Candidate& best = *lp.best;  // a failure is reported before this
            const SearchResult& search = run.result.searches[lp.problem].result;
            const ProblemShape& shape = run.plan.problems[lp.problem].problem.space.shape;
            nlohmann::json entry = {{"mapping", mapping_to_json(best.mapping, run.arch, shape)},
                                    {"macs", lp.macs},
                                    {"pj_per_mac", best.energy_pj / double(lp.macs)},
                                    {"evaluations", search.evaluations},
                                    {"valid", search.valid},
                                    {"reused", lp.reused},
                                    {"converged", search.converged}};
            if (search.rounds > 0) entry["search_rounds"] = search.rounds;
            if (search.units > 0) {
                entry["search_units"] = search.units;
                entry["search_units_near_best"] = search.units_near_best;
            }
            if (const auto& bound = run.result.searches[lp.problem].bound) {
                entry["lower_bound"] = {{"cycles", bound->cycles},
                                        {"energy_pj", bound->energy_pj},
                                        {"edp", bound->edp()},
                                        {"offchip_words", bound->offchip_words}};
                entry["optimality_gap"] = {
                    {"cycles", optimality_gap(double(best.cycles), double(bound->cycles))},
                    {"energy", optimality_gap(best.energy_pj, bound->energy_pj)},
                    {"edp", optimality_gap(best.edp(), bound->edp())},
                    {"offchip_words", optimality_gap(best.offchip_words, bound->offchip_words)}};
            }
            const bool sparse = !o.sparsity.profile.empty();
            for_each_metric(best, [&](const MetricInfo& m, const auto& value) {
                if (metric_shown(m, sparse)) entry[std::string(m.json_key)] = value;
            });
            if (o.objective == "pareto") {
                nlohmann::json front = nlohmann::json::array();
                for (const Candidate& c : search.pareto) {
                    front.push_back({{"cycles", c.cycles},
                                     {"energy_pj", c.energy_pj},
                                     {"mapping", mapping_to_json(c.mapping, run.arch, shape)}});
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
    if (all_phases) {
        totals["step"] = cost_json(run.result.step);
        // How the phases' cycles add up into the step's (pe_array.hpp).
        totals["step"]["phase_units"] =
            std::string(phase_units_name(run.arch.pe_array.phase_units));
    }

    const PlannedProblem& largest =
        run.plan.problems[run.plan.mapspace_problem[run.plan.largest_mapspace]];
    const MapspaceSize size = run.plan.mapspaces[run.plan.largest_mapspace].size();
    nlohmann::json phase_names = nlohmann::json::array();
    for (Phase phase : selected_phases(o.phase))
        phase_names.push_back(std::string(phase_name(phase)));
    nlohmann::json out = {{"network", run.network.name()},
                          {"arch", run.arch.name},
                          {"batch", o.batch},
                          {"phases", phase_names},
                          {"bypass", !o.no_bypass},
                          {"imperfect_factors", o.imperfect_factors},
                          {"imperfect_windows", o.imperfect_windows},
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
    out.update(search_settings_json(o, run.dataflow));
    return out;
}

}  // namespace trainloop::cli
