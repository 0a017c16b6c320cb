// Reads timeloop-model's input files (docs/timeloop_conventions.md).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "common/checked_math.hpp"
#include "common/did_you_mean.hpp"
#include "common/spec_node.hpp"
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
const std::vector<std::string> kHandledTopLevel = {"architecture", "problem", "mapping", "ERT",
                                                   "ART"};

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
    "shared_bandwidth",        "multiple_buffering",    "metadata_storage_depth",
    "decompression_supported", "compression_supported", "concordant_compressed_tile_traversal",
    "network_fill_latency",    "network_drain_latency"};

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

std::int64_t read_attr_int(const SpecNode& attrs, const YAML::Node& merged, const char* key) {
    return attr_node(attrs, merged, key).as_positive_int();
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
    const auto range = split_range(node, full_name);
    const std::string& name = range.first;
    const std::int64_t count = range.second;
    // Attributes: the enclosing subtrees' (inherited), overridden by the local's own.
    YAML::Node merged = YAML::Clone(ctx.inherited);
    std::optional<SpecNode> attrs_node = map.optional("attributes");
    map.allow({"required_actions", "actions", "subclass"});
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
            attrs.sibling(entry.second, attrs.path() + "." + key)
                .fail(fmt::format("Timeloop attribute `{}` of `{}` is not supported by trainloop",
                                  key, name),
                      "the attribute left out (or at its default)");
        }
    }
    const std::string ert_name = ctx.path.empty() ? full_name : ctx.path + "." + full_name;
    const std::int64_t instances = total_instances(node, ctx.instances, count);
    std::optional<std::int64_t> mesh_x;
    if (merged["meshX"]) mesh_x = read_attr_int(attrs, merged, "meshX");
    check_mesh(attrs, merged, name, instances, mesh_x);
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
                format_location(node.location()), key, name));
        }
    };
    if (is_arithmetic) {
        if (saw_arithmetic) node.fail("a second arithmetic unit", "one MAC level, innermost");
        saw_arithmetic = true;
        TimeloopArithmetic& a = ctx.spec.arch.arithmetic;
        a = {name,     klass,          read_attr_int(attrs, merged, "datawidth"), instances, mesh_x,
             ert_name, node.location()};
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
    s.datawidth = read_attr_int(attrs, merged, "datawidth");
    s.width = merged["width"] ? read_attr_int(attrs, merged, "width") : s.datawidth;
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
    for (const char* key : {"read_bandwidth", "write_bandwidth"}) {
        if (!merged[key]) continue;
        const SpecNode node = attr_node(attrs, merged, key);
        const double bw = node.as_double();
        if (bw <= 0) node.fail(fmt::format("non-positive {}", key), "words per cycle > 0");
        (std::string(key) == "read_bandwidth" ? s.read_bandwidth : s.write_bandwidth) = bw;
    }
    note_others({"datawidth", "width", "block_size", "block-size", "depth", "size",
                 "read_bandwidth", "write_bandwidth", "meshX", "meshY", "word-bits", "word_bits"});
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

void read_architecture(const SpecNode& node, TimeloopSpec& spec) {
    if (node.raw()["version"]) {
        const std::string version = node.raw()["version"].Scalar();
        if (version != "0.3" && version != "0.4") {
            node.sibling(node.raw()["version"], "architecture.version")
                .fail(fmt::format("architecture version {} is not supported", version),
                      "version 0.3 (subtree/local form) or 0.4");
        }
    }
    bool saw_arithmetic = false;
    read_tree(node, Context{spec, 1, "", YAML::Node(YAML::NodeType::Map)}, saw_arithmetic);
    if (spec.arch.storage.empty()) node.fail("no storage levels found", "at least a DRAM");
    if (!saw_arithmetic) node.fail("no arithmetic unit found", "a local of class intmac/fpmac/mac");
}

Dim dim_of(const SpecNode& node, char letter) {
    const auto d = dim_from_name(std::string_view(&letter, 1));
    if (!d || *d == Dim::G) {
        node.fail(fmt::format("unknown dimension `{}`", letter),
                  "one of the CNN-layer dimensions C K R S N P Q");
    }
    return *d;
}

void read_problem(const SpecNode& node, TimeloopSpec& spec) {
    MapReader map(node);
    const SpecNode shape = map.required("shape");
    std::string shape_name;
    if (shape.is_scalar()) {
        shape_name = shape.as_string();
    } else {
        MapReader s(shape);
        shape_name = s.required("name").as_string();
        s.allow({"dimensions", "coefficients", "data-spaces", "data_spaces"});
        s.finish();
        if (auto dims = s.optional("dimensions")) {
            std::set<std::string> names;
            for (const auto& d : dims->as_string_list()) names.insert(d);
            if (names != std::set<std::string>{"C", "K", "R", "S", "N", "P", "Q"}) {
                dims->fail("the problem's dimensions are not those of the CNN layer",
                           "[C, K, R, S, N, P, Q]");
            }
        }
    }
    std::string key = lower(shape_name);
    std::replace(key.begin(), key.end(), '_', '-');
    if (key != "cnn-layer" && key != "cnn_layer") {
        shape.fail(fmt::format("problem shape `{}` is not supported", shape_name),
                   "the standard CNN-Layer shape",
                   "a GEMM is the CNN layer with P=Q=R=S=1: M→N, N→K, K→C");
    }
    const SpecNode instance_node = map.required("instance");
    map.finish();
    MapReader instance(instance_node);
    TimeloopProblem& p = spec.problem;
    p.location = instance_node.location();
    for (Dim d : kAllDims) p.bounds[d] = 1;
    for (const char* letter : {"C", "K", "R", "S", "N", "P", "Q"}) {
        if (auto v = instance.optional(letter))
            p.bounds[*dim_from_name(letter)] = v->as_positive_int();
    }
    for (auto [name, field] :
         {std::pair{"Wstride", &p.wstride}, std::pair{"Hstride", &p.hstride},
          std::pair{"Wdilation", &p.wdilation}, std::pair{"Hdilation", &p.hdilation}}) {
        if (auto v = instance.optional(name)) *field = v->as_positive_int();
    }
    instance.finish();
}

TimeloopDataSpace data_space_of(const SpecNode& node) {
    const std::string name = node.as_choice({"Weights", "Inputs", "Outputs"});
    return name == "Weights"  ? TimeloopDataSpace::weights
           : name == "Inputs" ? TimeloopDataSpace::inputs
                              : TimeloopDataSpace::outputs;
}

void read_mapping(const SpecNode& node, TimeloopSpec& spec) {
    for (const SpecNode& item : node.items()) {
        MapReader map(item);
        TimeloopMappingEntry e;
        e.location = item.location();
        e.target = map.required("target").as_string();
        const std::string type =
            map.required("type").as_choice({"temporal", "spatial", "datatype", "bypass"});
        e.type = type == "temporal"  ? TimeloopMappingEntry::Type::temporal
                 : type == "spatial" ? TimeloopMappingEntry::Type::spatial
                                     : TimeloopMappingEntry::Type::datatype;
        if (e.type == TimeloopMappingEntry::Type::datatype) {
            if (auto keep = map.optional("keep")) {
                for (const SpecNode& s : keep->items()) e.keep.push_back(data_space_of(s));
            }
            if (auto bypass = map.optional("bypass")) {
                for (const SpecNode& s : bypass->items()) e.bypass.push_back(data_space_of(s));
            }
            map.finish();
            spec.mapping.push_back(e);
            continue;
        }
        if (auto factors = map.optional("factors")) {
            std::string text = factors->as_string();
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
                                              quoted_excerpt(factors->as_string())),
                                  "tokens such as `C4` or `C=4` with positive factors",
                                  "a factor of 0 (\"the rest\") is not supported: give it");
                }
                at = std::size_t(end - text.data());
                if (e.factors[d] != 0) {
                    factors->fail(fmt::format("dimension {} given twice in `{}`", dim_name(d),
                                              quoted_excerpt(factors->as_string())),
                                  "each dimension at most once");
                }
                e.factors[d] = f;
            }
        }
        if (auto perm = map.optional("permutation")) {
            for (char c : perm->as_string()) {
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
            spec.art[name] = area.as_double();
            if (spec.art[name] < 0) {
                area.fail(fmt::format("negative area {}", spec.art[name]), "an area >= 0 (µm²)");
            }
            t.finish();
            continue;
        }
        TimeloopActionEnergies energies;
        for (const SpecNode& action : t.required("actions").items()) {
            MapReader a(action);
            const std::string action_name = a.required("name").as_string();
            const SpecNode energy_node = a.required("energy");
            const double energy = energy_node.as_double();
            if (energy < 0) {
                energy_node.fail(fmt::format("negative energy {} pJ", energy),
                                 "an energy >= 0 (pJ per action)");
            }
            a.allow({"arguments"});
            a.finish();
            std::optional<double>* slot = nullptr;
            if (action_name == "read") slot = &energies.read;
            if (action_name == "write") slot = &energies.write;
            if (action_name == "update") slot = &energies.update;
            if (action_name == "leak") slot = &energies.leak;
            if (action_name == "compute" || action_name == "mac_random") slot = &energies.compute;
            if (slot == nullptr) {
                spec.notes.push_back(
                    fmt::format("{}: ERT action `{}` of `{}` is not used by "
                                "trainloop's model; ignored",
                                format_location(action.location()), action_name, name));
                continue;
            }
            if (*slot) {
                action.fail(fmt::format("ERT action `{}` of `{}` appears twice", action_name, name),
                            "one energy per action (trainloop does not select by arguments)");
            }
            *slot = energy;
        }
        t.finish();
        spec.ert[name] = energies;
    }
}

}  // namespace

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
    known.push_back("sparse_optimizations");
    for (const SpecNode& root : roots) {
        MapReader top(root);  // checks it is a mapping
        for (const auto& entry : root.raw()) {
            const std::string key = entry.first.Scalar();
            const SpecNode value = root.sibling(entry.second, key, entry.first.Mark());
            if (key == "sparse_optimizations") {
                value.fail("Timeloop sparse optimizations are not read by trainloop",
                           "a dense Timeloop spec",
                           "describe sparsity with a trainloop sparsity profile after "
                           "`trainloop import timeloop`");
            }
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
                root.sibling(entry.first, key)
                    .fail(fmt::format("unknown top-level key `{}`", key),
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
    read_problem(sections.at("problem"), spec);
    read_mapping(sections.at("mapping"), spec);
    read_table(sections.at("ERT"), spec, true);
    if (sections.count("ART")) read_table(sections.at("ART"), spec, false);
    return spec;
}

}  // namespace trainloop
