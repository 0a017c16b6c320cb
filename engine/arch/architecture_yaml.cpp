#include "arch/architecture_yaml.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

#include "common/yaml_text.hpp"

namespace trainloop {
namespace {

// "128 KB" when a whole number of KB or MB (KB = 1024 B, as the parser
// reads it), else the byte count.
std::string capacity_text(std::int64_t bytes) {
    constexpr std::int64_t kKiB = 1024;
    if (bytes > 0 && bytes % (kKiB * kKiB) == 0)
        return yaml_scalar(fmt::format("{} MB", bytes / (kKiB * kKiB)));
    if (bytes > 0 && bytes % kKiB == 0) return yaml_scalar(fmt::format("{} KB", bytes / kKiB));
    return fmt::format("{}", bytes);
}

std::string data_spaces_text(const DataSpaceSet& set) {
    std::vector<std::string_view> names;
    for (DataSpace s : kAllDataSpaces) {
        if (set.contains(s)) names.push_back(data_space_name(s));
    }
    return fmt::format("[{}]", fmt::join(names, ", "));
}

// `{k: v, ...}` from key/value pairs already in YAML form.
using Fields = std::vector<std::pair<std::string, std::string>>;

std::string flow_map(const Fields& fields) {
    std::vector<std::string> parts;
    for (const auto& [key, value] : fields) parts.push_back(key + ": " + value);
    return fmt::format("{{{}}}", fmt::join(parts, ", "));
}

std::string level_text(const StorageLevel& level) {
    Fields f = {
        {"name", yaml_scalar(level.name)},
        {"class", std::string(storage_class_name(level.storage_class))},
        {"capacity", level.capacity_bytes ? capacity_text(*level.capacity_bytes) : "unbounded"},
        {"word_bits", fmt::format("{}", level.word_bits)}};
    if (level.read_bandwidth) f.emplace_back("read_bandwidth", yaml_number(*level.read_bandwidth));
    if (level.write_bandwidth)
        f.emplace_back("write_bandwidth", yaml_number(*level.write_bandwidth));
    if (level.shared_bandwidth)
        f.emplace_back("shared_bandwidth", yaml_number(*level.shared_bandwidth));
    if (level.metadata_share) f.emplace_back("metadata_share", yaml_number(*level.metadata_share));
    f.emplace_back("data_spaces", data_spaces_text(level.data_spaces));
    if (level.per_pe) {
        f.emplace_back("per_pe", "true");
    } else if (level.instances != 1) {
        f.emplace_back("instances", fmt::format("{}", level.instances));
    }
    f.emplace_back("component", yaml_scalar(level.component));
    return flow_map(f);
}

std::string network_text(const OnChipNetwork& n) {
    Fields f = {{"name", yaml_scalar(n.name)},
                {"axis", std::string(array_axis_name(n.axis))},
                {"kind", std::string(network_kind_name(n.kind))},
                {"data_spaces", data_spaces_text(n.data_spaces)},
                {"parent", yaml_scalar(n.parent)}};
    if (n.child) f.emplace_back("child", yaml_scalar(*n.child));
    if (n.topology != NetworkTopology::bus)
        f.emplace_back("topology", std::string(network_topology_name(n.topology)));
    if (n.bandwidth) f.emplace_back("bandwidth", yaml_number(*n.bandwidth));
    if (n.hop_energy_pj) f.emplace_back("hop_energy_pj", yaml_number(*n.hop_energy_pj));
    if (n.router_energy_pj) f.emplace_back("router_energy_pj", yaml_number(*n.router_energy_pj));
    if (n.component) f.emplace_back("component", yaml_scalar(*n.component));
    return flow_map(f);
}

// A `phases:` field, unless the entry acts in all three phases.
void add_phases(const PerPhase<bool>& in_phase, Fields& fields) {
    if (in_phase == PerPhase<bool>{true, true, true}) return;
    std::string phases;
    for (Phase p : kAllPhases) {
        if (!in_phase[p]) continue;
        phases += phases.empty() ? "[" : ", ";
        phases += phase_name(p);
    }
    fields.emplace_back("phases", phases + "]");
}

std::string sparse_actions_text(const char* key, const std::vector<SparseActionEntry>& entries) {
    if (entries.empty()) return {};
    std::string out = fmt::format("  {}:\n", key);
    for (const SparseActionEntry& e : entries) {
        Fields fields = {{"level", yaml_scalar(e.level)},
                         {"target", std::string(data_space_name(e.target))},
                         {"condition_on", data_spaces_text(e.condition_on)}};
        add_phases(e.in_phase, fields);
        if (e.saves_mac_only) fields.push_back({"saves", "mac"});
        out += fmt::format("    - {}\n", flow_map(fields));
    }
    return out;
}

std::string sparse_text(const SparseFeatures& sparse) {
    if (sparse.dense()) return {};
    std::string out = "sparse:\n";
    if (!sparse.formats.empty()) {
        out += "  formats:\n";
        for (const FormatEntry& f : sparse.formats) {
            Fields fields = {{"level", yaml_scalar(f.level)},
                             {"data_space", std::string(data_space_name(f.data_space))},
                             {"format", std::string(compressed_format_name(f.format))}};
            if (!f.ranks.empty()) {
                std::vector<std::string_view> names;
                for (RankFormat r : f.ranks) names.push_back(rank_format_name(r));
                fields.push_back({"ranks", fmt::format("[{}]", fmt::join(names, ", "))});
            }
            if (f.index_bits > 0) fields.push_back({"index_bits", std::to_string(f.index_bits)});
            add_phases(f.in_phase, fields);
            out += fmt::format("    - {}\n", flow_map(fields));
        }
    }
    out += sparse_actions_text("skipping", sparse.skipping);
    out += sparse_actions_text("gating", sparse.gating);
    const LoadBalancing& lb = sparse.load_balancing;
    if (lb.scheme != LoadBalancingScheme::none) {
        Fields f = {{"scheme", std::string(load_balancing_scheme_name(lb.scheme))}};
        if (lb.axis) f.emplace_back("axis", std::string(array_axis_name(*lb.axis)));
        out += fmt::format("  load_balancing: {}\n", flow_map(f));
    }
    return out;
}

// The keys of one priced point (capacity excluded), for a component of class `c`.
Fields point_fields(const ComponentPoint& p, ComponentClass c) {
    Fields f;
    if (c != ComponentClass::logic) f.emplace_back("word_bits", fmt::format("{}", p.word_bits));
    for (Action a : component_actions(c)) {
        if (const auto pj = p.energy.get(a))
            f.emplace_back(fmt::format("{}_pj", action_name(a)), yaml_number(*pj));
    }
    if (c != ComponentClass::logic) f.emplace_back("leakage_mw", yaml_number(p.leakage_mw));
    f.emplace_back("area_um2", yaml_number(p.area_um2));
    return f;
}

}  // namespace

std::string architecture_to_yaml(const Architecture& arch, const std::string& component_library) {
    std::string out = fmt::format("architecture: {}\n", yaml_scalar(arch.name));
    if (!arch.description.empty())
        out += fmt::format("description: {}\n", yaml_scalar(arch.description));
    if (!arch.source.empty()) out += fmt::format("source: {}\n", yaml_scalar(arch.source));
    out += fmt::format("clock_ghz: {}\n", yaml_number(arch.clock_ghz));
    out += fmt::format("component_library: {}\n", yaml_scalar(component_library));
    const PeArray& a = arch.pe_array;
    Fields pe = {{"rows", fmt::format("{}", a.rows)},
                 {"columns", fmt::format("{}", a.columns)},
                 {"macs_per_pe", fmt::format("{}", a.macs_per_pe)},
                 {"datatype", std::string(datatype_name(a.datatype))},
                 {"mac_component", yaml_scalar(a.mac_component)}};
    if (a.phase_units != PhaseUnits::shared)
        pe.push_back({"phase_units", std::string(phase_units_name(a.phase_units))});
    out += fmt::format("pe_array: {}\n", flow_map(pe));
    out += "storage:                # outermost first\n";
    for (const StorageLevel& level : arch.levels) out += fmt::format("  - {}\n", level_text(level));
    out += arch.networks.empty() ? "networks: []\n" : "networks:\n";
    for (const OnChipNetwork& n : arch.networks) out += fmt::format("  - {}\n", network_text(n));
    if (!arch.units.empty()) {
        out += "units:\n";
        for (const LogicUnit& u : arch.units) {
            Fields f = {{"name", yaml_scalar(u.name)}, {"component", yaml_scalar(u.component)}};
            if (u.per_pe) {
                f.emplace_back("per_pe", "true");
            } else {
                f.emplace_back("instances", fmt::format("{}", u.instances));
            }
            out += fmt::format("  - {}\n", flow_map(f));
        }
    }
    out += sparse_text(arch.sparse);
    if (const auto& c = arch.cartesian) {
        Fields f = {{"pe_rows", fmt::format("{}", c->tiles_h)},
                    {"pe_columns", fmt::format("{}", c->tiles_w)},
                    {"filter_vector", fmt::format("{}", c->filter_vector)},
                    {"input_vector", fmt::format("{}", c->input_vector)},
                    {"accumulator_banks", fmt::format("{}", c->accumulator_banks)},
                    {"tiling", std::string(cartesian_tiling_name(c->tiling))},
                    {"predictor", c->predictor ? "true" : "false"},
                    {"sample_tiles", fmt::format("{}", c->sample_tiles)}};
        // Written where they differ from the defaults, so that an architecture without
        // them reads back as the text it was before they existed.
        if (c->filter_groups != 1)
            f.emplace_back("filter_groups", fmt::format("{}", c->filter_groups));
        if (c->bank_stalls != CartesianBankStalls::unbuffered)
            f.emplace_back("bank_stalls", std::string(cartesian_bank_stalls_name(c->bank_stalls)));
        out += fmt::format("cartesian_product: {}\n", flow_map(f));
    }
    return out;
}

std::string component_library_to_yaml(const ComponentLibrary& library) {
    std::string out = fmt::format("components: {}\n", yaml_scalar(library.name));
    if (!library.technology.empty())
        out += fmt::format("technology: {}\n", yaml_scalar(library.technology));
    if (!library.description.empty())
        out += fmt::format("description: {}\n", yaml_scalar(library.description));
    out += library.components.empty() ? "entries: []\n" : "entries:\n";
    for (const Component& c : library.components) {
        out += fmt::format("  - name: {}\n", yaml_scalar(c.name));
        out += fmt::format("    class: {}\n", component_class_name(c.component_class));
        if (!c.description.empty())
            out += fmt::format("    description: {}\n", yaml_scalar(c.description));
        if (is_table_class(c.component_class)) {
            out += fmt::format("    outside_table: {}\n", outside_table_name(c.outside_table));
            out += "    table:\n";
            for (const ComponentPoint& p : c.points) {
                Fields f = {{"capacity", capacity_text(p.capacity_bytes.value_or(0))}};
                const Fields rest = point_fields(p, c.component_class);
                f.insert(f.end(), rest.begin(), rest.end());
                out += fmt::format("      - {}\n", flow_map(f));
            }
            continue;
        }
        // One point: its keys sit on the entry itself.
        if (c.points.empty()) continue;
        for (const auto& [key, value] : point_fields(c.points.front(), c.component_class))
            out += fmt::format("    {}: {}\n", key, value);
    }
    return out;
}

}  // namespace trainloop
