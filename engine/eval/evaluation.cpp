#include "eval/evaluation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/checked_math.hpp"
#include "common/finite.hpp"
#include "common/spec_error.hpp"

namespace trainloop {
namespace {

// A cycle count past 2^53 (a tiny bandwidth, say) cannot be represented:
// it is an error, never a wrapped or clamped number. `describe()` says where
// the cycles come from; it runs only on that error, so a valid evaluation
// formats nothing (the hot path stays free of allocations).
template <typename Describe>
std::int64_t cycle_count(double cycles, const PhaseProblem& problem, Describe&& describe) {
    if (const auto count = count_from_double(std::ceil(cycles))) return *count;
    throw SpecError(
        {}, "",
        fmt::format("layer `{}` ({}) takes {:.3g} cycles {}, more than {}", problem.layer,
                    phase_name(problem.phase), cycles, describe(), kMaxCountText),
        "an architecture and workload whose cycle counts are representable",
        "check the level's bandwidth (words per cycle) in the architecture");
}

std::int64_t cycles_at(double words, double bandwidth, const PhaseProblem& problem,
                       std::size_t level, const char* which) {
    if (bandwidth <= 0 || words == 0) return 0;
    return cycle_count(words / bandwidth, problem, [&] {
        return fmt::format(
            "at storage level {} (0 = outermost): {:.3g} words at {} bandwidth "
            "{:g} words/cycle",
            level, words, which, bandwidth);
    });
}

void add_latency(const ArchModel& arch, const PhaseProblem& problem, Evaluation& e) {
    e.compute_cycles = e.imbalance.applies ? cycle_count(e.imbalance.cycles, problem,
                                                         [] { return "of computation"; })
                                           : e.nest.compute_cycles;
    e.cycles = e.compute_cycles;
    e.bottleneck = -1;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        double reads = 0;
        double writes = 0;
        for (const SpaceCounts& c : e.counts.levels[i].spaces) {
            reads += c.timed_reads + c.timed_metadata_reads;
            writes += c.fills + c.timed_updates + c.metadata_fills + c.timed_metadata_updates;
        }
        const LevelModel& level = arch.levels[i];
        e.level_cycles[i] = std::max(
            {cycles_at(reads, level.read_bandwidth, problem, i, "read"),
             cycles_at(writes, level.write_bandwidth, problem, i, "write"),
             cycles_at(reads + writes, level.shared_bandwidth, problem, i, "shared read + write")});
        if (e.level_cycles[i] > e.cycles) {
            e.cycles = e.level_cycles[i];
            e.bottleneck = int(i);
        }
    }
    for (std::size_t n = 0; n < arch.num_networks; ++n) {
        NetworkTraffic& traffic = e.routing.traffic[n];
        const double bandwidth = arch.networks[n].bandwidth;
        if (bandwidth <= 0 || traffic.busiest_link_words == 0) continue;
        traffic.cycles = cycle_count(traffic.busiest_link_words / bandwidth, problem, [&] {
            return fmt::format("on network {}'s busiest link: {:.3g} words at {:g} words/cycle", n,
                               traffic.busiest_link_words, bandwidth);
        });
        const std::int64_t cycles = traffic.cycles;
        if (cycles > e.cycles) {
            e.cycles = cycles;
            e.bottleneck = int(arch.num_levels + 1 + n);
        }
    }
    e.utilization = e.counts.macs_performed / (double(e.cycles) * double(arch.num_macs()));
}

// The network a balancing scheme's words travel on: for a scheme that moves
// them along one array axis (half-tile pairing, Procrustes §IV-C: over the
// existing 1-D links), a network from the PEs' parent level running along
// exactly that axis; a scheme that moves them between neighbouring PEs
// (two-level work stealing, Chen et al. 2024 §IV-D: "stealing from its
// neighbors" on a 2-D torus) on a torus network when the array has one;
// otherwise (or when there is none) the unicast network.
int balancing_network(const ArchModel& arch, std::size_t pe_parent, DataSpace s, int axis) {
    if (axis < 0) {
        for (std::size_t n = 0; n < arch.num_networks; ++n) {
            const NetworkModel& net = arch.networks[n];
            if (std::size_t(net.parent) == pe_parent && net.carries.contains(s) &&
                net.topology == NetworkTopology::torus)
                return int(n);
        }
    }
    if (axis >= 0) {
        const AxisMask along = axis == 0 ? kAxisX : kAxisY;
        for (std::size_t n = 0; n < arch.num_networks; ++n) {
            const NetworkModel& net = arch.networks[n];
            if (std::size_t(net.parent) == pe_parent && net.carries.contains(s) &&
                net.axes == along)
                return int(n);
        }
    }
    return arch.network_for(pe_parent, s, DeliveryKind::unicast, 0);
}

// The words a balancing scheme moves between PEs, priced per hop they travel
// (balancing_word_hops) on the network that carries them.
void add_balancing_energy(const ArchModel& arch, Phase phase, Evaluation& e) {
    if (!e.imbalance.applies || e.imbalance.balancing_word_hops == 0) return;
    const std::size_t pe_parent = arch.num_levels >= 2 ? arch.num_levels - 2 : 0;
    for (DataSpace s : kAllDataSpaces) {
        if (!arch.compute_skip.in(phase).contains(s)) continue;
        const int n = balancing_network(arch, pe_parent, s, e.imbalance.balancing_axis);
        if (n < 0) continue;
        // On a routed network each hop to a neighbour ends in its router.
        const NetworkModel& net = arch.networks[std::size_t(n)];
        const bool routed = net.topology == NetworkTopology::mesh ||
                            net.topology == NetworkTopology::torus ||
                            net.topology == NetworkTopology::ring;
        const double pj = e.imbalance.balancing_word_hops * net.hop_pj +
                          (routed ? e.imbalance.balancing_word_hops * net.router_pj : 0.0);
        e.energy.network[std::size_t(n)][std::size_t(s)] += pj;
        e.energy.balancing = pj;
        return;
    }
}

void add_energy(const ArchModel& arch, const PhaseProblem& problem, Evaluation& e) {
    EnergyBreakdown& b = e.energy;
    b.num_levels = arch.num_levels;
    b.num_networks = arch.num_networks;
    // Leakage: per-instance power of every instance (idle ones leak too) × time.
    // mW × cycles / GHz = 1e-3 W × 1e-9 s × 1e12 pJ/J × cycles / GHz.
    const double leak_factor = double(e.cycles) / arch.clock_ghz;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const LevelModel& level = arch.levels[i];
        const double instances = double(e.nest.levels[i].utilized_instances);
        for (DataSpace s : kAllDataSpaces) {
            const SpaceAccesses& acc = e.nest.levels[i].space(s);
            const SpaceCounts& c = e.counts.levels[i].space(s);
            const std::size_t si = std::size_t(s);
            b.level[i][si] = {
                (c.reads + c.metadata_reads) * level.read_pj * instances,
                (c.fills + c.metadata_fills) * level.write_pj * instances,
                (c.updates * level.update_pj + c.metadata_updates * level.write_pj) * instances};
            b.level_metadata[i] += (c.metadata_reads * level.read_pj +
                                    (c.metadata_fills + c.metadata_updates) * level.write_pj) *
                                   instances;
            // Words that cross into the PE array ride the network routed for them:
            // per word, its links and routers (network_routing.hpp).
            const Transfer& t = e.routing.transfers[i][s];
            if (!acc.kept || c.child_side_words == 0 || t.network < 0) continue;
            const NetworkModel& net = arch.networks[std::size_t(t.network)];
            const double words = c.child_side_words * instances;
            b.network[std::size_t(t.network)][si] +=
                words * t.cost.link_hops * net.hop_pj + words * t.cost.routers * net.router_pj;
        }
        b.level_leak[i] = level.leakage_mw * double(level.instances) * leak_factor;
    }
    b.mac = e.counts.macs_performed * arch.mac_pj;
    add_balancing_energy(arch, problem.phase, e);
    b.mac_leak = arch.mac_leakage_mw * double(arch.num_macs()) * leak_factor;
    e.energy_pj = b.total_pj();
}

}  // namespace

std::string_view energy_action_name(EnergyAction action) {
    constexpr std::array<std::string_view, kNumEnergyActions> names = {"read", "write", "update",
                                                                       "mac",  "hop",   "leak"};
    return names[std::size_t(action)];
}

double EnergyBreakdown::cell(std::size_t component, std::size_t space, EnergyAction action) const {
    const auto a = std::size_t(action);
    if (component < num_levels) {
        if (space == kNoSpace) return action == EnergyAction::leak ? level_leak[component] : 0.0;
        return a < 3 ? level[component][space][a] : 0.0;
    }
    if (component == num_levels) {
        if (space != kNoSpace) return 0.0;
        return action == EnergyAction::mac ? mac : action == EnergyAction::leak ? mac_leak : 0.0;
    }
    if (space == kNoSpace || action != EnergyAction::hop) return 0.0;
    return network[component - num_levels - 1][space];
}

double EnergyBreakdown::component_pj(std::size_t component) const {
    double sum = 0;
    for (std::size_t s = 0; s <= kNoSpace; ++s) {
        for (std::size_t a = 0; a < kNumEnergyActions; ++a)
            sum += cell(component, s, EnergyAction(a));
    }
    return sum;
}

double EnergyBreakdown::space_pj(std::size_t space) const {
    double sum = 0;
    for (std::size_t c = 0; c < num_components(); ++c) {
        for (std::size_t a = 0; a < kNumEnergyActions; ++a) sum += cell(c, space, EnergyAction(a));
    }
    return sum;
}

double EnergyBreakdown::action_pj(EnergyAction action) const {
    double sum = 0;
    for (std::size_t c = 0; c < num_components(); ++c) {
        for (std::size_t s = 0; s <= kNoSpace; ++s) sum += cell(c, s, action);
    }
    return sum;
}

double EnergyBreakdown::total_pj() const {
    // The same cells as component_pj, summed in the same order, without the
    // zero cells (x + 0 == x, so the result is identical).
    double sum = 0;
    for (std::size_t i = 0; i < num_levels; ++i) {
        double component = 0;
        for (const auto& space : level[i]) {
            for (double pj : space) component += pj;
        }
        sum += component + level_leak[i];
    }
    sum += mac + mac_leak;
    for (std::size_t n = 0; n < num_networks; ++n) {
        sum += network[n][0] + network[n][1] + network[n][2];
    }
    return sum;
}

namespace {

// Every figure is a sum of these: a NaN or an infinity anywhere shows in one.
void require_finite_figures(const Evaluation& e) {
    require_finite("evaluate", {{"the energy", e.energy_pj},
                                {"the area", e.area_um2},
                                {"the utilization", e.utilization}});
}

// The one pipeline of docs/design.md ("Evaluating a mapping"): structure,
// nest analysis, action counts, capacity, load imbalance, routing, latency,
// energy. Dense evaluation is the case `densities == nullptr`: its counts are
// the nest's (dense_action_counts) and it has no imbalance to estimate; the
// capacity check reads the counts' footprints either way (the dense counts'
// footprint is each kept tile, metadata none).
Evaluation evaluate_pipeline(const ArchModel& arch, const PhaseProblem& problem,
                             const Mapping& mapping, const PhaseDensities* densities,
                             const ImbalanceOptions& imbalance) {
    Evaluation e;
    if (densities) {
        e.sparse = true;
        for (DataSpace s : kAllDataSpaces) e.densities[s] = densities->of(s).density;
    }
    e.violation = check_mapping_structure(arch, problem.space, mapping);
    if (e.violation) return e;
    analyze_nest(problem, mapping, e.nest);
    if (densities) {
        sparse_action_counts(arch, problem, mapping, e.nest, *densities, e.counts);
    } else {
        dense_action_counts(e.nest, e.counts);
    }
    e.violation = check_capacity(arch, e.counts);
    if (e.violation) return e;
    if (densities) {
        e.imbalance =
            estimate_load_imbalance(arch, problem, mapping, e.nest, *densities, imbalance);
    }
    e.violation = route_transfers(arch, problem, mapping, e.nest, e.counts, e.routing);
    if (e.violation) return e;
    add_latency(arch, problem, e);
    add_energy(arch, problem, e);
    e.area_um2 = arch.area_um2();
    require_finite_figures(e);
    return e;
}

}  // namespace

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping) {
    return evaluate_pipeline(arch, problem, mapping, nullptr, {});
}

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                    const PhaseDensities& given, const ImbalanceOptions& imbalance) {
    // A hypergeometric model counts from its tensor's size: the layer's. Only
    // then is a copy made (a mask model's copy touches its shared count).
    std::optional<PhaseDensities> resolved;
    if (lacks_tensor_sizes(given)) resolved = with_tensor_sizes(given, problem);
    return evaluate_pipeline(arch, problem, mapping, resolved ? &*resolved : &given, imbalance);
}

double offchip_words(const Evaluation& evaluation) {
    if (evaluation.counts.num_levels == 0) return 0.0;
    const double instances = double(evaluation.nest.levels[0].utilized_instances);
    double words = 0;
    for (const SpaceCounts& c : evaluation.counts.levels[0].spaces) {
        words += c.reads + c.metadata_reads + c.updates + c.metadata_updates;
    }
    return words * instances;
}

}  // namespace trainloop
