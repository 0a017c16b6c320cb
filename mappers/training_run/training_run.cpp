#include "training_run/training_run.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/checked_math.hpp"
#include "common/spec_error.hpp"
#include "density/sparsity_query.hpp"
#include "sparse/effectual_macs.hpp"

namespace trainloop {
namespace {

const std::string& layer_name(const LayerTraining& layer) { return layer.layer->layer.name; }

// The distinct problems of a run and their mapspaces, built as they are met.
class ProblemTable {
  public:
    ProblemTable(const ArchModel& arch, const MapspaceConstraints& constraints,
                 PlanMapspaces mapspaces, TrainingRunPlan& plan)
        : arch_(arch), constraints_(constraints), mapspaces_(mapspaces), plan_(plan) {}

    // The index of (problem, densities), added when new.
    std::size_t find_or_add(const LayerTraining& layer, const PhaseProblem& problem,
                            const std::optional<PhaseDensities>& densities) {
        auto& problems = plan_.problems;
        auto same = std::find_if(problems.begin(), problems.end(),
                                 [&](const PlannedProblem& p) { return p.is(problem, densities); });
        if (same != problems.end()) {
            ++same->layer_phases;
            return std::size_t(same - problems.begin());
        }
        problems.push_back({problem, densities, mapspace_of(layer, problem), 1});
        return problems.size() - 1;
    }

  private:
    std::size_t mapspace_of(const LayerTraining& layer, const PhaseProblem& problem) {
        if (mapspaces_ == PlanMapspaces::none) return 0;
        const std::pair key{problem.space, constraints_.mapspace_phase(problem.phase)};
        auto space = std::find(spaces_.begin(), spaces_.end(), key);
        if (space != spaces_.end()) return std::size_t(space - spaces_.begin());
        try {
            plan_.mapspaces.push_back(
                Mapspace::build(arch_, problem.space, constraints_.for_phase(problem.phase)));
        } catch (const SpecError& e) {
            throw SpecError(e.where(), e.key_path(),
                            "layer " + layer_name(layer) + ": " + e.message(), e.expected(),
                            e.hint());
        }
        spaces_.push_back(key);
        plan_.mapspace_problem.push_back(plan_.problems.size());
        return spaces_.size() - 1;
    }

    const ArchModel& arch_;
    const MapspaceConstraints& constraints_;
    PlanMapspaces mapspaces_;
    TrainingRunPlan& plan_;
    // Per mapspace: its iteration space, and its phase when constraints differ by phase.
    std::vector<std::pair<IterationSpace, std::optional<Phase>>> spaces_;
};

// The schedules that decide some density of the mapped layer-phases.
std::vector<const DensitySchedule*> deciding_schedules(const SparsityProfile& profile,
                                                       std::string_view network,
                                                       const NetworkTraining& training,
                                                       const std::vector<PlannedLayerPhase>& lps) {
    std::vector<const DensitySchedule*> out;
    for (const PlannedLayerPhase& lp : lps) {
        const std::string& layer = layer_name(training.layers[lp.layer]);
        for (DataSpace s : kAllDataSpaces) {
            const SparsityRule* rule =
                matching_rule(profile, network, layer, tensor_in_phase(lp.phase, s), lp.phase);
            if (rule != nullptr &&
                std::find(out.begin(), out.end(), &rule->schedule) == out.end()) {
                out.push_back(&rule->schedule);
            }
        }
    }
    return out;
}

// A sum or product of the run's cycles: past int64, an overflow_error the
// commands report as a located error (train-cost) or a failed point (sweep).
std::int64_t cycles_or_throw(std::optional<std::int64_t> value) {
    if (!value) throw std::overflow_error("train-cost: the run's cycles do not fit in 64 bits");
    return *value;
}

}  // namespace

std::size_t TrainingRunPlan::sparse_states() const {
    std::vector<bool> used(problems.size(), false);
    for (const auto& sample : sample_problems) {
        for (std::size_t p : sample) used[p] = true;
    }
    return std::size_t(std::count(used.begin(), used.end(), true));
}

TrainingRunPlan plan_training_run(const ArchModel& arch, const NetworkTraining& training,
                                  const std::vector<Phase>& phases,
                                  const MapspaceConstraints& constraints,
                                  const SparsityProfile& sparsity, std::string_view network,
                                  std::int64_t iterations, std::int64_t samples,
                                  PlanMapspaces mapspaces) {
    TrainingRunPlan plan;
    plan.iterations = iterations;
    plan.phase_units = arch.phase_units;
    ProblemTable table(arch, constraints, mapspaces, plan);
    // The dense baseline first: `map` without --sparsity on the same architecture.
    for (std::size_t l = 0; l < training.layers.size(); ++l) {
        const LayerTraining& layer = training.layers[l];
        for (const PhaseProblem& problem : layer.phases) {
            if (std::find(phases.begin(), phases.end(), problem.phase) == phases.end()) continue;
            const std::size_t p = table.find_or_add(layer, problem, std::nullopt);
            plan.layer_phases.push_back({l, problem.phase, p});
            plan.layer_phase_macs.push_back(problem.macs());
        }
    }
    plan.samples = schedule_samples(
        deciding_schedules(sparsity, network, training, plan.layer_phases), iterations, samples);
    for (const RunSample& sample : plan.samples) {
        std::vector<std::size_t>& problems = plan.sample_problems.emplace_back();
        for (const PlannedLayerPhase& lp : plan.layer_phases) {
            const LayerTraining& layer = training.layers[lp.layer];
            const PhaseProblem& problem = *layer.find(lp.phase);
            problems.push_back(table.find_or_add(
                layer, problem,
                phase_densities(sparsity, network, layer_name(layer), lp.phase, sample.iteration)));
        }
    }
    plan.largest_mapspace = largest_mapspace_index(plan.mapspaces);
    return plan;
}

NetworkMapPlan as_network_plan(const TrainingRunPlan& plan) {
    NetworkMapPlan out;
    out.phase_units = plan.phase_units;
    out.problems = plan.problems;
    out.mapspaces = plan.mapspaces;
    out.mapspace_problem = plan.mapspace_problem;
    out.largest_mapspace = plan.largest_mapspace;
    return out;
}

NetworkMapPlan sample_network_plan(const TrainingRunPlan& plan, std::optional<std::size_t> sample) {
    NetworkMapPlan out;
    out.phase_units = plan.phase_units;
    out.problems = plan.problems;
    out.layer_phases = plan.layer_phases;
    if (sample) {
        for (std::size_t i = 0; i < out.layer_phases.size(); ++i) {
            out.layer_phases[i].problem = plan.sample_problems.at(*sample)[i];
        }
    }
    return out;
}

std::optional<std::vector<ProblemCost>> problem_costs(const NetworkMapResult& result) {
    if (result.failure) return std::nullopt;
    std::vector<ProblemCost> out;
    for (const ProblemSearch& s : result.searches) {
        if (!s.result.best) return std::nullopt;
        const Candidate& best = *s.result.best;
        out.push_back(
            {best.cycles,
             best.energy_pj,
             best.offchip_words,
             {best.workload_stddev, best.workload_stddev_coarse, best.workload_stddev_two_level}});
    }
    return out;
}

TrainingRunCost integrate_training_run(const TrainingRunPlan& plan,
                                       std::span<const ProblemCost> costs) {
    if (costs.size() != plan.problems.size()) {
        throw std::invalid_argument("integrate_training_run: one cost per problem expected");
    }
    TrainingRunCost out;
    out.iterations = plan.iterations;
    out.sparse_states = plan.sparse_states();
    out.problems = plan.problems.size();
    double step_macs = 0;
    PerPhase<std::int64_t> dense_phase_cycles{};
    for (std::size_t i = 0; i < plan.layer_phases.size(); ++i) {
        const ProblemCost& dense = costs[plan.layer_phases[i].problem];
        std::int64_t& phase = dense_phase_cycles[plan.layer_phases[i].phase];
        phase = cycles_or_throw(checked_add(phase, dense.cycles));
        out.dense_step_energy_pj += dense.energy_pj;
        out.dense_step_offchip_words += dense.offchip_words;
        step_macs += double(plan.layer_phase_macs[i]);
    }
    out.dense_step_cycles = step_cycles(dense_phase_cycles, plan.phase_units);
    out.dense_total_cycles = cycles_or_throw(checked_mul(out.dense_step_cycles, plan.iterations));
    out.dense_total_energy_pj = out.dense_step_energy_pj * double(plan.iterations);
    out.dense_total_offchip_words = out.dense_step_offchip_words * double(plan.iterations);
    out.total_macs = step_macs * double(plan.iterations);

    std::vector<bool> seen(plan.problems.size(), false);
    WorkloadSpread spread_sum;  // Σ weight × effectual MACs × spread
    for (std::size_t s = 0; s < plan.samples.size(); ++s) {
        SampleCost sc;
        sc.sample = plan.samples[s];
        WorkloadSpread step_spread_sum;  // Σ effectual MACs × spread
        PerPhase<std::int64_t> phase_cycles{};
        for (std::size_t i = 0; i < plan.layer_phases.size(); ++i) {
            const std::size_t p = plan.sample_problems[s][i];
            std::int64_t& phase = phase_cycles[plan.layer_phases[i].phase];
            phase = cycles_or_throw(checked_add(phase, costs[p].cycles));
            sc.step_energy_pj += costs[p].energy_pj;
            const std::optional<PhaseDensities>& d = plan.problems[p].densities;
            const double effectual =
                double(plan.layer_phase_macs[i]) * (d ? effectual_fraction(*d) : 1.0);
            sc.step_effectual_macs += effectual;
            sc.step_offchip_words += costs[p].offchip_words;
            step_spread_sum.add(costs[p].spread, effectual);
            if (!seen[p]) {
                seen[p] = true;
                ++sc.new_states;
            }
        }
        sc.step_cycles = step_cycles(phase_cycles, plan.phase_units);
        spread_sum.add(step_spread_sum, double(sc.sample.weight()));
        sc.step_spread = step_spread_sum.mean_over(sc.step_effectual_macs);
        const auto weight = sc.sample.weight();
        const std::int64_t sample_cycles = cycles_or_throw(checked_mul(sc.step_cycles, weight));
        out.total_cycles = cycles_or_throw(checked_add(out.total_cycles, sample_cycles));
        out.total_energy_pj += sc.step_energy_pj * double(weight);
        out.effectual_macs += sc.step_effectual_macs * double(weight);
        out.total_offchip_words += sc.step_offchip_words * double(weight);
        out.samples.push_back(sc);
    }
    out.spread = spread_sum.mean_over(out.effectual_macs);
    return out;
}

}  // namespace trainloop
