#include "train_cost_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/count_format.hpp"
#include "map_report.hpp"

namespace trainloop::cli {
namespace {

double seconds(const Architecture& arch, double cycles) { return cycles / (arch.clock_ghz * 1e9); }

std::string percent(double fraction) { return fmt::format("{:.2f} %", 100.0 * fraction); }

}  // namespace

std::string train_cost_to_text(const TrainCostRun& run) {
    const TrainingRunCost& c = run.cost;
    const MapOptions& o = run.options.map;
    std::string out =
        fmt::format("{} on {} (batch {}), sparsity {}, {} iterations, {} samples ({} exact)\n\n",
                    run.network.name(), run.arch.name, o.batch, o.sparsity.profile,
                    group_thousands(c.iterations), c.samples.size(),
                    std::count_if(c.samples.begin(), c.samples.end(),
                                  [](const SampleCost& s) { return s.sample.exact; }));
    out += fmt::format("{:>12} {:>25} {:>16} {:>14} {:>11} {:>4}\n", "read at", "iterations",
                       "cycles/iter", "µJ/iter", "eff. MACs", "new");
    const double step_macs = c.iterations > 0 ? c.total_macs / double(c.iterations) : 0;
    for (const SampleCost& s : c.samples) {
        const std::string span =
            fmt::format("[{}, {}){}", group_thousands(s.sample.begin),
                        group_thousands(s.sample.end), s.sample.exact ? "" : " ~");
        out += fmt::format(
            "{:>12} {:>25} {:>16} {:>14} {:>11} {:>4}\n", group_thousands(s.sample.iteration), span,
            group_thousands(s.step_cycles), microjoules(s.step_energy_pj),
            percent(step_macs > 0 ? s.step_effectual_macs / step_macs : 0), s.new_states);
    }
    out += "(~: a linear ramp, read at its middle; no mark: every density constant, exact)\n\n";
    out += fmt::format("{:<8} {:>24} {:>18} {:>14}\n", "run", "cycles", "energy (µJ)", "seconds");
    out +=
        fmt::format("{:<8} {:>24} {:>18} {:>14.6g}\n", "sparse", big_count(double(c.total_cycles)),
                    microjoules(c.total_energy_pj), seconds(run.arch, double(c.total_cycles)));
    out += fmt::format(
        "{:<8} {:>24} {:>18} {:>14.6g}\n", "dense", big_count(double(c.dense_total_cycles)),
        microjoules(c.dense_total_energy_pj), seconds(run.arch, double(c.dense_total_cycles)));
    out +=
        fmt::format("speed-up {:.3f}x, energy {:.3f}x of dense\n", c.speedup(), c.energy_ratio());
    out += fmt::format("off-chip traffic: {} words sparse, {} dense\n",
                       si_count(c.total_offchip_words), si_count(c.dense_total_offchip_words));
    const Evaluator& evaluator = *run.options.evaluator;
    if (evaluator.computes_workload_spread()) {
        out += fmt::format(
            "PE workload spread (sd / mean): {:.3f} as partitioned, {:.3f} after a coarse "
            "repartition, {:.3f} after work stealing too (Chen et al. 2024, Fig. 18)\n",
            c.spread.partitioned, c.spread.coarse, c.spread.two_level);
    }
    out += fmt::format("MACs removed over the run: {} ({} of {} MACs effectual)\n",
                       percent(c.macs_removed_fraction()), si_count(c.effectual_macs),
                       si_count(c.total_macs));
    out += evaluator.run_summary(c, run.evaluations, run.arch, run.settings);
    return out;
}

nlohmann::json train_cost_to_json(const TrainCostRun& run) {
    const TrainingRunCost& c = run.cost;
    const MapOptions& o = run.options.map;
    nlohmann::json samples = nlohmann::json::array();
    for (const SampleCost& s : c.samples) {
        samples.push_back({{"iteration", s.sample.iteration},
                           {"begin", s.sample.begin},
                           {"end", s.sample.end},
                           {"weight", s.sample.weight()},
                           {"exact", s.sample.exact},
                           {"step_cycles", s.step_cycles},
                           {"step_energy_pj", s.step_energy_pj},
                           {"step_effectual_macs", s.step_effectual_macs},
                           {"step_offchip_words", s.step_offchip_words},
                           {"step_workload_stddev", s.step_spread.partitioned},
                           {"step_workload_stddev_coarse", s.step_spread.coarse},
                           {"step_workload_stddev_two_level", s.step_spread.two_level},
                           {"new_states", s.new_states}});
    }
    nlohmann::json out = {{"network", run.network.name()},
                          {"arch", run.arch.name},
                          {"batch", o.batch},
                          {"sparsity", o.sparsity.profile},
                          {"phases", o.phase},
                          {"iterations", c.iterations},
                          {"samples_requested", run.options.samples},
                          {"total_cycles", c.total_cycles},
                          {"total_energy_pj", c.total_energy_pj},
                          {"total_seconds", seconds(run.arch, double(c.total_cycles))},
                          {"dense_total_cycles", c.dense_total_cycles},
                          {"dense_total_energy_pj", c.dense_total_energy_pj},
                          {"dense_total_seconds", seconds(run.arch, double(c.dense_total_cycles))},
                          {"dense_step",
                           {{"cycles", c.dense_step_cycles},
                            {"energy_pj", c.dense_step_energy_pj},
                            {"offchip_words", c.dense_step_offchip_words}}},
                          {"total_offchip_words", c.total_offchip_words},
                          {"dense_total_offchip_words", c.dense_total_offchip_words},
                          {"workload_stddev", c.spread.partitioned},
                          {"workload_stddev_coarse", c.spread.coarse},
                          {"workload_stddev_two_level", c.spread.two_level},
                          {"speedup", c.speedup()},
                          {"energy_ratio", c.energy_ratio()},
                          {"total_macs", c.total_macs},
                          {"effectual_macs", c.effectual_macs},
                          {"macs_removed_fraction", c.macs_removed_fraction()},
                          {"distinct_states", c.sparse_states},
                          {"problems_mapped", c.problems},
                          {"evaluations", run.evaluations},
                          {"samples", samples}};
    const Evaluator& evaluator = *run.options.evaluator;
    out["evaluator"] = evaluator.name();
    if (!evaluator.computes_workload_spread()) {
        // Those keys would be numbers the run did not compute.
        for (const char* key :
             {"workload_stddev", "workload_stddev_coarse", "workload_stddev_two_level"})
            out.erase(key);
        for (nlohmann::json& s : out["samples"])
            for (const char* key : {"step_workload_stddev", "step_workload_stddev_coarse",
                                    "step_workload_stddev_two_level"})
                s.erase(key);
    }
    out.update(evaluator.run_json(run.arch, run.settings));
    if (evaluator.searches_mappings()) out.update(search_settings_json(o, run.dataflow));
    return out;
}

}  // namespace trainloop::cli
