#include "arch/architecture_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/checked_math.hpp"
#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"
#include "common/quantities.hpp"
#include "common/spec_reading.hpp"
#include "components/component_library_parser.hpp"
#include "vocabulary/data_space_reading.hpp"

namespace trainloop {
namespace {

using spec_reading::fail_duplicate_name;
using spec_reading::fail_unknown_name;
using spec_reading::read_enum;
using spec_reading::read_name;

std::vector<std::string> level_names(const std::vector<StorageLevel>& levels) {
    std::vector<std::string> names;
    for (const StorageLevel& level : levels) names.push_back(level.name);
    return names;
}

std::optional<std::size_t> index_of(const std::vector<StorageLevel>& levels,
                                    const std::string& name) {
    for (std::size_t i = 0; i < levels.size(); ++i) {
        if (levels[i].name == name) return i;
    }
    return std::nullopt;
}

ComponentClass component_class_of(StorageClass c) {
    switch (c) {
        case StorageClass::dram:
            return ComponentClass::dram;
        case StorageClass::sram:
            return ComponentClass::sram;
        case StorageClass::regfile:
            return ComponentClass::regfile;
    }
    return ComponentClass::sram;
}

// `node` names a component of `library` of class `wanted`.
void check_component(const SpecNode& node, const std::string& name, ComponentClass wanted,
                     const ComponentLibrary& library, std::string_view default_note = {}) {
    const Component* component = library.find(name);
    if (component == nullptr) {
        std::vector<std::string> candidates;
        for (const Component& c : library.components) {
            if (c.component_class == wanted) candidates.push_back(c.name);
        }
        std::string expected;
        for (const auto& c : candidates) expected += (expected.empty() ? "" : ", ") + c;
        node.fail(fmt::format("unknown component `{}`{} in library `{}`", name, default_note,
                              library.name),
                  candidates.empty() ? fmt::format("a {} component", component_class_name(wanted))
                                     : fmt::format("a {} component: one of {}",
                                                   component_class_name(wanted), expected),
                  nearest_name(name, candidates)
                      ? suggestion_hint(name, candidates)
                      : std::string("add it to the library or under `component_overrides`"));
    }
    if (component->component_class != wanted) {
        node.fail(fmt::format("component `{}` is a {} component", name,
                              component_class_name(component->component_class)),
                  fmt::format("a {} component", component_class_name(wanted)));
    }
}

// The shipped component libraries (arch_specs/components/), by name.
std::filesystem::path shipped_libraries() { return data_directory() / "arch_specs/components"; }

// The library a `component_library:` value names: a file relative to the
// architecture file, else a shipped library by name (`default_45nm`, with or
// without `.yaml`), so a spec outside the source tree can use one without an
// absolute path into it. Fails naming both places looked in.
std::filesystem::path resolve_library(const SpecNode& path_node, const SpecNode& root) {
    const std::string value = path_node.as_string();
    const std::filesystem::path relative = value;
    // operator/ keeps an absolute right-hand side as is.
    const std::filesystem::path next_to_file =
        (std::filesystem::path(root.file()).parent_path() / relative).lexically_normal();
    if (is_regular_file_path(next_to_file)) return next_to_file;
    std::vector<std::string> shipped;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(shipped_libraries(), ec)) {
        if (entry.path().extension() == ".yaml") shipped.push_back(entry.path().stem().string());
    }
    std::sort(shipped.begin(), shipped.end());
    if (relative.has_filename() && !relative.has_parent_path()) {
        const std::string stem = relative.extension() == ".yaml" ? relative.stem().string() : value;
        if (std::find(shipped.begin(), shipped.end(), stem) != shipped.end()) {
            return shipped_libraries() / (stem + ".yaml");
        }
    }
    std::string names;
    for (const std::string& n : shipped) names += (names.empty() ? "" : ", ") + n;
    path_node.fail(fmt::format("component library `{}` not found (looked for {}, and for a "
                               "shipped library of that name)",
                               value, next_to_file.string()),
                   "a component library YAML file, relative to this file, or a shipped "
                   "library's name: " +
                       names);
}

// Loads the library the file names (resolve_library) and applies the file's
// overrides; records the resolved path in `arch`.
ComponentLibrary read_library(MapReader& top, const SpecNode& root, Architecture& arch) {
    const SpecNode path_node = top.required("component_library");
    const std::filesystem::path resolved = resolve_library(path_node, root);
    arch.component_library_path = resolved.string();
    ComponentLibrary library = load_referenced(path_node, "component library",
                                               [&] { return load_component_library(resolved); });
    if (const auto overrides = top.optional("component_overrides")) {
        // An override replaces the library entry of the same name, or adds one.
        for (Component& component : parse_component_list(*overrides)) {
            bool replaced = false;
            for (Component& existing : library.components) {
                if (existing.name == component.name) {
                    existing = component;
                    replaced = true;
                }
            }
            if (!replaced) library.components.push_back(std::move(component));
        }
    }
    return library;
}

PeArray read_pe_array(const SpecNode& node, const ComponentLibrary& library) {
    MapReader reader(node);
    reader.allow({"rows", "columns", "macs_per_pe", "datatype", "mac_component", "phase_units"});
    reader.finish();
    PeArray array;
    array.rows = reader.required("rows").as_positive_int();
    array.columns = reader.required("columns").as_positive_int();
    if (const auto macs = reader.optional("macs_per_pe"))
        array.macs_per_pe = macs->as_positive_int();
    // PE and MAC counts multiply into instance counts, fanouts and MACs per cycle.
    if (!count_product(std::array{array.rows, array.columns, array.macs_per_pe})) {
        node.fail(fmt::format("{} rows × {} columns × {} MACs per PE is more than {} MACs",
                              array.rows, array.columns, array.macs_per_pe, kMaxCountText),
                  "a PE array of representable size");
    }
    const SpecNode datatype = reader.required("datatype");
    array.datatype = read_enum<Datatype>(datatype, kDatatypeNames);
    if (const auto units = reader.optional("phase_units"))
        array.phase_units = read_enum<PhaseUnits>(*units, kPhaseUnitsNames);
    const auto mac_node = reader.optional("mac_component");
    const SpecNode& where = mac_node ? *mac_node : datatype;
    array.mac_component =
        mac_node ? mac_node->as_string() : fmt::format("{}_mac", datatype_name(array.datatype));
    check_component(where, array.mac_component, ComponentClass::mac, library,
                    mac_node ? "" : " (the default for this datatype)");
    const std::int64_t bits = library.find(array.mac_component)->points.front().word_bits;
    if (bits != array.word_bits()) {
        where.fail(fmt::format("MAC component `{}` works on {}-bit words, but {} is {} bits",
                               array.mac_component, bits, datatype_name(array.datatype),
                               array.word_bits()),
                   "a MAC component of the datatype's width");
    }
    return array;
}

StorageLevel read_level(const SpecNode& node, const PeArray& array,
                        const ComponentLibrary& library) {
    MapReader reader(node);
    reader.allow({"name", "class", "capacity", "word_bits", "read_bandwidth", "write_bandwidth",
                  "shared_bandwidth", "data_spaces", "instances", "per_pe", "component",
                  "metadata_share"});
    reader.finish();
    StorageLevel level;
    const SpecNode name = reader.required("name");
    level.name = read_name(name);
    if (level.name == kComputeLevel) {
        name.fail(fmt::format("`{}` is reserved for the MAC datapath", kComputeLevel),
                  "another level name");
    }
    const SpecNode class_node = reader.required("class");
    level.storage_class = read_enum<StorageClass>(class_node, kStorageClassNames);

    const SpecNode capacity = reader.required("capacity");
    level.capacity_location = capacity.location();
    level.capacity_key = capacity.path();
    if (capacity.is_scalar() && capacity.as_string() == "unbounded") {
        if (level.storage_class != StorageClass::dram) {
            capacity.fail("only a dram level may be unbounded",
                          "a byte count such as 1024, \"128 KB\" or \"2 MiB\"");
        }
    } else {
        level.capacity_bytes = capacity.as_bytes();
    }
    const auto word_bits = reader.optional("word_bits");
    level.word_bits = word_bits ? read_width_bits(*word_bits) : array.word_bits();
    if (level.capacity_bytes && *level.capacity_bytes * 8 < level.word_bits) {
        capacity.fail(fmt::format("{} bytes cannot hold one {}-bit word", *level.capacity_bytes,
                                  level.word_bits),
                      "a capacity of at least one word");
    }
    if (const auto share = reader.optional("metadata_share")) {
        const double f = share->as_fraction();
        if (f <= 0 || f >= 1) {
            share->fail(fmt::format("a metadata share of {}", f),
                        "a fraction strictly between 0 and 1 (e.g. 0.2: a fifth of the capacity "
                        "for metadata)",
                        "leave it out for a unified SRAM, where data and metadata share the "
                        "capacity");
        }
        if (!level.capacity_bytes) {
            share->fail("a metadata share on an unbounded level", "a level with a capacity");
        }
        level.metadata_share = f;
    }
    if (const auto bw = reader.optional("read_bandwidth"))
        level.read_bandwidth = read_positive_quantity(*bw, Quantity::bandwidth);
    if (const auto bw = reader.optional("write_bandwidth"))
        level.write_bandwidth = read_positive_quantity(*bw, Quantity::bandwidth);
    if (const auto bw = reader.optional("shared_bandwidth"))
        level.shared_bandwidth = read_positive_quantity(*bw, Quantity::bandwidth);
    level.data_spaces = read_data_space_set(reader.required("data_spaces"));

    const auto per_pe = reader.optional("per_pe");
    const auto instances = reader.optional("instances");
    level.per_pe = per_pe && per_pe->as_bool();
    if (level.per_pe) {
        if (instances) {
            instances->fail(
                "`instances` given together with `per_pe: true`",
                "either `per_pe: true` or `instances`, not both",
                fmt::format("a per-PE level has one instance per PE ({})", array.num_pes()));
        }
        level.instances = array.num_pes();
    } else if (instances) {
        level.instances = instances->as_positive_int();
        if (array.num_pes() % level.instances != 0) {
            instances->fail(
                fmt::format("{} instances do not divide the {} PEs ({}×{})", level.instances,
                            array.num_pes(), array.rows, array.columns),
                "a divisor of the number of PEs");
        }
    }

    const auto component = reader.optional("component");
    level.component =
        component ? component->as_string() : std::string(storage_class_name(level.storage_class));
    check_component(component ? *component : class_node, level.component,
                    component_class_of(level.storage_class), library,
                    component ? "" : " (the default for this class)");
    if (level.capacity_bytes) {
        if (const auto why =
                outside_table_error(*library.find(level.component), *level.capacity_bytes)) {
            capacity.fail(*why, "a capacity the component's table covers",
                          "extend the table (component_overrides) or choose another component");
        }
    }
    return level;
}

std::vector<StorageLevel> read_storage(const SpecNode& node, const PeArray& array,
                                       const ComponentLibrary& library) {
    const std::vector<SpecNode> items = node.items();
    if (items.empty()) node.fail("no storage levels", "at least one level, DRAM first");
    std::vector<StorageLevel> levels;
    std::vector<SpecNode> name_nodes;
    for (const SpecNode& item : items) {
        StorageLevel level = read_level(item, array, library);
        MapReader reader(item);
        const SpecNode name = reader.required("name");
        if (const auto i = index_of(levels, level.name)) {
            fail_duplicate_name(name, "level name", level.name, name_nodes[*i]);
        }
        if (!levels.empty()) {
            const StorageLevel& outer = levels.back();
            if (level.instances % outer.instances != 0) {
                const auto at = reader.optional("instances");
                const auto per_pe = reader.optional("per_pe");
                (at       ? *at
                 : per_pe ? *per_pe
                          : name)
                    .fail(fmt::format("{} instances under `{}`'s {}: an inner level must have a "
                                      "whole number of instances per outer instance",
                                      level.instances, outer.name, outer.instances),
                          fmt::format("a multiple of {}", outer.instances));
            }
        }
        name_nodes.push_back(name);
        levels.push_back(std::move(level));
    }
    for (DataSpace s : kAllDataSpaces) {
        bool held = false;
        for (const StorageLevel& level : levels) held = held || level.holds(s);
        if (!held) {
            node.fail(fmt::format("no storage level holds the `{}` data space", data_space_name(s)),
                      "every data space held by at least one level",
                      fmt::format("add `{}` to the data_spaces of a level (e.g. DRAM)",
                                  data_space_name(s)));
        }
    }
    return levels;
}

// `node` names a storage level; returns its index.
std::size_t read_level_ref(const SpecNode& node, const std::vector<StorageLevel>& levels) {
    const std::string name = node.as_string();
    const auto i = index_of(levels, name);
    if (!i) fail_unknown_name(node, "storage level", name, level_names(levels));
    return *i;
}

void check_holds(const SpecNode& node, const StorageLevel& level, const DataSpaceSet& spaces,
                 std::string_view role) {
    for (DataSpace s : kAllDataSpaces) {
        if (spaces.contains(s) && !level.holds(s)) {
            node.fail(
                fmt::format("{} `{}` does not hold the `{}` data space", role, level.name,
                            data_space_name(s)),
                fmt::format("a level holding {}", data_space_set_text(spaces)),
                fmt::format("`{}` holds {}", level.name, data_space_set_text(level.data_spaces)));
        }
    }
}

OnChipNetwork read_network(const SpecNode& node, const std::vector<StorageLevel>& levels,
                           const ComponentLibrary& library) {
    MapReader reader(node);
    reader.allow({"name", "axis", "kind", "topology", "data_spaces", "parent", "child", "bandwidth",
                  "hop_energy_pj", "router_energy_pj", "component"});
    reader.finish();
    OnChipNetwork network;
    network.name = read_name(reader.required("name"));
    const SpecNode axis = reader.required("axis");
    network.axis = read_enum<ArrayAxis>(axis, kArrayAxisNames);
    network.kind = read_enum<NetworkKind>(reader.required("kind"), kNetworkKindNames);
    if (const auto topology = reader.optional("topology")) {
        network.topology = read_enum<NetworkTopology>(*topology, kNetworkTopologyNames);
        if (!topology_fits_axis(network.topology, network.axis)) {
            const bool two_d = network.axis == ArrayAxis::both;
            topology->fail(
                fmt::format("a {} network cannot run along axis `{}`",
                            network_topology_name(network.topology), array_axis_name(network.axis)),
                two_d ? "bus, mesh or torus for axis `both`"
                      : "bus, ring or systolic for axis `x` or `y`",
                two_d ? "set `axis` to x or y for a ring or systolic chain"
                      : "set `axis: both` for a mesh or torus");
        }
    }
    const auto spaces = reader.optional("data_spaces");
    if (spaces) network.data_spaces = read_data_space_set(*spaces);

    const SpecNode parent = reader.required("parent");
    const std::size_t parent_index = read_level_ref(parent, levels);
    network.parent = levels[parent_index].name;
    check_holds(spaces ? *spaces : parent, levels[parent_index], network.data_spaces, "parent");
    if (const auto child = reader.optional("child")) {
        const std::size_t child_index = read_level_ref(*child, levels);
        if (child_index <= parent_index) {
            child->fail(fmt::format("child `{}` is not below parent `{}`", levels[child_index].name,
                                    network.parent),
                        "a level listed after the parent in `storage`");
        }
        network.child = levels[child_index].name;
        check_holds(spaces ? *spaces : *child, levels[child_index], network.data_spaces, "child");
    }
    if (const auto bw = reader.optional("bandwidth"))
        network.bandwidth = read_positive_quantity(*bw, Quantity::bandwidth);

    const auto hop = reader.optional("hop_energy_pj");
    const auto router = reader.optional("router_energy_pj");
    const auto component = reader.optional("component");
    if (hop && component) {
        component->fail("both `hop_energy_pj` and `component` given",
                        "one of them: an inline hop energy or a network component");
    }
    if (router && !hop) {
        router->fail("`router_energy_pj` without `hop_energy_pj`",
                     "an inline router energy next to an inline hop energy",
                     "a network component gives its router energy as `router_pj`");
    }
    if (router) network.router_energy_pj = read_non_negative_quantity(*router, Quantity::energy);
    if (hop) {
        network.hop_energy_pj = read_positive_quantity(*hop, Quantity::energy);
    } else {
        network.component = component ? component->as_string() : std::string("array_network");
        check_component(component ? *component : reader.required("name"), *network.component,
                        ComponentClass::network, library,
                        component ? "" : " (the default network component)");
    }
    return network;
}

std::vector<OnChipNetwork> read_networks(const SpecNode& node,
                                         const std::vector<StorageLevel>& levels,
                                         const ComponentLibrary& library) {
    std::vector<OnChipNetwork> networks;
    std::vector<SpecNode> name_nodes;
    for (const SpecNode& item : node.items()) {
        OnChipNetwork network = read_network(item, levels, library);
        const SpecNode name = MapReader(item).required("name");
        for (std::size_t i = 0; i < networks.size(); ++i) {
            if (networks[i].name == network.name) {
                fail_duplicate_name(name, "network name", network.name, name_nodes[i]);
            }
        }
        name_nodes.push_back(name);
        networks.push_back(std::move(network));
    }
    return networks;
}

PerPhase<bool> read_phase_set(const SpecNode& node);

LogicUnit read_unit(const SpecNode& node, const PeArray& array, const ComponentLibrary& library) {
    MapReader reader(node);
    reader.allow({"name", "component", "instances", "per_pe"});
    reader.finish();
    LogicUnit unit;
    unit.name = read_name(reader.required("name"));
    const SpecNode component = reader.required("component");
    unit.component = component.as_string();
    check_component(component, unit.component, ComponentClass::logic, library);
    const auto per_pe = reader.optional("per_pe");
    const auto instances = reader.optional("instances");
    unit.per_pe = per_pe && per_pe->as_bool();
    if (unit.per_pe) {
        if (instances) {
            instances->fail("`instances` given together with `per_pe: true`",
                            "either `per_pe: true` or `instances`, not both");
        }
        unit.instances = array.num_pes();
    } else if (instances) {
        unit.instances = instances->as_positive_int();
    }
    return unit;
}

std::vector<LogicUnit> read_units(const SpecNode& node, const PeArray& array,
                                  const ComponentLibrary& library) {
    std::vector<LogicUnit> units;
    std::vector<SpecNode> name_nodes;
    for (const SpecNode& item : node.items()) {
        LogicUnit unit = read_unit(item, array, library);
        const SpecNode name = MapReader(item).required("name");
        for (std::size_t i = 0; i < units.size(); ++i) {
            if (units[i].name == unit.name)
                fail_duplicate_name(name, "unit name", unit.name, name_nodes[i]);
        }
        name_nodes.push_back(name);
        units.push_back(std::move(unit));
    }
    return units;
}

// One rank's format, in Sparseloop's names, upper or lower case as it takes them.
RankFormat read_rank_format(const SpecNode& node) {
    if (node.is_scalar()) {
        if (const auto format = rank_format_named(node.as_string())) return *format;
    }
    return read_enum<RankFormat>(node, kRankFormatNames);  // fails, naming the valid ones
}

// `format:`, or `ranks:` (a fibertree format: `format: fibertree` may be
// left out, and no other format has ranks).
void read_format(MapReader& reader, const SpecNode& item, FormatEntry& entry) {
    const auto ranks = reader.optional("ranks");
    const auto format = reader.optional("format");
    if (format) {
        entry.format = read_enum<CompressedFormat>(*format, kCompressedFormatNames);
    } else if (ranks) {
        entry.format = CompressedFormat::fibertree;
    } else {
        item.fail("a format entry without `format` or `ranks`", "`format:` or `ranks:`",
                  "add `format: csr` (or another format), or `ranks: [UOP, CP]`");
    }
    if (!ranks) {
        if (entry.format == CompressedFormat::fibertree) {
            format->fail("format `fibertree` without `ranks`", "`ranks:`: a list of rank formats",
                         "add `ranks: [UOP, CP]` (top rank first)");
        }
        return;
    }
    if (entry.format != CompressedFormat::fibertree) {
        ranks->fail(fmt::format("`ranks` on format `{}`", compressed_format_name(entry.format)),
                    "`ranks` only with format fibertree",
                    "remove `format:` (ranks make a fibertree format), or remove `ranks:`");
    }
    const std::vector<SpecNode> items =
        ranks->is_sequence() ? ranks->items() : std::vector<SpecNode>{};
    if (items.empty()) {
        ranks->fail(
            "`ranks` is not a list of rank formats",
            fmt::format("a list of 1 to {} of {}", kMaxRanks, fmt::join(kRankFormatNames, ", ")));
    }
    if (items.size() > kMaxRanks) {
        items[kMaxRanks].fail(fmt::format("{} ranks", items.size()),
                              fmt::format("at most {} ranks", kMaxRanks),
                              "a tile with more loops than ranks flattens the outer loops into "
                              "the top rank: list fewer");
    }
    for (const SpecNode& rank : items) entry.ranks.push_back(read_rank_format(rank));
}

std::vector<FormatEntry> read_formats(const SpecNode& node,
                                      const std::vector<StorageLevel>& levels) {
    std::vector<FormatEntry> formats;
    for (const SpecNode& item : node.items()) {
        MapReader reader(item);
        reader.allow({"level", "data_space", "format", "ranks", "index_bits", "phases"});
        reader.finish();
        FormatEntry entry;
        const std::size_t level = read_level_ref(reader.required("level"), levels);
        entry.level = levels[level].name;
        const SpecNode space = reader.required("data_space");
        entry.data_space = read_data_space(space);
        DataSpaceSet one;
        one.insert(entry.data_space);
        check_holds(space, levels[level], one, "level");
        read_format(reader, item, entry);
        if (const auto bits = reader.optional("index_bits")) {
            if (!has_index_fields(entry.format)) {
                bits->fail(
                    fmt::format("`index_bits` on format `{}`, which has no index fields",
                                compressed_format_name(entry.format)),
                    "`index_bits` only with format csr, rp_dual, rle or fibertree (`ranks:`)",
                    "remove `index_bits`, or use csr, rp_dual, rle or `ranks:`");
            }
            entry.index_bits = bits->as_positive_int();
            if (entry.index_bits > kMaxIndexBits) {
                bits->fail(fmt::format("`index_bits` {} is wider than {} bits", entry.index_bits,
                                       kMaxIndexBits),
                           fmt::format("an integer from 1 to {}", kMaxIndexBits));
            }
        }
        if (const auto phases = reader.optional("phases")) entry.in_phase = read_phase_set(*phases);
        for (const FormatEntry& f : formats) {
            if (f.level != entry.level || f.data_space != entry.data_space) continue;
            for (Phase p : kAllPhases) {
                if (f.in_phase[p] && entry.in_phase[p]) {
                    item.fail(
                        fmt::format("second format for `{}` at level `{}` in phase {}",
                                    data_space_name(entry.data_space), entry.level, phase_name(p)),
                        "one format per level, data space and phase",
                        "give the entries disjoint `phases:`");
                }
            }
        }
        formats.push_back(entry);
    }
    return formats;
}

// `phases:` of a format, skipping or gating entry: one phase name or a list of them.
PerPhase<bool> read_phase_set(const SpecNode& node) {
    PerPhase<bool> in_phase{};
    const std::vector<SpecNode> items =
        node.is_scalar() ? std::vector<SpecNode>{node} : node.items();
    if (items.empty()) node.fail("empty list of phases", "at least one of fw, bw, wu");
    for (const SpecNode& item : items) {
        const Phase p = *phase_from_name(item.as_choice({"fw", "bw", "wu"}));
        if (in_phase[p]) {
            item.fail(fmt::format("phase `{}` listed twice", phase_name(p)),
                      "each phase at most once");
        }
        in_phase[p] = true;
    }
    return in_phase;
}

std::vector<SparseActionEntry> read_sparse_actions(const SpecNode& node,
                                                   const std::vector<StorageLevel>& levels,
                                                   bool gating) {
    std::vector<SparseActionEntry> entries;
    for (const SpecNode& item : node.items()) {
        MapReader reader(item);
        reader.allow({"level", "target", "condition_on", "phases", "saves"});
        reader.finish();
        SparseActionEntry entry;
        const SpecNode level = reader.required("level");
        entry.level = level.as_string();
        const SpecNode target = reader.required("target");
        entry.target = read_data_space(target);
        if (entry.level != kComputeLevel) {
            const auto i = index_of(levels, entry.level);
            if (!i) {
                std::vector<std::string> known = level_names(levels);
                known.emplace_back(kComputeLevel);
                fail_unknown_name(level, "storage level", entry.level, known);
            }
            DataSpaceSet one;
            one.insert(entry.target);
            check_holds(target, levels[*i], one, "level");
        }
        entry.condition_on = read_data_space_set(reader.required("condition_on"));
        if (const auto phases = reader.optional("phases")) entry.in_phase = read_phase_set(*phases);
        if (const auto saves = reader.optional("saves")) {
            if (!gating || entry.level != kComputeLevel) {
                saves->fail(
                    fmt::format("`saves` on a {} entry at `{}`", gating ? "gating" : "skipping",
                                entry.level),
                    "`saves` only on a gating entry at `compute`",
                    "a skipped MAC or access is not done at all; a gated access saves its energy");
            }
            entry.saves_mac_only = saves->as_choice({"mac", "mac_and_accesses"}) == "mac";
        }
        entries.push_back(entry);
    }
    return entries;
}

// The load-imbalance model follows at most two skipping operands per phase
// (wave_shape.hpp); since a phase's output can be a condition (its known-zero
// mask), three are possible in the file.
void check_compute_skipping(const SpecNode& node, const std::vector<SparseActionEntry>& entries) {
    for (Phase phase : kAllPhases) {
        DataSpaceSet conditions;
        for (const SparseActionEntry& e : entries) {
            if (e.level != kComputeLevel || !e.in_phase[phase]) continue;
            for (DataSpace s : kAllDataSpaces) {
                if (e.condition_on.contains(s)) conditions.insert(s);
            }
        }
        if (conditions == DataSpaceSet::all()) {
            node.fail(fmt::format("skipping at `compute` in {} is conditioned on all three "
                                  "data spaces",
                                  phase_name(phase)),
                      "at most two condition data spaces per phase at `compute`",
                      "the load-imbalance model follows two skipping operands; restrict an "
                      "entry with `phases:`");
        }
    }
}

LoadBalancing read_load_balancing(const SpecNode& node) {
    MapReader reader(node);
    reader.allow({"scheme", "axis"});
    reader.finish();
    LoadBalancing balancing;
    balancing.scheme =
        read_enum<LoadBalancingScheme>(reader.required("scheme"), kLoadBalancingSchemeNames);
    const auto axis = reader.optional("axis");
    if (axis) balancing.axis = read_enum<ArrayAxis>(*axis, kArrayAxisNames);
    switch (balancing.scheme) {
        case LoadBalancingScheme::none:
            if (axis) axis->fail("an axis for load-balancing scheme `none`", "no `axis` key");
            break;
        case LoadBalancingScheme::half_tile_pairing:
        case LoadBalancingScheme::line_indexing: {
            // Procrustes §IV-C pairs half tiles along the one array dimension that carries
            // the sparse tensor dimension; a Cambricon-X row shares its output's work
            // among the PEs along it.
            const std::string name(load_balancing_scheme_name(balancing.scheme));
            if (!axis) {
                node.fail("load-balancing scheme `" + name + "` needs an `axis`",
                          "an `axis: x` or `axis: y` entry here",
                          balancing.scheme == LoadBalancingScheme::half_tile_pairing
                              ? "the axis of the PE array the sparse dimension is spread over"
                              : "the axis along which the PEs of one output lie");
            }
            if (*balancing.axis == ArrayAxis::both) {
                axis->fail(balancing.scheme == LoadBalancingScheme::half_tile_pairing
                               ? "half-tile pairing balances along one array axis"
                               : "line indexing balances along one array axis",
                           "x or y");
            }
            break;
        }
        case LoadBalancingScheme::two_level_work_stealing:
        case LoadBalancingScheme::flexible_allocation:
            break;
    }
    return balancing;
}

SparseFeatures read_sparse(const SpecNode& node, const std::vector<StorageLevel>& levels) {
    MapReader reader(node);
    reader.allow({"formats", "skipping", "gating", "load_balancing"});
    reader.finish();
    SparseFeatures sparse;
    if (const auto formats = reader.optional("formats"))
        sparse.formats = read_formats(*formats, levels);
    if (const auto skipping = reader.optional("skipping")) {
        sparse.skipping = read_sparse_actions(*skipping, levels, false);
        check_compute_skipping(*skipping, sparse.skipping);
    }
    if (const auto gating = reader.optional("gating"))
        sparse.gating = read_sparse_actions(*gating, levels, true);
    if (const auto balancing = reader.optional("load_balancing")) {
        sparse.load_balancing = read_load_balancing(*balancing);
    }
    return sparse;
}

// `cartesian_product:` (arch/cartesian_array.hpp). Its multipliers are the
// PE array's MACs, counted twice in one file, so the two must agree.
CartesianArray read_cartesian_array(const SpecNode& node, const PeArray& pe_array) {
    MapReader reader(node);
    reader.allow({"pe_rows", "pe_columns", "filter_vector", "input_vector", "accumulator_banks",
                  "tiling", "predictor", "sample_tiles", "filter_groups", "bank_stalls"});
    reader.finish();
    CartesianArray array;
    // The evaluator's limits (arch/cartesian_array.hpp), so a section read is one it takes.
    const auto count = [&reader](const char* key, std::int64_t& value, std::int64_t max) {
        if (const auto node = reader.optional(key)) {
            value = node->as_positive_int();
            if (value > max)
                node->fail(fmt::format("{} is too large", value), fmt::format("at most {}", max));
        }
    };
    count("pe_rows", array.tiles_h, kMaxCartesianCount);
    count("pe_columns", array.tiles_w, kMaxCartesianCount);
    count("filter_vector", array.filter_vector, kMaxCartesianVector);
    count("input_vector", array.input_vector, kMaxCartesianVector);
    count("accumulator_banks", array.accumulator_banks, kMaxCartesianCount);
    count("sample_tiles", array.sample_tiles, kMaxCartesianCount);
    count("filter_groups", array.filter_groups, kMaxCartesianCount);
    if (array.filter_vector * array.input_vector > kMaxCartesianProducts) {
        node.fail(fmt::format("F × I = {} × {} is {} products per cycle", array.filter_vector,
                              array.input_vector, array.filter_vector * array.input_vector),
                  fmt::format("at most {} (filter_vector × input_vector)", kMaxCartesianProducts));
    }
    if (const auto tiling = reader.optional("tiling"))
        array.tiling = read_enum<CartesianTiling>(*tiling, kCartesianTilingNames);
    if (const auto predictor = reader.optional("predictor")) array.predictor = predictor->as_bool();
    if (const auto stalls = reader.optional("bank_stalls"))
        array.bank_stalls = read_enum<CartesianBankStalls>(*stalls, kCartesianBankStallsNames);
    if (array.multipliers() != pe_array.num_macs()) {
        node.fail(fmt::format("{} sample tiles × {} filter groups × {} × {} PEs × {} × {} "
                              "multipliers is {} multipliers, but the PE array has {} MACs",
                              array.sample_tiles, array.filter_groups, array.tiles_h, array.tiles_w,
                              array.filter_vector, array.input_vector, array.multipliers(),
                              pe_array.num_macs()),
                  "the PE array's MACs (pe_array: rows × columns × macs_per_pe)");
    }
    return array;
}

}  // namespace

Architecture parse_architecture(const SpecNode& root) {
    MapReader top(root);
    top.allow({"architecture", "description", "source", "clock_ghz", "component_library",
               "component_overrides", "storage", "pe_array", "networks", "units", "sparse",
               "cartesian_product",
               // Read by constraints/architecture_spec.hpp, which knows mappings.
               "constraints"});
    top.finish();
    Architecture arch;
    arch.name = read_name(top.required("architecture"));
    if (const auto description = top.optional("description"))
        arch.description = description->as_string();
    if (const auto source = top.optional("source")) arch.source = source->as_string();
    if (const auto clock = top.optional("clock_ghz")) {
        arch.clock_ghz = read_positive_quantity(*clock, Quantity::frequency);
    }

    arch.components = read_library(top, root, arch);
    arch.pe_array = read_pe_array(top.required("pe_array"), arch.components);
    const SpecNode storage = top.required("storage");
    arch.levels = read_storage(storage, arch.pe_array, arch.components);
    arch.networks = read_networks(top.required("networks"), arch.levels, arch.components);
    if (const auto units = top.optional("units")) {
        arch.units = read_units(*units, arch.pe_array, arch.components);
    }
    if (const auto sparse = top.optional("sparse")) arch.sparse = read_sparse(*sparse, arch.levels);
    if (const auto cartesian = top.optional("cartesian_product"))
        arch.cartesian = read_cartesian_array(*cartesian, arch.pe_array);
    return arch;
}

Architecture load_architecture(const std::filesystem::path& path) {
    return parse_architecture(SpecNode::load_file(path));
}

}  // namespace trainloop
