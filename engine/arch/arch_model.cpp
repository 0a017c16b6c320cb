#include "arch/arch_model.hpp"

#include <fmt/format.h>

#include <numeric>

#include "common/spec_error.hpp"
#include "components/component_pricing.hpp"

namespace trainloop {
namespace {

const Component& component(const Architecture& arch, const std::string& name) {
    const Component* c = arch.components.find(name);
    if (c == nullptr) {  // the parser resolves every reference; this is a bug
        throw std::logic_error(fmt::format("component `{}` not in the library", name));
    }
    return *c;
}

DeliveryKind delivery_kind(NetworkKind kind) {
    switch (kind) {
        case NetworkKind::broadcast:
        case NetworkKind::multicast:
            return DeliveryKind::multicast;
        case NetworkKind::reduction:
            return DeliveryKind::reduction;
        case NetworkKind::unicast:
            return DeliveryKind::unicast;
    }
    return DeliveryKind::unicast;
}

void add_conditions(const SparseActionEntry& entry, PhaseDataSpaces& sets) {
    for (Phase p : kAllPhases) {
        if (!entry.in_phase[p]) continue;
        for (DataSpace s : kAllDataSpaces) {
            if (entry.condition_on.contains(s)) sets.insert(s, p);
        }
    }
}

void add_sparse_features(const Architecture& arch, ArchModel& model) {
    const SparseFeatures& sparse = arch.sparse;
    model.has_sparse_features = !sparse.dense();
    model.load_balancing = sparse.load_balancing;
    for (const FormatEntry& f : sparse.formats) {
        for (Phase p : kAllPhases) {
            if (!f.in_phase[p]) continue;
            LevelModel& level = model.levels[*arch.level_index(f.level)];
            level.format[f.data_space][p] = f.format;
            level.index_bits[f.data_space][p] = f.index_bits;
            level.ranks[f.data_space][p] = f.ranks;
        }
    }
    PhaseDataSpaces gate_saves_accesses;
    const auto add = [&](const std::vector<SparseActionEntry>& entries, bool skip) {
        for (const SparseActionEntry& e : entries) {
            if (e.level == kComputeLevel) {
                add_conditions(e, skip ? model.compute_skip : model.compute_gate);
                if (!skip) {
                    add_conditions(
                        e, e.saves_mac_only ? model.compute_gate_mac_only : gate_saves_accesses);
                }
                continue;
            }
            LevelModel& level = model.levels[*arch.level_index(e.level)];
            add_conditions(e,
                           skip ? level.skip_when_zero[e.target] : level.gate_when_zero[e.target]);
        }
    };
    add(sparse.skipping, true);
    add(sparse.gating, false);
    // A condition some entry gates with its accesses saves them.
    for (Phase p : kAllPhases) {
        for (DataSpace s : kAllDataSpaces) {
            if (gate_saves_accesses.in(p).contains(s))
                model.compute_gate_mac_only.by_phase[p].erase(s);
        }
    }
}

}  // namespace

int ArchModel::network_for(std::size_t parent, DataSpace space, DeliveryKind kind,
                           AxisMask axes) const {
    int unicast = -1;
    for (std::size_t n = 0; n < num_networks; ++n) {
        const NetworkModel& net = networks[n];
        if (std::size_t(net.parent) != parent || !net.carries.contains(space)) continue;
        if (net.kind == kind && (net.axes & axes) == axes) return int(n);
        if (net.kind == DeliveryKind::unicast && unicast < 0) unicast = int(n);
    }
    return unicast;
}

bool ArchModel::has_network_from(std::size_t parent, DataSpace space) const {
    for (std::size_t n = 0; n < num_networks; ++n) {
        if (std::size_t(networks[n].parent) == parent && networks[n].carries.contains(space))
            return true;
    }
    return false;
}

double ArchModel::component_area_um2(std::size_t component) const {
    if (component < num_levels)
        return levels[component].area_um2 * double(levels[component].instances);
    if (component == num_levels) return mac_area_um2 * double(num_macs());
    return 0.0;
}

double ArchModel::area_um2() const {
    double area = 0;
    for (std::size_t c = 0; c <= num_levels; ++c) area += component_area_um2(c);
    return area + units_area_um2;
}

ArchModel build_arch_model(const Architecture& arch) {
    if (arch.levels.size() > kMaxLevels || arch.networks.size() > kMaxNetworks) {
        throw SpecError(
            {arch.name, 0, 0}, "",
            fmt::format("{} storage levels and {} networks: the evaluator supports at "
                        "most {} and {}",
                        arch.levels.size(), arch.networks.size(), kMaxLevels, kMaxNetworks),
            "a smaller hierarchy");
    }
    ArchModel model;
    model.num_levels = arch.levels.size();
    model.pe_rows = arch.pe_array.rows;
    model.pe_columns = arch.pe_array.columns;
    model.macs_per_pe = arch.pe_array.macs_per_pe;
    model.clock_ghz = arch.clock_ghz;
    model.phase_units = arch.pe_array.phase_units;
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const StorageLevel& level = arch.levels[i];
        LevelModel& out = model.levels[i];
        out.instances = level.instances;
        if (level.per_pe || level.instances == arch.pe_array.num_pes()) {
            out.mesh_x = arch.pe_array.columns;
            out.mesh_y = arch.pe_array.rows;
        } else {
            // A level shared by groups of PEs: as many instances along a row
            // as divide it, the rest down the columns.
            out.mesh_x = std::gcd(level.instances, arch.pe_array.columns);
            out.mesh_y = level.instances / out.mesh_x;
        }
        out.capacity_words = level.capacity_words().value_or(-1);
        if (level.metadata_share && out.capacity_words >= 0) {
            // Chen et al. 2024 §V-A: a share of a partitioned SRAM is reserved for indices.
            out.metadata_capacity_words =
                std::int64_t(std::floor(double(out.capacity_words) * *level.metadata_share));
            out.capacity_words -= out.metadata_capacity_words;
        }
        out.word_bits = level.word_bits;
        out.read_bandwidth = level.read_bandwidth.value_or(0.0);
        out.write_bandwidth = level.write_bandwidth.value_or(0.0);
        out.shared_bandwidth = level.shared_bandwidth.value_or(0.0);
        out.may_hold = level.data_spaces;
        const PricedComponent priced = price_component(component(arch, level.component),
                                                       level.capacity_bytes, level.word_bits);
        out.read_pj = priced.read_pj;
        out.write_pj = priced.write_pj;
        out.update_pj = priced.update_pj;
        out.leakage_mw = priced.leakage_mw;
        out.area_um2 = priced.area_um2;
    }
    const PricedComponent mac = price_component(component(arch, arch.pe_array.mac_component),
                                                std::nullopt, arch.pe_array.word_bits());
    model.mac_pj = mac.mac_pj;
    model.mac_leakage_mw = mac.leakage_mw;
    model.mac_area_um2 = mac.area_um2;
    for (std::size_t n = 0; n < arch.networks.size(); ++n) {
        const OnChipNetwork& net = arch.networks[n];
        NetworkModel& out = model.networks[n];
        out.parent = std::int64_t(*arch.level_index(net.parent));
        out.carries = net.data_spaces;
        out.kind = delivery_kind(net.kind);
        out.axes = net.axis == ArrayAxis::x   ? kAxisX
                   : net.axis == ArrayAxis::y ? kAxisY
                                              : AxisMask(kAxisX | kAxisY);
        out.topology = net.topology;
        out.bandwidth = net.bandwidth.value_or(0.0);
        if (net.hop_energy_pj) {
            out.hop_pj = *net.hop_energy_pj;
            out.router_pj = net.router_energy_pj.value_or(0.0);
        } else {
            const PricedComponent priced = price_component(component(arch, *net.component),
                                                           std::nullopt, arch.pe_array.word_bits());
            out.hop_pj = priced.hop_pj;
            out.router_pj = priced.router_pj;
        }
    }
    model.num_networks = arch.networks.size();
    for (const LogicUnit& unit : arch.units)
        model.units_area_um2 += unit_area_um2(unit, arch.components);
    add_sparse_features(arch, model);
    return model;
}

}  // namespace trainloop
