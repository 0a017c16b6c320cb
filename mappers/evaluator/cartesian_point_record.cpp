#include "evaluator/cartesian_point_record.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "eval/energy_classes.hpp"
#include "evaluator/point_record.hpp"

namespace trainloop {
namespace {

std::string json_text(const nlohmann::json& j) {
    // Names need not be UTF-8: invalid bytes become U+FFFD rather than a throw.
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// The parts of price_cartesian's energy by the component it charges them to
// (cartesian/cartesian_energy.hpp), as {component name: pJ} and {class: pJ}.
struct PricedParts {
    nlohmann::json by_component = nlohmann::json::object();
    std::array<double, kNumEnergyClasses> by_class{};
};

PricedParts priced_parts(const Architecture& arch, const CartesianEnergy& e) {
    PricedParts out;
    const StorageLevel& outer = arch.levels.front();
    const StorageLevel& inner = arch.levels.back();
    const auto charge = [&out](const std::string& component, EnergyClass c, double pj) {
        out.by_component[component] = out.by_component.value(component, 0.0) + pj;
        out.by_class[static_cast<std::size_t>(c)] += pj;
    };
    charge("MAC", EnergyClass::mac, e.multiply_pj + e.mac_leak_pj);
    charge(inner.name, energy_class_of(inner.storage_class), e.operand_read_pj + e.accumulate_pj);
    charge(outer.name, energy_class_of(outer.storage_class), e.offchip_pj);
    // Each level's leakage stays in its class (energy_classes.hpp).
    for (std::size_t i = 0; i < arch.levels.size(); ++i)
        if (e.level_leak_pj[i] != 0)
            charge(arch.levels[i].name, energy_class_of(arch.levels[i].storage_class),
                   e.level_leak_pj[i]);
    for (std::size_t n = 0; n < arch.networks.size(); ++n)
        if (e.network_pj[n] != 0)
            charge(arch.networks[n].name, EnergyClass::network, e.network_pj[n]);
    return out;
}

LayerPhaseRecord layer_phase_record(const Architecture& arch, const NetworkTraining& training,
                                    const PlannedLayerPhase& lp, std::int64_t macs,
                                    const CartesianProblemCost& p, const std::string& mapping,
                                    bool reused) {
    const CartesianArray& array = *arch.cartesian;
    const double pes =
        double(array.sample_tiles * array.filter_groups * array.tiles_h * array.tiles_w);
    // The mean PE's cycles: every PE's Cartesian products, stalls alike.
    const double mean_pe_cycles =
        (1.0 + p.counts.conflict_stall_per_cycle) * p.counts.product_cycles / pes;
    const PricedParts parts = priced_parts(arch, p.energy);
    nlohmann::json by_class = nlohmann::json::object();
    for (std::size_t i = 0; i < kNumEnergyClasses; ++i) {
        by_class[std::string(kEnergyClassNames[i])] = parts.by_class[i];
    }
    LayerPhaseRecord r;
    r.layer = training.layers.at(lp.layer).layer->layer.name;
    r.layer_index = static_cast<std::int64_t>(lp.layer);
    r.phase = std::string(phase_name(lp.phase));
    r.mapping = mapping;
    r.macs = macs;
    r.cycles = p.cost.cycles;
    r.energy_pj = p.cost.energy_pj;
    r.effectual_macs = p.counts.used_products;
    r.utilization = p.cost.cycles > 0 ? p.counts.used_products /
                                            (double(p.cost.cycles) * double(array.multipliers()))
                                      : 0.0;
    r.imbalance_cycles = std::max(0.0, p.counts.slowest_pe_cycles - mean_pe_cycles);
    r.imbalance_pct = p.cost.cycles > 0 ? 100.0 * r.imbalance_cycles / double(p.cost.cycles) : 0.0;
    r.offchip_words = p.cost.offchip_words;
    r.performed_macs = p.counts.issued_products;
    r.energy_breakdown = json_text(parts.by_component);
    r.energy_by_class = json_text(by_class);
    r.reused = reused;
    r.converged = true;  // a closed form: there is no search to stop early
    return r;
}

}  // namespace

std::string cartesian_array_text(const CartesianArray& a, CartesianZeros zeros) {
    return fmt::format(
        "cartesian_product {}x{} PEs x {} sample tile{}{}, F {} x I {}, {} banks{}, {} tiling{}{}",
        a.tiles_h, a.tiles_w, a.sample_tiles, a.sample_tiles == 1 ? "" : "s",
        a.filter_groups > 1 ? fmt::format(" x {} filter groups", a.filter_groups) : "",
        a.filter_vector, a.input_vector, a.accumulator_banks,
        a.bank_stalls == CartesianBankStalls::none ? " (no bank stalls)" : "",
        cartesian_tiling_name(a.tiling), a.predictor ? ", predictor" : "",
        zeros == CartesianZeros::random ? ", random zeros" : "");
}

void fill_cartesian_run_results(PointRecord& record, const Architecture& arch,
                                const NetworkTraining& training, const TrainingRunPlan& run,
                                const std::vector<CartesianProblemCost>& costs,
                                CartesianZeros zeros, std::int64_t samples) {
    if (!arch.cartesian || costs.size() != run.problems.size() || run.samples.empty())
        throw std::logic_error("fill_cartesian_run_results: costs of another run or array");
    const TrainingRunCost total = integrate_training_run(run, integrated_costs(costs));
    record.dataflow = "cartesian";
    record.objective = "none";  // nothing is searched, for no objective
    record.search = "none";
    record.budget = 0;
    record.evaluations = 0;
    record.iteration = run.samples.back().iteration;

    // The run's last sample: the state training ends in.
    const std::string mapping = cartesian_array_text(*arch.cartesian, zeros);
    const std::vector<std::size_t>& last = run.sample_problems.back();
    std::vector<bool> seen(run.problems.size(), false);
    std::array<PhaseTotalRecord, 3> phases{};
    for (std::size_t i = 0; i < run.layer_phases.size(); ++i) {
        const PlannedLayerPhase& lp = run.layer_phases[i];
        const std::size_t problem = last.at(i);
        LayerPhaseRecord r = layer_phase_record(arch, training, lp, run.layer_phase_macs.at(i),
                                                costs[problem], mapping, seen[problem]);
        seen[problem] = true;
        PhaseTotalRecord& t = phases[static_cast<std::size_t>(lp.phase)];
        ++t.layer_phases;
        t.cycles += r.cycles;
        t.energy_pj += r.energy_pj;
        t.macs += r.macs;
        t.effectual_macs += r.effectual_macs;
        t.imbalance_cycles += r.imbalance_cycles;
        t.performed_macs += r.performed_macs;
        record.results.push_back(std::move(r));
    }
    PhaseTotalRecord step{"step"};
    for (Phase phase : kAllPhases) {
        PhaseTotalRecord& t = phases[static_cast<std::size_t>(phase)];
        if (t.layer_phases == 0) continue;
        t.phase = std::string(phase_name(phase));
        step.layer_phases += t.layer_phases;
        step.macs += t.macs;
        step.effectual_macs += t.effectual_macs;
        step.imbalance_cycles += t.imbalance_cycles;
        step.performed_macs += t.performed_macs;
        record.totals.push_back(t);
    }
    if (record.totals.size() == kAllPhases.size()) {
        // As the run charges an iteration: the phases in turn, or the slowest
        // one on separate units (training_run.hpp).
        step.cycles = total.samples.back().step_cycles;
        step.energy_pj = total.samples.back().step_energy_pj;
        record.totals.push_back(step);
    }
    record.training_run = training_run_record(total, samples);
}

}  // namespace trainloop
