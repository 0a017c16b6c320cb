#include "network/network_mapper.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "common/checked_math.hpp"
#include "common/spec_error.hpp"

namespace trainloop {
namespace {

const std::string& layer_name(const LayerTraining& layer) { return layer.layer->layer.name; }

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The objective value of a finished search's best mapping (0: none).
double searched_best_value(const SearchResult& r, Objective objective) {
    return r.best ? objective_value(objective, r.best->cycles, r.best->energy_pj,
                                    r.best->offchip_words)
                  : 0;
}

}  // namespace

bool PlannedProblem::is(const PhaseProblem& other,
                        const std::optional<PhaseDensities>& other_densities) const {
    if (problem.phase != other.phase || !(problem.space == other.space)) return false;
    if (!densities || !other_densities) return !densities && !other_densities;
    for (DataSpace s : kAllDataSpaces) {
        if (densities->spaces[s].density != other_densities->spaces[s].density ||
            !(densities->spaces[s].model == other_densities->spaces[s].model))
            return false;
    }
    return true;
}

std::size_t largest_mapspace_index(const std::vector<Mapspace>& mapspaces) {
    std::size_t index = 0;
    double largest = -1;
    for (std::size_t m = 0; m < mapspaces.size(); ++m) {
        const double total = mapspaces[m].size().total();
        if (total > largest) {
            largest = total;
            index = m;
        }
    }
    return index;
}

NetworkMapPlan plan_network_mapping(const ArchModel& arch, const NetworkTraining& training,
                                    const std::vector<Phase>& phases,
                                    const MapspaceConstraints& constraints,
                                    const SparsityProfile* sparsity, std::string_view network,
                                    std::int64_t iteration) {
    NetworkMapPlan plan;
    plan.phase_units = arch.phase_units;
    // Per mapspace: its iteration space, and its phase when constraints differ by phase.
    std::vector<std::pair<IterationSpace, std::optional<Phase>>> spaces;
    for (std::size_t l = 0; l < training.layers.size(); ++l) {
        const LayerTraining& layer = training.layers[l];
        for (const PhaseProblem& problem : layer.phases) {
            if (std::find(phases.begin(), phases.end(), problem.phase) == phases.end()) continue;
            std::optional<PhaseDensities> densities;
            if (sparsity != nullptr) {
                densities = phase_densities(*sparsity, network, layer_name(layer), problem.phase,
                                            iteration);
            }
            // Same iteration space (bounds, stride, dilation), phase and
            // densities: same problem.
            auto same =
                std::find_if(plan.problems.begin(), plan.problems.end(),
                             [&](const PlannedProblem& p) { return p.is(problem, densities); });
            if (same == plan.problems.end()) {
                const std::pair key{problem.space, constraints.mapspace_phase(problem.phase)};
                auto space = std::find(spaces.begin(), spaces.end(), key);
                if (space == spaces.end()) {
                    try {
                        plan.mapspaces.push_back(Mapspace::build(
                            arch, problem.space, constraints.for_phase(problem.phase)));
                    } catch (const SpecError& e) {
                        throw SpecError(e.where(), e.key_path(),
                                        "layer " + layer_name(layer) + ": " + e.message(),
                                        e.expected(), e.hint());
                    }
                    spaces.push_back(key);
                    plan.mapspace_problem.push_back(plan.problems.size());
                    space = spaces.end() - 1;
                }
                plan.problems.push_back(
                    {problem, densities, static_cast<std::size_t>(space - spaces.begin()), 0});
                same = plan.problems.end() - 1;
            }
            ++same->layer_phases;
            plan.layer_phases.push_back(
                {l, problem.phase, static_cast<std::size_t>(same - plan.problems.begin())});
        }
    }
    plan.largest_mapspace = largest_mapspace_index(plan.mapspaces);
    return plan;
}

void collect_layer_results(const NetworkTraining& training, const NetworkMapPlan& plan,
                           NetworkMapResult& result) {
    result.layers.clear();
    result.phase_totals = {};
    result.step = {};
    std::vector<bool> seen(plan.problems.size(), false);
    std::optional<std::size_t> last_layer;
    for (const PlannedLayerPhase& lp : plan.layer_phases) {
        const LayerTraining& layer = training.layers[lp.layer];
        LayerPhaseResult r;
        r.phase = lp.phase;
        r.problem = lp.problem;
        r.macs = layer.space.macs();
        r.best = result.searches[lp.problem].result.best;
        r.reused = seen[lp.problem];
        seen[lp.problem] = true;
        if (r.best) r.utilization = r.best->utilization;
        if (last_layer != lp.layer) {
            result.layers.push_back({layer_name(layer), lp.layer, {}});
            last_layer = lp.layer;
        }
        result.layers.back().phases.push_back(r);

        std::optional<CostTotal>& total = result.phase_totals[lp.phase];
        if (!total) total = CostTotal{};
        if (r.best) {
            total->cycles = add_to_total(total->cycles, r.best->cycles, "cycles");
            total->energy_pj += r.best->energy_pj;
            total->offchip_words += r.best->offchip_words;
        }
        total->macs = add_to_total(total->macs, r.macs, "MACs");
    }
    PerPhase<std::int64_t> phase_cycles{};
    for (Phase p : kAllPhases) {
        const std::optional<CostTotal>& total = result.phase_totals[p];
        if (!total) continue;
        phase_cycles[p] = total->cycles;
        result.step.energy_pj += total->energy_pj;
        result.step.offchip_words += total->offchip_words;
        result.step.macs = add_to_total(result.step.macs, total->macs, "MACs");
    }
    result.step.cycles = step_cycles(phase_cycles, plan.phase_units);
}

std::int64_t step_cycles(const PerPhase<std::int64_t>& phase_cycles, PhaseUnits units) {
    std::int64_t cycles = 0;
    for (std::int64_t c : phase_cycles) {
        cycles =
            units == PhaseUnits::separate ? std::max(cycles, c) : add_to_total(cycles, c, "cycles");
    }
    return cycles;
}

NetworkMapResult map_network(const ArchModel& arch, const NetworkTraining& training,
                             const NetworkMapPlan& plan, const NetworkMapOptions& options,
                             const NetworkMapProgressFn& progress) {
    const auto start = std::chrono::steady_clock::now();
    NetworkMapResult result;
    NetworkMapProgress state;
    state.layer_phases_total = plan.layer_phases.size();
    state.problems_total = plan.problems.size();
    auto report = [&](std::int64_t current_evaluations, double current_fraction,
                      double best_objective) {
        if (!progress) return;
        NetworkMapProgress p = state;
        p.best_objective = best_objective;
        p.evaluations = result.evaluations + current_evaluations;
        p.seconds = seconds_since(start);
        p.fraction_done =
            state.problems_total == 0
                ? 1.0
                : (double(state.problems_done) + std::clamp(current_fraction, 0.0, 1.0)) /
                      double(state.problems_total);
        progress(p);
    };
    report(0, 0, 0);

    for (std::size_t i = 0; i < plan.problems.size(); ++i) {
        const PlannedProblem& planned = plan.problems[i];
        SearchOptions search = options.search;
        search.densities = planned.densities;
        if (options.time_budget_seconds > 0) {
            // The time left, shared evenly by the problems left; never 0 (no limit).
            const double left = options.time_budget_seconds - seconds_since(start);
            double share = std::max(left / double(plan.problems.size() - i), 1e-3);
            if (search.budget.max_seconds > 0) share = std::min(share, search.budget.max_seconds);
            search.budget.max_seconds = share;
        }
        search.progress = [&](const SearchProgress& p) {
            report(p.evaluations, p.fraction_done, p.best_objective);
        };
        ProblemSearch searched{
            planned.problem.layer, planned.problem.phase, planned.layer_phases,
            trainloop::search(arch, planned.problem, plan.mapspaces[planned.mapspace], search),
            std::nullopt};
        if (!planned.densities || planned.densities->all_dense()) {
            const MappingConstraints constraints =
                constraints_for_phase(options.architecture_constraints, planned.problem.phase);
            // Valid for every mapping of the mapspace, padded ones included.
            const DimSet paddable = one_term_dims(planned.problem.space.shape) |
                                    plan.mapspaces[planned.mapspace].paddable();
            searched.bound = cost_lower_bound(arch, planned.problem, &constraints, paddable);
        }
        result.evaluations += searched.result.evaluations;
        const bool failed = !searched.result.best.has_value();
        result.searches.push_back(std::move(searched));
        state.problems_done = i + 1;
        state.layer_phases_done += planned.layer_phases;
        report(0, 0, searched_best_value(result.searches.back().result, options.search.objective));
        if (failed && options.stop_at_failure) {
            result.failure =
                NetworkMapResult::Failure{planned.problem.layer, planned.problem.phase, i};
            result.seconds = seconds_since(start);
            return result;
        }
    }

    collect_layer_results(training, plan, result);
    result.seconds = seconds_since(start);
    return result;
}

}  // namespace trainloop
