#include "eval/evaluation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/checked_math.hpp"
#include "common/spec_error.hpp"

namespace trainloop {
namespace {

// A cycle count past 2^53 (a tiny bandwidth, say) cannot be represented:
// it is an error, never a wrapped or clamped number.
std::int64_t cycle_count(double cycles, const PhaseProblem& problem, std::string_view what) {
    if (const auto count = count_from_double(std::ceil(cycles))) return *count;
    throw SpecError(
        {}, "",
        fmt::format("layer `{}` ({}) takes {:.3g} cycles {}, more than {}", problem.layer,
                    phase_name(problem.phase), cycles, what, kMaxCountText),
        "an architecture and workload whose cycle counts are representable",
        "check the level's bandwidth (words per cycle) in the architecture");
}

std::int64_t cycles_at(double words, double bandwidth, const PhaseProblem& problem,
                       std::size_t level, const char* which) {
    if (bandwidth <= 0 || words == 0) return 0;
    return cycle_count(words / bandwidth, problem,
                       fmt::format("at storage level {} (0 = outermost): {:.3g} words at {} "
                                   "bandwidth {:g} words/cycle",
                                   level, words, which, bandwidth));
}

void add_latency(const ArchModel& arch, const PhaseProblem& problem, Evaluation& e) {
    e.compute_cycles = e.imbalance.applies
                           ? cycle_count(e.imbalance.cycles, problem, "of computation")
                           : e.nest.compute_cycles;
    e.cycles = e.compute_cycles;
    e.bottleneck = -1;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        double reads = 0;
        double writes = 0;
        for (const SpaceCounts& c : e.counts.levels[i].spaces) {
            reads += c.timed_reads + c.metadata_reads;
            writes += c.fills + c.timed_updates + c.metadata_fills;
        }
        const LevelModel& level = arch.levels[i];
        e.level_cycles[i] = std::max(cycles_at(reads, level.read_bandwidth, problem, i, "read"),
                                     cycles_at(writes, level.write_bandwidth, problem, i, "write"));
        if (e.level_cycles[i] > e.cycles) {
            e.cycles = e.level_cycles[i];
            e.bottleneck = int(i);
        }
    }
    e.utilization = e.counts.macs_performed / (double(e.cycles) * double(arch.num_macs()));
}

// Per level, the dimensions its spatial loops spread along x and along y.
struct SpatialDims {
    std::array<DimSet, kMaxLevels> x;
    std::array<DimSet, kMaxLevels> y;
};

SpatialDims spatial_dims(const Mapping& mapping) {
    SpatialDims out;
    for (std::size_t l = 0; l < mapping.num_levels; ++l) {
        out.x[l] = DimSet{};
        out.y[l] = DimSet{};
        for (const Loop& loop : mapping.level(l).spatial_x) {
            if (loop.factor > 1) out.x[l].insert(loop.dim);
        }
        for (const Loop& loop : mapping.level(l).spatial_y) {
            if (loop.factor > 1) out.y[l].insert(loop.dim);
        }
    }
    return out;
}

// The array axes along which the spatial loops between level `parent` and
// its child keeper `child` (num_levels: the MACs) spread dimensions that do
// not index the data space: there one word is multicast (or, for the output,
// partial sums are reduced).
AxisMask shared_axes(const SpatialDims& spread, const Projection& space, std::size_t parent,
                     std::size_t child) {
    DimSet x;
    DimSet y;
    for (std::size_t l = parent; l < child; ++l) {
        x = x | spread.x[l];
        y = y | spread.y[l];
    }
    const DimSet irrelevant = space.relevant.complement();
    return AxisMask(((x & irrelevant).empty() ? 0 : kAxisX) |
                    ((y & irrelevant).empty() ? 0 : kAxisY));
}

// The network a balancing scheme's words travel on: for a scheme that moves
// them along one array axis (half-tile pairing, Procrustes §IV-C: over the
// existing 1-D links), a network from the PEs' parent level running along
// exactly that axis; otherwise (or when there is none) the unicast network.
int balancing_network(const ArchModel& arch, std::size_t pe_parent, DataSpace s, int axis) {
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
        const double pj = e.imbalance.balancing_word_hops * arch.networks[std::size_t(n)].hop_pj;
        e.energy.network[std::size_t(n)][std::size_t(s)] += pj;
        e.energy.balancing = pj;
        return;
    }
}

void add_energy(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                Evaluation& e) {
    const DataSpace output = problem.output();
    const SpatialDims spread = spatial_dims(mapping);
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
            b.level[i][si] = {(c.reads + c.metadata_reads) * level.read_pj * instances,
                              (c.fills + c.metadata_fills) * level.write_pj * instances,
                              c.updates * level.update_pj * instances};
            b.level_metadata[i] +=
                (c.metadata_reads * level.read_pj + c.metadata_fills * level.write_pj) * instances;
            // Words that cross into the PE array ride a network from this level.
            if (!acc.kept || c.child_side_words == 0) continue;
            const bool is_output = s == output;
            const std::size_t child = acc.child < 0 ? arch.num_levels : std::size_t(acc.child);
            const AxisMask axes = shared_axes(spread, problem.projection(s), i, child);
            const DeliveryKind kind =
                axes == 0 ? DeliveryKind::unicast
                          : (is_output ? DeliveryKind::reduction : DeliveryKind::multicast);
            const int n = arch.network_for(i, s, kind, axes);
            if (n < 0) continue;
            b.network[std::size_t(n)][si] +=
                c.child_side_words * instances * arch.networks[std::size_t(n)].hop_pj;
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

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping) {
    Evaluation e;
    e.violation = check_mapping_structure(arch, problem.space, mapping);
    if (e.violation) return e;
    analyze_nest(problem, mapping, e.nest);
    dense_action_counts(e.nest, e.counts);
    e.violation = check_capacity(arch, e.nest);
    if (e.violation) return e;
    add_latency(arch, problem, e);
    add_energy(arch, problem, mapping, e);
    e.area_um2 = arch.area_um2();
    return e;
}

Evaluation evaluate(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                    const PhaseDensities& densities, const ImbalanceOptions& imbalance) {
    Evaluation e;
    e.sparse = true;
    for (DataSpace s : kAllDataSpaces) e.densities[s] = densities.of(s).density;
    e.violation = check_mapping_structure(arch, problem.space, mapping);
    if (e.violation) return e;
    analyze_nest(problem, mapping, e.nest);
    sparse_action_counts(arch, problem, e.nest, densities, e.counts);
    e.violation = check_capacity(arch, e.counts);
    if (e.violation) return e;
    e.imbalance = estimate_load_imbalance(arch, problem, mapping, e.nest, densities, imbalance);
    add_latency(arch, problem, e);
    add_energy(arch, problem, mapping, e);
    e.area_um2 = arch.area_um2();
    return e;
}

}  // namespace trainloop
