// Reads timeloop-model's input files (docs/timeloop_conventions.md).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "common/checked_math.hpp"
#include "common/did_you_mean.hpp"
#include "common/names.hpp"
#include "common/quantities.hpp"
#include "common/spec_node.hpp"
#include "timeloop/timeloop_sparse_reader.hpp"
#include "timeloop/timeloop_spec.hpp"

namespace trainloop {
namespace {

// Top-level keys timeloop-model reads that do not change its model's
// numbers when the ERT and ART are given: they configure the mapper or
// Accelergy.
const std::vector<std::string> kIgnoredTopLevel = {"mapper",
                                                   "mapspace",
                                                   "mapspace_constraints",
                                                   "architecture_constraints",
                                                   "components",
                                                   "compound_components",
                                                   "variables",
                                                   "model",
                                                   "ERT_summary",
                                                   "ART_summary",
                                                   "globals"};
const std::vector<std::string> kHandledTopLevel = {
    "architecture", "problem", "mapping", "ERT", "ART", "sparse_optimizations"};

// Attributes of a local that change nothing in the model once the ERT/ART
// give energy and area (Accelergy estimator inputs, bank counts, ports).
const std::vector<std::string> kHarmlessAttributes = {"technology",
                                                      "type",
                                                      "n_banks",
                                                      "n_rdwr_ports",
                                                      "n_rd_ports",
                                                      "n_wr_ports",
                                                      "latency",
                                                      "vdd",
                                                      "cluster_size",
                                                      "cluster-size",
                                                      "num_ports",
                                                      "resolution",
                                                      "memory_depth",
                                                      "memory_width",
                                                      "network_word_bits",
                                                      "global_cycle_seconds",
                                                      "min_utilization",
                                                      "allow_overbooking",
                                                      "metadata_storage_width",
                                                      "metadata_datawidth",
                                                      "energy_scale"};
// Attributes whose effect trainloop does not model: an error, not a guess.
const std::vector<std::string> kUnsupportedAttributes = {
    "multiple_buffering",    "decompression_supported",
    "compression_supported", "concordant_compressed_tile_traversal",
    "network_fill_latency",  "network_drain_latency"};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// "PE[0..255]" → ("PE", 256); "GlobalBuffer" → ("GlobalBuffer", 1).
std::pair<std::string, std::int64_t> split_range(const SpecNode& node, const std::string& name) {
    const auto open = name.find('[');
    if (open == std::string::npos) return {name, 1};
    const auto dots = name.find("..", open);
    const auto close = name.find(']', open);
    std::int64_t lo = -1, hi = -1;
    if (dots != std::string::npos && close != std::string::npos && close == name.size() - 1) {
        std::from_chars(name.data() + open + 1, name.data() + dots, lo);
        std::from_chars(name.data() + dots + 2, name.data() + close, hi);
    }
    if (lo < 0 || hi < lo) {
        node.fail(fmt::format("cannot read the instance range in `{}`", quoted_excerpt(name)),
                  "a name such as `PE[0..255]`");
    }
    if (hi - lo >= kMaxCount) {
        node.fail(fmt::format("the instance range in `{}` holds more than {} instances",
                              quoted_excerpt(name), kMaxCountText),
                  "a name such as `PE[0..255]`");
    }
    return {name.substr(0, open), hi - lo + 1};
}

struct Context {
    TimeloopSpec& spec;
    std::int64_t instances = 1;
    std::string path;  // "system.chip.PE[0..255]"
    YAML::Node inherited = YAML::Node(YAML::NodeType::Map);
    // v0.4 (`nodes:`): components have no instance range; the containers'
    // `spatial` fanouts multiply into instances, mesh_x of them along X.
    bool v04 = false;
    std::int64_t mesh_x = 1;
};

// An attribute, inherited or the local's own; a missing one reports at `attrs`.
SpecNode attr_node(const SpecNode& attrs, const YAML::Node& merged, const char* key) {
    const YAML::Node value = merged[key];
    const SpecNode node = attrs.sibling(value, attrs.path() + "." + key);
    if (!value.IsDefined()) {
        attrs.fail(fmt::format("no `{}` attribute", key), fmt::format("`{}:` here", key));
    }
    return node;
}

// A datatype entry's or dataspace constraint's `keep` and `bypass` lists
// (v0.3 mappings, v0.4 mappings and constraints). A data space in both
// contradicts itself: Timeloop would bypass it silently (and, for a v0.4
// constraint, every other one too), so it is refused at the `bypass` entry.
void read_keep_bypass(MapReader& map, TimeloopMappingEntry& e, const std::string& level) {
    std::vector<SpecNode> kept;
    if (auto keep = map.optional("keep")) {
        for (const SpecNode& s : keep->items()) {
            e.keep.push_back(read_timeloop_data_space(s));
            kept.push_back(s);
        }
    }
    if (auto bypass = map.optional("bypass")) {
        for (const SpecNode& s : bypass->items()) {
            const TimeloopDataSpace space = read_timeloop_data_space(s);
            const auto both = std::find(e.keep.begin(), e.keep.end(), space);
            if (both != e.keep.end()) {
                const SpecNode& first = kept[std::size_t(both - e.keep.begin())];
                s.fail(fmt::format("`{}` is both kept and bypassed at `{}`",
                                   kTimeloopSpaceNames[std::size_t(space)], level),
                       "each data space in `keep` or in `bypass`, not both",
                       fmt::format("`keep` lists it at line {}; drop it from one of the two",
                                   first.location().line));
            }
            e.bypass.push_back(space);
        }
    }
}

// A v0.4 component's `constraints:`. Only `dataspace` (keep/bypass) changes
// what timeloop-model evaluates: it becomes the level's datatype entry when
// the mapping gives none (timeloopfe passes it to timeloop-model as one).
// Factor and permutation constraints only steer timeloop-mapper.
void read_v04_constraints(const SpecNode& node, const std::string& level, TimeloopSpec& spec) {
    MapReader map(node);
    if (auto dataspace = map.optional("dataspace")) {
        MapReader ds(*dataspace);
        TimeloopMappingEntry e;
        e.target = level;
        e.type = TimeloopMappingEntry::Type::datatype;
        e.location = dataspace->location();
        read_keep_bypass(ds, e, level);
        ds.allow({"no_coalesce"});
        ds.finish();
        spec.dataspace_constraints.push_back(e);
    }
    for (const char* key : {"temporal", "spatial", "max_overbooked_proportion"}) {
        if (auto c = map.optional(key)) {
            spec.notes.push_back(fmt::format(
                "{}: `{}` constraints of `{}` steer Timeloop's mapper, not timeloop-model; ignored",
                format_location(c->location()), key, level));
        }
    }
    map.finish();
}

std::int64_t read_attr_int(const SpecNode& attrs, const YAML::Node& merged, const char* key) {
    return attr_node(attrs, merged, key).as_positive_int();
}

// A width in bits (`datawidth`, `width`): common/quantities.hpp's range.
std::int64_t read_attr_bits(const SpecNode& attrs, const YAML::Node& merged, const char* key) {
    return read_width_bits(attr_node(attrs, merged, key));
}

// `count` instances of a level inside `outer` instances of the levels around it.
std::int64_t total_instances(const SpecNode& node, std::int64_t outer, std::int64_t count) {
    const auto total = checked_mul(outer, count);
    if (!total || !representable_count(*total)) {
        node.fail(fmt::format("{} × {} instances is more than {}", outer, count, kMaxCountText),
                  "an architecture of representable size");
    }
    return *total;
}

// Bits of `depth` rows of `width` bits (or any such product), at most 2^53.
std::int64_t checked_bits(const SpecNode& node, std::int64_t a, std::int64_t b) {
    const auto bits = checked_mul(a, b);
    if (!bits || !representable_count(*bits)) {
        node.fail(fmt::format("{} × {} is more than {}", a, b, kMaxCountText),
                  "a storage size of representable size");
    }
    return *bits;
}

// Timeloop lays out a level's instances as meshX × meshY; both must agree
// with the instance count.
void check_mesh(const SpecNode& attrs, const YAML::Node& merged, const std::string& name,
                std::int64_t instances, std::optional<std::int64_t> mesh_x) {
    if (mesh_x && instances % *mesh_x != 0) {
        attr_node(attrs, merged, "meshX")
            .fail(fmt::format("meshX {} does not divide the {} instances of `{}`", *mesh_x,
                              instances, name),
                  "a meshX that divides the instance count (meshY = instances / meshX)");
    }
    if (!merged["meshY"]) return;
    const std::int64_t mesh_y = read_attr_int(attrs, merged, "meshY");
    const std::int64_t x = mesh_x.value_or(instances / mesh_y);
    if (instances % mesh_y != 0 || saturating_mul(x, mesh_y) != instances) {
        attr_node(attrs, merged, "meshY")
            .fail(fmt::format("meshX {} × meshY {} does not make the {} instances of `{}`", x,
                              mesh_y, instances, name),
                  "meshX × meshY = the instance count");
    }
}

void read_local(const SpecNode& node, Context& ctx, bool& saw_arithmetic) {
    MapReader map(node);
    const std::string full_name = map.required("name").as_string();
    const std::string klass = map.required("class").as_string();
    // Not a structured binding: lambdas below use the name (clang 14 cannot capture bindings).
    const auto range =
        ctx.v04 ? std::pair{full_name, std::int64_t(1)} : split_range(node, full_name);
    const std::string& name = range.first;
    const std::int64_t count = range.second;
    // The name becomes a storage level's (or the arithmetic unit's) in trainloop.
    if (const auto problem = name_problem(name))
        map.required("name").fail(*problem, std::string(kNameRule));
    // Attributes: the enclosing subtrees' (inherited), overridden by the local's own.
    YAML::Node merged = YAML::Clone(ctx.inherited);
    std::optional<SpecNode> attrs_node = map.optional("attributes");
    map.allow({"required_actions", "actions", "subclass"});
    if (ctx.v04) {
        map.allow({"spatial", "enabled"});
        if (auto constraints = map.optional("constraints")) {
            read_v04_constraints(*constraints, name, ctx.spec);
        }
        if (auto sparse = map.optional("sparse_optimizations")) {
            sparse->fail("a v0.4 component's own `sparse_optimizations` is not read by trainloop",
                         "Sparseloop's top-level `sparse_optimizations: {targets: [...]}` "
                         "(the v0.3 form)",
                         "move the component's formats and action optimizations into a target "
                         "named after it");
        }
    }
    map.finish();
    if (attrs_node) {
        MapReader attrs(*attrs_node);  // checks it is a mapping
        for (const auto& entry : attrs_node->raw()) merged[entry.first.Scalar()] = entry.second;
    }
    const SpecNode attrs = attrs_node ? *attrs_node : node;
    for (const auto& entry : merged) {
        const std::string key = entry.first.Scalar();
        if (std::find(kUnsupportedAttributes.begin(), kUnsupportedAttributes.end(), key) !=
            kUnsupportedAttributes.end()) {
            if (key == "multiple_buffering" && entry.second.IsScalar() &&
                (entry.second.Scalar() == "1" || entry.second.Scalar() == "1.0")) {
                continue;
            }
            attrs.sibling(entry.second, child_key_path(attrs.path(), key))
                .fail(fmt::format("Timeloop attribute `{}` of `{}` is not supported by trainloop",
                                  key, name),
                      "the attribute left out (or at its default)");
        }
    }
    const std::string ert_name = ctx.path.empty() ? full_name : ctx.path + "." + full_name;
    const std::int64_t instances = total_instances(node, ctx.instances, count);
    std::optional<std::int64_t> mesh_x;
    if (ctx.v04) {
        mesh_x = ctx.mesh_x;  // the containers' fanouts, checked as they were read
    } else {
        if (merged["meshX"]) mesh_x = read_attr_int(attrs, merged, "meshX");
        check_mesh(attrs, merged, name, instances, mesh_x);
    }
    const std::string lk = lower(klass);
    const bool is_arithmetic = lk.find("mac") != std::string::npos ||
                               lk.find("compute") != std::string::npos ||
                               lk.find("alu") != std::string::npos;
    auto note_others = [&](const std::vector<std::string>& used) {
        for (const auto& entry : merged) {
            const std::string key = entry.first.Scalar();
            if (std::find(used.begin(), used.end(), key) != used.end()) continue;
            if (std::find(kHarmlessAttributes.begin(), kHarmlessAttributes.end(), key) !=
                kHarmlessAttributes.end()) {
                continue;
            }
            ctx.spec.notes.push_back(fmt::format(
                "{}: attribute `{}` of `{}` has no effect on trainloop's model; ignored",
                format_location(node.location()), quoted_excerpt(key), quoted_excerpt(name)));
        }
    };
    if (is_arithmetic) {
        if (saw_arithmetic) node.fail("a second arithmetic unit", "one MAC level, innermost");
        saw_arithmetic = true;
        TimeloopArithmetic& a = ctx.spec.arch.arithmetic;
        a = {name,           klass,  read_attr_bits(attrs, merged, "datawidth"),
             instances,      mesh_x, ert_name,
             node.location()};
        note_others({"datawidth", "meshX", "meshY"});
        return;
    }
    if (saw_arithmetic) {
        node.fail(fmt::format("storage `{}` below the arithmetic unit", name),
                  "storage levels outermost first, the MAC unit last");
    }
    TimeloopStorage s;
    s.name = name;
    s.klass = klass;
    s.instances = instances;
    s.mesh_x = mesh_x;
    s.ert_name = ert_name;
    s.location = node.location();
    if (!merged["datawidth"]) {
        attrs.fail(fmt::format("`{}` has no `datawidth`", name), "`datawidth:` in bits per word");
    }
    s.datawidth = read_attr_bits(attrs, merged, "datawidth");
    s.width = merged["width"] ? read_attr_bits(attrs, merged, "width") : s.datawidth;
    if (merged["block_size"] || merged["block-size"]) {
        const char* key = merged["block_size"] ? "block_size" : "block-size";
        s.width = checked_bits(attr_node(attrs, merged, key), read_attr_int(attrs, merged, key),
                               s.datawidth);
    }
    if (s.width % s.datawidth != 0) {
        attrs.fail(fmt::format("width {} is not a multiple of datawidth {}", s.width, s.datawidth),
                   "a width holding whole words");
    }
    const bool is_dram = lk.find("dram") != std::string::npos;
    if (merged["depth"]) {
        s.depth = read_attr_int(attrs, merged, "depth");
        checked_bits(attr_node(attrs, merged, "depth"), *s.depth, s.width);
    } else if (merged["size"]) {
        s.depth = read_attr_int(attrs, merged, "size");  // words; Timeloop's older spelling
        s.depth = checked_bits(attr_node(attrs, merged, "size"), *s.depth, s.datawidth) / s.width;
        if (*s.depth == 0) {
            attr_node(attrs, merged, "size")
                .fail(fmt::format("size {} words is less than one row of {} bits",
                                  read_attr_int(attrs, merged, "size"), s.width),
                      "at least one row");
        }
    } else if (!is_dram) {
        attrs.fail(fmt::format("storage `{}` has no `depth`", name),
                   "`depth:` (rows of `width` bits), or class DRAM for unbounded memory");
    }
    // v3.0.3 (src/model/buffer.cpp, ComputePerformance): the slowdown is the least of
    // read, write and shared bandwidth over the read, write and read + write demand.
    for (const auto& [key, field] : {std::pair{"read_bandwidth", &s.read_bandwidth},
                                     std::pair{"write_bandwidth", &s.write_bandwidth},
                                     std::pair{"shared_bandwidth", &s.shared_bandwidth}}) {
        if (!merged[key]) continue;
        const SpecNode node = attr_node(attrs, merged, key);
        *field = read_positive_quantity(node, Quantity::bandwidth);
    }
    if (merged["metadata_storage_depth"]) {
        const SpecNode depth = attr_node(attrs, merged, "metadata_storage_depth");
        if (!merged["metadata_storage_width"]) {
            depth.fail(fmt::format("`{}` has a metadata_storage_depth but no "
                                   "metadata_storage_width",
                                   name),
                       "both, the metadata storage's rows and their bits");
        }
        s.metadata_bits =
            checked_bits(depth, read_attr_int(attrs, merged, "metadata_storage_depth"),
                         read_attr_int(attrs, merged, "metadata_storage_width"));
    }
    if (merged["metadata_datawidth"]) {
        s.metadata_word_bits = attr_node(attrs, merged, "metadata_datawidth").as_non_negative_int();
    }
    note_others({"datawidth", "width", "block_size", "block-size", "depth", "size",
                 "read_bandwidth", "write_bandwidth", "shared_bandwidth", "meshX", "meshY",
                 "word-bits", "word_bits", "metadata_storage_depth", "metadata_datawidth"});
    ctx.spec.arch.storage.push_back(s);
}

void read_tree(const SpecNode& node, Context ctx, bool& saw_arithmetic) {
    MapReader map(node);
    const std::string full_name = map.optional("name") ? map.required("name").as_string() : "";
    auto [name, count] = full_name.empty() ? std::pair<std::string, std::int64_t>{"", 1}
                                           : split_range(node, full_name);
    (void)name;
    ctx.instances = total_instances(node, ctx.instances, count);
    if (!full_name.empty()) ctx.path = ctx.path.empty() ? full_name : ctx.path + "." + full_name;
    if (auto attrs = map.optional("attributes")) {
        MapReader check(*attrs);
        ctx.inherited = YAML::Clone(ctx.inherited);
        for (const auto& entry : attrs->raw()) ctx.inherited[entry.first.Scalar()] = entry.second;
    }
    map.allow({"version"});
    const auto local = map.optional("local");
    const auto subtree = map.optional("subtree");
    map.finish();
    if (local) {
        for (const SpecNode& item : local->items()) read_local(item, ctx, saw_arithmetic);
    }
    if (subtree) {
        const std::vector<SpecNode> children = subtree->items();
        if (children.size() > 1) {
            subtree->fail("sibling subtrees (a heterogeneous architecture) are not supported",
                          "one subtree per level of the tree");
        }
        for (const SpecNode& child : children) read_tree(child, ctx, saw_arithmetic);
    }
}

// The kind of a v0.4 node: its YAML tag (`!Component`, ...), or for an
// untagged node what its keys say.
std::string v04_kind(const SpecNode& node) {
    std::string tag = node.raw().Tag();
    if (!tag.empty() && tag != "?" && tag != "!") {
        std::string kind = tag.substr(tag.find_last_of('!') + 1);
        if (kind != "Nothing" && !node.is_map()) {
            node.fail(fmt::format("a `!{}` node that is not a mapping", kind), "a mapping");
        }
        return kind;
    }
    if (!node.is_map()) node.fail("an architecture node that is not a mapping", "a mapping");
    if (node.raw()["nodes"]) return "Hierarchical";
    if (node.raw()["class"]) return "Component";
    return "Container";
}

// timeloopfe's v0.4 form: one list of nodes, outermost first. A Container
// opens a level of the hierarchy (its attributes are inherited, its
// `spatial` meshX × meshY fans out everything after it); a Component is a
// storage level or, last, the compute unit (a `spatial` on a component fans
// out that component and what follows); Parallel and Hierarchical nodes hold
// nested lists, read in order (Timeloop evaluates a Parallel's storage
// components as successive levels).
void read_v04_nodes(const SpecNode& list, Context& ctx, bool& saw_arithmetic, bool in_parallel) {
    for (const SpecNode& node : list.items()) {
        const std::string kind = v04_kind(node);
        if (node.is_map() && node.raw()["enabled"] &&
            !node.sibling(node.raw()["enabled"], node.path() + ".enabled").as_bool()) {
            continue;
        }
        auto fan_out = [&](const SpecNode& spatial) {
            MapReader s(spatial);
            std::int64_t x = 1, y = 1;
            if (auto v = s.optional("meshX")) x = v->as_positive_int();
            if (auto v = s.optional("meshY")) y = v->as_positive_int();
            s.finish();
            const std::int64_t fanout = total_instances(spatial, x, y);
            if (in_parallel && fanout > 1) {
                spatial.fail("a fanout inside a Parallel node", "fanouts outside Parallel nodes");
            }
            ctx.instances = total_instances(spatial, ctx.instances, fanout);
            ctx.mesh_x *= x;  // at most ctx.instances
        };
        if (kind == "Nothing") continue;
        if (kind == "Parallel" || kind == "Hierarchical" || kind == "Branch") {
            MapReader map(node);
            const SpecNode nodes = map.required("nodes");
            map.allow({"name"});
            map.finish();
            read_v04_nodes(nodes, ctx, saw_arithmetic, in_parallel || kind == "Parallel");
            continue;
        }
        if (kind == "Container") {
            if (in_parallel) node.fail("a Container inside a Parallel node", "components only");
            MapReader map(node);
            const std::string name = map.required("name").as_string();
            ctx.path = ctx.path.empty() ? name : ctx.path + "." + name;
            if (auto attrs = map.optional("attributes")) {
                MapReader check(*attrs);
                ctx.inherited = YAML::Clone(ctx.inherited);
                for (const auto& entry : attrs->raw())
                    ctx.inherited[entry.first.Scalar()] = entry.second;
            }
            if (auto constraints = map.optional("constraints")) {
                read_v04_constraints(*constraints, name, ctx.spec);
            }
            map.allow({"enabled"});
            const auto spatial = map.optional("spatial");
            map.finish();
            if (spatial) fan_out(*spatial);
            continue;
        }
        if (kind == "Component" || kind == "Compute" || kind == "Storage") {
            if (node.raw()["spatial"]) {
                fan_out(node.sibling(node.raw()["spatial"], node.path() + ".spatial"));
            }
            read_local(node, ctx, saw_arithmetic);
            continue;
        }
        node.fail(fmt::format("unknown architecture node `!{}`", kind),
                  "!Container, !Component, !Parallel, !Hierarchical or !Nothing");
    }
}

void read_architecture(const SpecNode& node, TimeloopSpec& spec) {
    const MapReader must_be_a_map(node);  // a located error otherwise
    std::string version;
    if (node.raw()["version"]) {
        version = node.raw()["version"].Scalar();
        if (version != "0.3" && version != "0.4") {
            node.sibling(node.raw()["version"], "architecture.version")
                .fail(fmt::format("architecture version {} is not supported", version),
                      "version 0.3 (subtree/local form) or 0.4 (`nodes:` form)");
        }
    }
    bool saw_arithmetic = false;
    if (node.raw()["nodes"]) {
        MapReader map(node);
        const SpecNode nodes = map.required("nodes");
        map.allow({"version"});
        map.finish();
        if (version == "0.3") {
            nodes.fail("`nodes:` in a version 0.3 architecture",
                       "version 0.4 with `nodes:`, or 0.3 with `subtree:`/`local:`");
        }
        Context ctx{spec, 1, "", YAML::Node(YAML::NodeType::Map)};
        ctx.v04 = true;
        read_v04_nodes(nodes, ctx, saw_arithmetic, false);
    } else {
        read_tree(node, Context{spec, 1, "", YAML::Node(YAML::NodeType::Map)}, saw_arithmetic);
    }
    if (spec.arch.storage.empty()) node.fail("no storage levels found", "at least a DRAM");
    if (!saw_arithmetic) node.fail("no arithmetic unit found", "a local of class intmac/fpmac/mac");
}

// Timeloop's CNN-layer dimensions; timeloopfe's v0.4 problems call the
// output channels M (Timeloop's v0.3 shape: K), and the grouped shape adds G.
Dim dim_of(const SpecNode& node, char letter) {
    if (letter == 'M') return Dim::K;
    const auto d = dim_from_name(std::string_view(&letter, 1));
    if (!d) {
        node.fail(fmt::format("unknown dimension `{}`", letter),
                  "one of the CNN-layer dimensions C K (or M) R S N P Q, and G when grouped");
    }
    return *d;
}

// One axis of a projection: its terms as "Dim" or "Dim*Coefficient", sorted.
using ProjectionAxis = std::vector<std::string>;

ProjectionAxis read_axis(const SpecNode& axis) {
    ProjectionAxis terms;
    for (const SpecNode& term : axis.items()) {
        const std::vector<std::string> parts = term.as_string_list();
        if (parts.empty() || parts.size() > 2) {
            term.fail("a projection term that is not [dimension] or [dimension, coefficient]",
                      "[P, Wstride] or [C]");
        }
        std::string dim = parts[0] == "M" ? "K" : parts[0];
        terms.push_back(parts.size() == 2 ? dim + "*" + parts[1] : dim);
    }
    std::sort(terms.begin(), terms.end());
    return terms;
}

// The inline shape must be the CNN layer (or the grouped CNN layer) term for
// term: trainloop evaluates that projection, not the one written.
void check_cnn_shape(MapReader& s, bool grouped) {
    const std::map<std::string, std::vector<ProjectionAxis>> expected = {
        {"Weights", {{"C"}, {"K"}, {"R"}, {"S"}}},
        {"Inputs", {{"N"}, {"C"}, {"P*Wstride", "R*Wdilation"}, {"Q*Hstride", "S*Hdilation"}}},
        {"Outputs", {{"N"}, {"K"}, {"P"}, {"Q"}}}};
    std::optional<SpecNode> spaces = s.optional("data-spaces");
    if (!spaces) spaces = s.optional("data_spaces");
    if (!spaces) return;  // Timeloop's built-in projection
    std::set<std::string> seen;
    for (const SpecNode& space : spaces->items()) {
        MapReader ds(space);
        const SpecNode name_node = ds.required("name");
        const std::string name = name_node.as_choice({"Weights", "Inputs", "Outputs"});
        std::vector<ProjectionAxis> axes;
        const SpecNode projection = ds.required("projection");
        for (const SpecNode& axis : projection.items()) axes.push_back(read_axis(axis));
        ds.allow({"read-write", "read_write"});
        ds.finish();
        std::vector<ProjectionAxis> want = expected.at(name);
        if (grouped) want.push_back({"G"});
        std::sort(axes.begin(), axes.end());
        std::sort(want.begin(), want.end());
        if (axes != want) {
            projection.fail(fmt::format("the projection of {} is not the {}CNN layer's", name,
                                        grouped ? "grouped " : ""),
                            "the CNN-Layer projection (problem-shapes/cnn-layer.yaml)",
                            "trainloop evaluates only the CNN layer and its grouped form");
        }
        seen.insert(name);
    }
    if (seen.size() != 3) spaces->fail("a shape without Weights, Inputs and Outputs");
}

void read_problem(const SpecNode& node, TimeloopSpec& spec) {
    MapReader map(node);
    const SpecNode shape = map.required("shape");
    map.allow({"version"});
    bool grouped = false;
    bool inline_dimensions = false;
    std::string shape_name;
    if (shape.is_scalar()) {
        shape_name = shape.as_string();
    } else {
        MapReader s(shape);
        shape_name = s.optional("name") ? s.required("name").as_string() : "";
        s.allow({"coefficients"});
        if (auto dims = s.optional("dimensions")) {
            inline_dimensions = true;
            std::set<std::string> names;
            for (std::string d : dims->as_string_list()) names.insert(d == "M" ? "K" : d);
            const std::set<std::string> cnn = {"C", "K", "R", "S", "N", "P", "Q"};
            std::set<std::string> grouped_cnn = cnn;
            grouped_cnn.insert("G");
            if (names != cnn && names != grouped_cnn) {
                dims->fail("the problem's dimensions are not those of the CNN layer",
                           "[C, K, R, S, N, P, Q] (K may be M), with G for a grouped layer",
                           "a GEMM is the CNN layer with P=Q=R=S=1: M→N, N→K, K→C");
            }
            grouped = names == grouped_cnn;
        }
        check_cnn_shape(s, grouped);
        s.finish();
    }
    // Without its dimensions and projections written out, a shape is Timeloop's
    // built-in one of that name; trainloop knows the CNN layer's.
    std::string key = lower(shape_name);
    std::replace(key.begin(), key.end(), '_', '-');
    if (!inline_dimensions && key != "cnn-layer") {
        shape.fail(fmt::format("problem shape `{}` is not supported", shape_name),
                   "the standard CNN-Layer shape (or an inline shape with the CNN layer's "
                   "dimensions and projections)",
                   "a GEMM is the CNN layer with P=Q=R=S=1: M→N, N→K, K→C");
    }
    const SpecNode instance_node = map.required("instance");
    map.finish();
    MapReader instance(instance_node);
    TimeloopProblem& p = spec.problem;
    p.location = instance_node.location();
    for (Dim d : kAllDims) p.bounds[d] = 1;
    for (const char* letter : {"C", "K", "M", "R", "S", "N", "P", "Q", "G"}) {
        if (std::string(letter) == "G" && !grouped) continue;
        if (auto v = instance.optional(letter))
            p.bounds[dim_of(*v, letter[0])] = v->as_positive_int();
    }
    for (auto [name, field] :
         {std::pair{"Wstride", &p.wstride}, std::pair{"Hstride", &p.hstride},
          std::pair{"Wdilation", &p.wdilation}, std::pair{"Hdilation", &p.hdilation}}) {
        if (auto v = instance.optional(name)) *field = v->as_positive_int();
    }
    // timeloopfe's problems also list the input's size and padding; Timeloop's
    // projection does not read them, so neither does trainloop.
    for (const char* derived : {"H", "W", "Hpad", "Wpad"}) {
        if (auto v = instance.optional(derived)) {
            spec.notes.push_back(fmt::format(
                "{}: problem instance `{}` is not part of the CNN layer's projection "
                "(Timeloop derives the input from P, R, Q, S, strides and dilations); ignored",
                format_location(v->location()), derived));
        }
    }
    const auto densities = instance.optional("densities");
    const auto common = instance.optional("commonDensity");
    if (densities && common) {
        common->fail("both `commonDensity` and `densities`", "one of the two",
                     "Timeloop would use `commonDensity` and ignore `densities`");
    }
    if (densities) read_densities(*densities, p);
    if (common) read_common_density(*common, p);
    instance.finish();
}

void read_mapping(const SpecNode& node, TimeloopSpec& spec) {
    for (const SpecNode& item : node.items()) {
        MapReader map(item);
        TimeloopMappingEntry e;
        e.location = item.location();
        e.target = map.required("target").as_string();
        const std::string type = map.required("type").as_choice(
            {"temporal", "spatial", "datatype", "dataspace", "bypass"});
        e.type = type == "temporal"  ? TimeloopMappingEntry::Type::temporal
                 : type == "spatial" ? TimeloopMappingEntry::Type::spatial
                                     : TimeloopMappingEntry::Type::datatype;
        if (e.type == TimeloopMappingEntry::Type::datatype) {
            read_keep_bypass(map, e, e.target);
            map.finish();
            spec.mapping.push_back(e);
            continue;
        }
        if (auto factors = map.optional("factors")) {
            // v0.3: "C4 K2" or "C=4 K=2"; v0.4 (timeloopfe): [C=4, K=2].
            std::string text;
            for (const std::string& t : factors->as_string_list()) text += t + " ";
            std::replace(text.begin(), text.end(), '=', ' ');
            std::size_t at = 0;
            while (at < text.size()) {
                while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
                if (at >= text.size()) break;
                const Dim d = dim_of(*factors, text[at++]);
                while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
                std::int64_t f = 0;
                const auto [end, error] =
                    std::from_chars(text.data() + at, text.data() + text.size(), f);
                if (error != std::errc{} || f <= 0) {
                    factors->fail(fmt::format("cannot read the factor of {} in `{}`", dim_name(d),
                                              quoted_excerpt(text)),
                                  "tokens such as `C4` or `C=4` with positive factors",
                                  "a factor of 0 (\"the rest\") is not supported: give it");
                }
                at = std::size_t(end - text.data());
                if (e.factors[d] != 0) {
                    factors->fail(fmt::format("dimension {} given twice in `{}`", dim_name(d),
                                              quoted_excerpt(text)),
                                  "each dimension at most once");
                }
                e.factors[d] = f;
            }
        }
        if (auto perm = map.optional("permutation")) {
            std::string letters;
            for (const std::string& t : perm->as_string_list()) letters += t;
            for (char c : letters) {
                if (std::isspace(static_cast<unsigned char>(c))) continue;
                const Dim d = dim_of(*perm, c);
                if (std::find(e.permutation.begin(), e.permutation.end(), d) !=
                    e.permutation.end()) {
                    perm->fail(
                        fmt::format("dimension {} given twice in the permutation", dim_name(d)),
                        "each dimension at most once");
                }
                e.permutation.push_back(d);
            }
        }
        if (auto split = map.optional("split")) e.split = split->as_non_negative_int();
        map.finish();
        spec.mapping.push_back(e);
    }
}

void read_table(const SpecNode& node, TimeloopSpec& spec, bool ert) {
    MapReader map(node);
    map.allow({"version"});
    const SpecNode tables = map.required("tables");
    map.finish();
    for (const SpecNode& table : tables.items()) {
        MapReader t(table);
        const std::string name = t.required("name").as_string();
        if (!ert) {
            const SpecNode area = t.required("area");
            spec.art[name] = read_non_negative_quantity(area, Quantity::area);
            t.finish();
            continue;
        }
        TimeloopActionEnergies energies;
        for (const SpecNode& action : t.required("actions").items()) {
            MapReader a(action);
            const std::string action_name = a.required("name").as_string();
            const SpecNode energy_node = a.required("energy");
            const double energy = read_non_negative_quantity(energy_node, Quantity::energy);
            a.allow({"arguments"});
            a.finish();
            // Accelergy lists an action once per argument value; Timeloop
            // prices the action at the most expensive of them.
            auto [it, inserted] = energies.actions.emplace(action_name, energy);
            if (!inserted) it->second = std::max(it->second, energy);
        }
        if (auto update = energies.actions.find("update");
            update != energies.actions.end() &&
            update->second != energies.price(kErtUpdate, true)) {
            spec.notes.push_back(fmt::format(
                "{}: ERT action `update` of `{}` ({} pJ) is not used: timeloop-model prices "
                "updates as `random_update`, `random_fill` or `write` ({} pJ), and so does "
                "trainloop",
                format_location(table.location()), name, update->second,
                energies.price(kErtUpdate, true)));
        }
        t.finish();
        spec.ert[name] = energies;
    }
}

}  // namespace

double TimeloopActionEnergies::price(std::initializer_list<const char*> names,
                                     bool fall_back_to_max) const {
    for (const char* name : names) {
        if (auto it = actions.find(name); it != actions.end()) return it->second;
    }
    if (!fall_back_to_max) return 0.0;
    double most = 0.0;
    for (const auto& [name, pj] : actions) most = std::max(most, pj);
    return most;
}

TimeloopSpec read_timeloop_spec(const std::vector<std::string>& files) {
    std::vector<SpecNode> roots;
    for (const std::string& file : files) roots.push_back(SpecNode::load_file(file));
    return read_timeloop_documents(roots);
}

TimeloopSpec read_timeloop_documents(const std::vector<SpecNode>& roots) {
    TimeloopSpec spec;
    std::vector<std::string> files;
    for (const SpecNode& root : roots) files.push_back(root.file());
    spec.files = files;
    std::map<std::string, SpecNode> sections;
    std::vector<std::string> known = kHandledTopLevel;
    known.insert(known.end(), kIgnoredTopLevel.begin(), kIgnoredTopLevel.end());
    for (const SpecNode& root : roots) {
        MapReader top(root);  // checks it is a mapping
        for (const auto& entry : root.raw()) {
            const std::string key = entry.first.Scalar();
            const SpecNode value =
                root.sibling(entry.second, child_key_path("", key), entry.first.Mark());
            if (std::find(kIgnoredTopLevel.begin(), kIgnoredTopLevel.end(), key) !=
                kIgnoredTopLevel.end()) {
                spec.notes.push_back(
                    fmt::format("{}: `{}` configures Timeloop's mapper or "
                                "Accelergy, not timeloop-model; ignored",
                                format_location(value.location()), key));
                continue;
            }
            if (std::find(kHandledTopLevel.begin(), kHandledTopLevel.end(), key) ==
                kHandledTopLevel.end()) {
                root.sibling(entry.first, child_key_path("", key))
                    .fail(fmt::format("unknown top-level key `{}`", quoted_excerpt(key)),
                          "architecture, problem, mapping, ERT, ART (or a key timeloop-model "
                          "ignores)",
                          suggestion_hint(key, known));
            }
            if (sections.count(key)) {
                value.fail(
                    fmt::format("`{}` is given twice (also in {})", key, sections.at(key).file()),
                    "each top-level key in one file");
            }
            sections.emplace(key, value);
        }
    }
    const SourceLocation where{files.empty() ? "" : files.front(), 0, 0};
    for (const char* key : {"architecture", "problem", "mapping", "ERT"}) {
        if (!sections.count(key)) {
            throw SpecError(where, key, fmt::format("no `{}:` in the given files", key),
                            fmt::format("a file with a top-level `{}:`", key),
                            std::string(key) == "ERT"
                                ? "run Accelergy to produce ERT.yaml, or use trainloop-native specs"
                                : "");
        }
    }
    read_architecture(sections.at("architecture"), spec);
    if (sections.count("sparse_optimizations"))
        read_sparse_optimizations(sections.at("sparse_optimizations"), spec);
    read_problem(sections.at("problem"), spec);
    read_mapping(sections.at("mapping"), spec);
    read_table(sections.at("ERT"), spec, true);
    if (sections.count("ART")) read_table(sections.at("ART"), spec, false);
    return spec;
}

}  // namespace trainloop
