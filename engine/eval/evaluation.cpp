#include "eval/evaluation.hpp"

#include <algorithm>
#include <cmath>

namespace trainloop {
namespace {

std::int64_t cycles_at(std::int64_t words, double bandwidth) {
    if (bandwidth <= 0 || words == 0) return 0;
    return std::int64_t(std::ceil(double(words) / bandwidth));
}

void add_latency(const ArchModel& arch, Evaluation& e) {
    e.compute_cycles = e.nest.compute_cycles;
    e.cycles = e.compute_cycles;
    e.bottleneck = -1;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        std::int64_t reads = 0;
        std::int64_t writes = 0;
        for (const SpaceAccesses& acc : e.nest.levels[i].spaces) {
            reads += acc.reads;
            writes += acc.fills + acc.updates;
        }
        const LevelModel& level = arch.levels[i];
        e.level_cycles[i] = std::max(cycles_at(reads, level.read_bandwidth),
                                     cycles_at(writes, level.write_bandwidth));
        if (e.level_cycles[i] > e.cycles) {
            e.cycles = e.level_cycles[i];
            e.bottleneck = int(i);
        }
    }
    e.utilization = double(e.nest.macs) / (double(e.cycles) * double(arch.num_macs()));
}

void add_energy(const ArchModel& arch, DataSpace output, Evaluation& e) {
    EnergyBreakdown& b = e.energy;
    b.num_levels = arch.num_levels;
    b.num_networks = arch.num_networks;
    auto cell = [&b](std::size_t component, std::size_t space, EnergyAction action) -> double& {
        return b.cells[component][space][std::size_t(action)];
    };
    // Leakage: per-instance power of every instance (idle ones leak too) × time.
    // mW × cycles / GHz = 1e-3 W × 1e-9 s × 1e12 pJ/J × cycles / GHz.
    const double leak_factor = double(e.cycles) / arch.clock_ghz;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const LevelModel& level = arch.levels[i];
        const double instances = double(e.nest.levels[i].utilized_instances);
        for (DataSpace s : kAllDataSpaces) {
            const SpaceAccesses& acc = e.nest.levels[i].space(s);
            const std::size_t si = std::size_t(s);
            cell(i, si, EnergyAction::read) = double(acc.reads) * level.read_pj * instances;
            cell(i, si, EnergyAction::write) = double(acc.fills) * level.write_pj * instances;
            cell(i, si, EnergyAction::update) = double(acc.updates) * level.update_pj * instances;
            // Words that cross into the PE array ride a network from this level.
            if (!acc.kept || acc.child_side_words == 0) continue;
            const bool is_output = s == output;
            const std::int64_t parent_side = is_output ? acc.updates : acc.reads;
            const DeliveryKind kind = acc.child_side_words > parent_side
                                          ? (is_output ? DeliveryKind::reduction
                                                       : DeliveryKind::multicast)
                                          : DeliveryKind::unicast;
            const int n = arch.network_for(i, s, kind);
            if (n < 0) continue;
            cell(b.network_component(std::size_t(n)), si, EnergyAction::hop) +=
                double(acc.child_side_words) * instances * arch.networks[std::size_t(n)].hop_pj;
        }
        cell(i, kNoSpace, EnergyAction::leak) =
            level.leakage_mw * double(level.instances) * leak_factor;
    }
    const std::size_t mac = b.mac_component();
    cell(mac, kNoSpace, EnergyAction::mac) = double(e.nest.macs) * arch.mac_pj;
    cell(mac, kNoSpace, EnergyAction::leak) =
        arch.mac_leakage_mw * double(arch.num_macs()) * leak_factor;
    e.energy_pj = b.total_pj();
}

double area_of(const ArchModel& arch) {
    double area = arch.mac_area_um2 * double(arch.num_macs());
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        area += arch.levels[i].area_um2 * double(arch.levels[i].instances);
    }
    return area;
}

}  // namespace

std::string_view energy_action_name(EnergyAction action) {
    constexpr std::array<std::string_view, kNumEnergyActions> names = {"read", "write", "update",
                                                                       "mac",  "hop",   "leak"};
    return names[std::size_t(action)];
}

double EnergyBreakdown::component_pj(std::size_t component) const {
    double sum = 0;
    for (const auto& space : cells[component]) {
        for (double pj : space) sum += pj;
    }
    return sum;
}

double EnergyBreakdown::space_pj(std::size_t space) const {
    double sum = 0;
    for (std::size_t c = 0; c < num_components(); ++c) {
        for (double pj : cells[c][space]) sum += pj;
    }
    return sum;
}

double EnergyBreakdown::action_pj(EnergyAction action) const {
    double sum = 0;
    for (std::size_t c = 0; c < num_components(); ++c) {
        for (const auto& space : cells[c]) sum += space[std::size_t(action)];
    }
    return sum;
}

double EnergyBreakdown::total_pj() const {
    double sum = 0;
    for (std::size_t c = 0; c < num_components(); ++c) sum += component_pj(c);
    return sum;
}

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping) {
    Evaluation e;
    e.violation = check_mapping_structure(arch, problem.space, mapping);
    if (e.violation) return e;
    e.nest = analyze_nest(problem, mapping);
    e.violation = check_capacity(arch, e.nest);
    if (e.violation) return e;
    add_latency(arch, e);
    add_energy(arch, problem.output(), e);
    e.area_um2 = area_of(arch);
    return e;
}

}  // namespace trainloop
