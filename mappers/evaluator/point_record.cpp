#include "evaluator/point_record.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "eval/arch_summary_json.hpp"
#include "eval/energy_classes.hpp"
#include "eval/evaluation.hpp"
#include "eval/evaluation_json.hpp"
#include "mapping/mapping_text.hpp"
#include "search/rejections.hpp"

namespace trainloop {
namespace {

LayerPhaseRecord layer_phase_record(const PointContext& c, const LayerResult& layer,
                                    const LayerPhaseResult& lp, const ProblemSearch& search,
                                    const Candidate& candidate, std::int64_t choice) {
    const EnergyBreakdown& energy = candidate.energy;
    nlohmann::json breakdown = nlohmann::json::object();
    for (std::size_t component = 0; component < energy.num_components(); ++component) {
        breakdown[component_name(c.arch, component)] = energy.component_pj(component);
    }
    nlohmann::json by_class = nlohmann::json::object();
    const auto classes = energy_by_class(c.arch, energy);
    for (std::size_t i = 0; i < kNumEnergyClasses; ++i) {
        by_class[std::string(kEnergyClassNames[i])] = classes[i];
    }
    LayerPhaseRecord r;
    static_cast<LayerPhaseMetrics&>(r) = candidate;  // every metric, as the search kept it
    r.layer = layer.name;
    r.layer_index = static_cast<std::int64_t>(layer.layer);
    r.phase = std::string(phase_name(lp.phase));
    r.choice = choice;
    // Loops named as the layer's problem names its dimensions.
    const LayerTraining* training = c.training.find(layer.name);
    r.mapping = mapping_to_text(candidate.mapping, c.arch,
                                training ? training->space.shape : conv_family_shape());
    r.macs = lp.macs;
    // Names need not be UTF-8: invalid bytes become U+FFFD rather than a throw.
    r.energy_breakdown = breakdown.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    r.energy_by_class = by_class.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    r.reused = lp.reused;
    r.converged = search.result.converged;
    if (search.bound) {
        r.lower_bound_cycles = search.bound->cycles;
        r.lower_bound_energy_pj = search.bound->energy_pj;
    }
    return r;
}

}  // namespace

void fill_point_results(PointRecord& record, const PointContext& c,
                        const NetworkMapResult& result) {
    record.evaluations = result.evaluations;
    if (result.failure) {
        // The failed search's histogram: why every mapping it drew was rejected.
        const SearchResult& failed = result.searches[result.failure->search].result;
        record.failure =
            fmt::format("no valid mapping for {} {}: {}", result.failure->layer,
                        phase_name(result.failure->phase), rejection_summary(failed, c.arch));
        record.rejections = rejections_json(failed, c.arch);
        return;
    }
    std::array<std::int64_t, 3> layer_phases{};
    for (const LayerResult& layer : result.layers) {
        for (const LayerPhaseResult& lp : layer.phases) {
            ++layer_phases[static_cast<std::size_t>(lp.phase)];
            const ProblemSearch& search = result.searches[lp.problem];
            record.results.push_back(layer_phase_record(c, layer, lp, search, *lp.best, 0));
            if (c.objective != Objective::pareto) continue;
            // The rest of the search's front, by increasing energy.
            const std::string best_mapping = record.results.back().mapping;
            std::int64_t choice = 1;
            for (const Candidate& member : search.result.pareto) {
                LayerPhaseRecord r = layer_phase_record(c, layer, lp, search, member, choice);
                if (r.mapping == best_mapping) continue;
                ++choice;
                record.results.push_back(std::move(r));
            }
        }
    }
    // Sums over the best mapping of each layer-phase.
    std::array<double, 3> effectual{};
    std::array<double, 3> imbalance{};
    std::array<double, 3> performed{};
    for (const LayerPhaseRecord& r : record.results) {
        if (r.choice != 0) continue;
        const auto i = static_cast<std::size_t>(*phase_from_name(r.phase));
        effectual[i] += r.effectual_macs;
        imbalance[i] += r.imbalance_cycles;
        performed[i] += r.performed_macs;
    }
    bool all_phases = true;
    for (Phase phase : kAllPhases) {
        const auto& t = result.total(phase);
        if (!t) {
            all_phases = false;
            continue;
        }
        const auto i = static_cast<std::size_t>(phase);
        record.totals.push_back({std::string(phase_name(phase)), layer_phases[i], t->cycles,
                                 t->energy_pj, t->macs, effectual[i], imbalance[i], performed[i]});
    }
    if (all_phases) {
        record.totals.push_back({"step", layer_phases[0] + layer_phases[1] + layer_phases[2],
                                 result.step.cycles, result.step.energy_pj, result.step.macs,
                                 effectual[0] + effectual[1] + effectual[2],
                                 imbalance[0] + imbalance[1] + imbalance[2],
                                 performed[0] + performed[1] + performed[2]});
    }
}

ArchitectureRecord architecture_record(const Architecture& arch, const ArchModel& model,
                                       const std::string& yaml) {
    return {{arch.name, yaml},
            model.area_um2(),
            model.pe_rows,
            model.pe_columns,
            arch.clock_ghz,
            architecture_summary_json(arch, model)
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

TrainingRunRecord training_run_record(const TrainingRunCost& cost, std::int64_t samples) {
    TrainingRunRecord r;
    r.iterations = cost.iterations;
    r.samples = samples;
    r.total_cycles = cost.total_cycles;
    r.total_energy_pj = cost.total_energy_pj;
    r.dense_total_cycles = cost.dense_total_cycles;
    r.dense_total_energy_pj = cost.dense_total_energy_pj;
    r.total_macs = cost.total_macs;
    r.effectual_macs = cost.effectual_macs;
    r.macs_removed_fraction = cost.macs_removed_fraction();
    r.distinct_states = static_cast<std::int64_t>(cost.sparse_states);
    for (const SampleCost& s : cost.samples) {
        r.sample_costs.push_back({s.sample.iteration, s.sample.begin, s.sample.end, s.sample.exact,
                                  s.step_cycles, s.step_energy_pj, s.step_effectual_macs});
    }
    return r;
}

void fill_training_run_results(PointRecord& record, const PointContext& context,
                               const TrainingRunPlan& run, NetworkMapResult result,
                               std::int64_t samples) {
    const NetworkMapPlan last = sample_network_plan(run, run.samples.size() - 1);
    if (!result.failure) collect_layer_results(context.training, last, result);
    fill_point_results(
        record, {context.arch, context.model, context.training, last, context.objective}, result);
    record.iteration = run.samples.back().iteration;
    if (record.failure) return;
    const std::optional<std::vector<ProblemCost>> costs = problem_costs(result);
    if (!costs) return;  // fill_point_results named the failure
    record.training_run = training_run_record(integrate_training_run(run, *costs), samples);
}

}  // namespace trainloop
