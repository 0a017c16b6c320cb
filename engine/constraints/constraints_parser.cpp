#include "constraints/constraints_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "common/did_you_mean.hpp"
#include "common/spec_reading.hpp"
#include "vocabulary/data_space_reading.hpp"

namespace trainloop {
namespace {

ConstraintOrigin origin_of(const SpecNode& node) { return {node.location(), node.path()}; }

std::vector<std::string> dim_names() {
    std::vector<std::string> names;
    for (Dim d : kAllDims) names.emplace_back(dim_name(d));
    return names;
}

Dim read_dim(const SpecNode& node) {
    const std::string text = node.as_string();
    if (text.size() == 1) {  // one letter is too short for did-you-mean: suggest its case
        const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        if (upper != text[0] && dim_from_name(std::string_view(&upper, 1))) {
            node.fail(fmt::format("unknown dimension `{}`", text), "one of N, K, C, P, Q, R, S, G",
                      fmt::format("did you mean `{}`? (dimensions are upper case)", upper));
        }
    }
    return *dim_from_name(node.as_choice(dim_names()));
}

// A list of distinct dimensions (a single letter is a list of one).
std::vector<Dim> read_dim_list(const SpecNode& node) {
    std::vector<SpecNode> items;
    if (node.is_scalar()) {
        items.push_back(node);
    } else if (node.is_sequence()) {
        items = node.items();
    } else {
        node.fail("expected a list of dimensions", "a list such as [K, C]");
    }
    std::vector<Dim> dims;
    for (const SpecNode& item : items) {
        const Dim d = read_dim(item);
        if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
            item.fail(fmt::format("dimension `{}` listed twice", dim_name(d)),
                      "each dimension at most once");
        }
        dims.push_back(d);
    }
    return dims;
}

// The keys of a YAML mapping, each as a located node (for maps keyed by
// names: levels, dimensions).
std::vector<std::pair<SpecNode, SpecNode>> entries(const SpecNode& node) {
    if (!node.is_map()) node.fail("expected a mapping", "`name: value` entries");
    std::vector<std::pair<SpecNode, SpecNode>> out;
    for (const auto& entry : node.raw()) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "?";
        const std::string path = child_key_path(node.path(), key);
        out.emplace_back(node.sibling(entry.first, path),
                         node.sibling(entry.second, path, entry.first.Mark()));
    }
    return out;
}

// x: across the columns (and the MACs of a PE), y: across the rows.
std::int64_t axis_size(ArrayAxis axis, const PeArray& array) {
    return axis == ArrayAxis::x ? array.columns * array.macs_per_pe : array.rows;
}

SpatialAxisConstraint read_axis(const SpecNode& node, ArrayAxis axis, const PeArray& array) {
    SpatialAxisConstraint c;
    c.origin = origin_of(node);
    if (!node.is_map()) {
        c.dims = read_dim_list(node);
        return c;
    }
    MapReader reader(node);
    c.dims = read_dim_list(reader.required("dims"));
    if (const auto factors = reader.optional("factors")) {
        std::int64_t product = 1;
        for (const auto& [key, value] : entries(*factors)) {
            const Dim d = read_dim(key);
            if (std::find(c.dims.begin(), c.dims.end(), d) == c.dims.end()) {
                key.fail(fmt::format("a factor for `{}`, which is not across {}", dim_name(d),
                                     array_axis_name(axis)),
                         "factors for dimensions listed under `dims`",
                         fmt::format("add `{}` to `dims`", dim_name(d)));
            }
            c.fixed[d] = value.as_positive_int();
            product *= c.fixed[d];
            if (product > axis_size(axis, array)) {
                value.fail(
                    fmt::format("fixed spatial factors multiply to {} across {}, but the "
                                "array has {} {}",
                                product, array_axis_name(axis), axis_size(axis, array),
                                axis == ArrayAxis::x ? "columns (× MACs per PE)" : "rows"),
                    fmt::format("factors whose product is at most {}", axis_size(axis, array)));
            }
        }
    }
    reader.finish();
    return c;
}

FactorBound read_factor_bound(const SpecNode& node) {
    FactorBound b;
    b.origin = origin_of(node);
    if (node.is_scalar()) {
        b.min = b.max = node.as_positive_int();
        return b;
    }
    if (!node.is_map()) {
        node.fail("expected a factor bound", "an exact factor such as 4, or {min: 2, max: 8}");
    }
    MapReader reader(node);
    const auto min = reader.optional("min");
    const auto max = reader.optional("max");
    reader.finish();
    if (!min && !max) node.fail("an empty factor bound", "`min`, `max` or both");
    if (min) b.min = min->as_positive_int();
    if (max) b.max = max->as_positive_int();
    if (b.min > b.max) {
        node.fail(fmt::format("contradictory bounds: min {} > max {}", b.min, b.max), "min <= max");
    }
    return b;
}

LevelConstraints read_level(const SpecNode& node, std::size_t index,
                            const std::vector<StorageLevel>& levels) {
    const StorageLevel& level = levels[index];
    LevelConstraints c;
    MapReader reader(node);
    if (const auto factors = reader.optional("factors")) {
        for (const auto& [key, value] : entries(*factors)) {
            c.factors[read_dim(key)] = read_factor_bound(value);
        }
    }
    const auto order = reader.optional("order");
    const auto partial = reader.optional("partial_order");
    if (order && partial) {
        partial->fail("both `order` and `partial_order` for one level",
                      "`order` (the whole order) or `partial_order` (the relative order of "
                      "some dimensions)");
    }
    if (order || partial) {
        const SpecNode& at = order ? *order : *partial;
        c.order = LoopOrderConstraint{read_dim_list(at), order.has_value(), origin_of(at)};
    }
    for (const bool keep : {true, false}) {
        const auto spaces = reader.optional(keep ? "keep" : "bypass");
        if (!spaces) continue;
        const DataSpaceSet set = read_data_space_set(*spaces);
        for (DataSpace s : kAllDataSpaces) {
            if (!set.contains(s)) continue;
            auto& slot = c.keep[s];
            if (slot) {
                spaces->fail(fmt::format("`{}` is both kept and bypassed at `{}`",
                                         data_space_name(s), level.name),
                             "each data space in `keep` or `bypass`, not both");
            }
            if (keep && !level.holds(s)) {
                spaces->fail(fmt::format("level `{}` may not hold `{}` (architecture)", level.name,
                                         data_space_name(s)),
                             fmt::format("data spaces `{}` holds: {}", level.name,
                                         data_space_set_text(level.data_spaces)),
                             "add it to the level's `data_spaces`, or drop it from `keep`");
            }
            if (!keep && index == 0) {
                spaces->fail(fmt::format("the outermost level `{}` cannot bypass `{}`: every "
                                         "tensor lives there",
                                         level.name, data_space_name(s)),
                             "`bypass` only at inner levels");
            }
            slot = KeepRequirement{keep, origin_of(*spaces)};
        }
    }
    reader.finish();
    return c;
}

// Which body is read: the top level, which may hold `phases:`, or one phase's.
enum class BodyKind { general, one_phase };

MappingConstraints read_body(MapReader& reader, const std::vector<StorageLevel>& levels,
                             const PeArray& array, BodyKind kind = BodyKind::general);

// `phases: {fw: BODY, bw: BODY, wu: BODY}`: each phase's entries override the
// general ones for that phase's problems.
std::vector<PhaseConstraints> read_phases(const SpecNode& section,
                                          const std::vector<StorageLevel>& levels,
                                          const PeArray& array) {
    std::vector<std::string> names;
    for (Phase p : kAllPhases) names.emplace_back(phase_name(p));
    std::vector<PhaseConstraints> phases;
    for (const auto& [key, value] : entries(section)) {
        const Phase phase = *phase_from_name(key.as_choice(names));
        MapReader body(value);
        PhaseConstraints entry{phase, read_body(body, levels, array, BodyKind::one_phase),
                               origin_of(key)};
        body.finish();
        phases.push_back(std::move(entry));
    }
    return phases;
}

MappingConstraints read_body(MapReader& reader, const std::vector<StorageLevel>& levels,
                             const PeArray& array, BodyKind kind) {
    MappingConstraints c;
    for (const StorageLevel& level : levels) c.level_names.push_back(level.name);
    if (const auto spatial = reader.optional("spatial")) {
        MapReader axes(*spatial);
        for (ArrayAxis axis : {ArrayAxis::x, ArrayAxis::y}) {
            if (const auto node = axes.optional(array_axis_name(axis))) {
                c.spatial[static_cast<std::size_t>(axis)] = read_axis(*node, axis, array);
            }
        }
        axes.finish();
    }
    if (const auto section = reader.optional("levels")) {
        c.levels.resize(levels.size());
        for (const auto& [key, value] : entries(*section)) {
            const std::string name = key.as_string();
            const auto it = std::find(c.level_names.begin(), c.level_names.end(), name);
            if (it == c.level_names.end()) {
                spec_reading::fail_unknown_name(key, "storage level", name, c.level_names);
            }
            const auto index = static_cast<std::size_t>(it - c.level_names.begin());
            c.levels[index] = read_level(value, index, levels);
        }
    }
    if (kind == BodyKind::general) {
        if (const auto section = reader.optional("phases"))
            c.phases = read_phases(*section, levels, array);
    }
    check_constraints_consistent(c);
    return c;
}

}  // namespace

void check_constraints_consistent(const MappingConstraints& c) {
    // Each phase's resolution must hold together as well.
    for (const PhaseConstraints& phase : c.phases) {
        check_constraints_consistent(constraints_for_phase(c, phase.phase));
    }
    // A dimension listed across both axes is no contradiction: its spatial
    // factor is split between them (docs/mapping_constraints.md).
    for (std::size_t i = 0; i < c.levels.size(); ++i) {
        const LevelConstraints& level = c.levels[i];
        if (!level.order || !level.order->full) continue;
        for (Dim d : kAllDims) {
            const auto& bound = level.factors[d];
            const auto& listed = level.order->dims;
            if (!bound || bound->min <= 1 ||
                std::find(listed.begin(), listed.end(), d) != listed.end()) {
                continue;
            }
            const ConstraintOrigin& later =
                bound->origin.where.line > level.order->origin.where.line ? bound->origin
                                                                          : level.order->origin;
            throw SpecError(
                later.where, later.key,
                fmt::format("contradictory constraints at `{}`: the full order ({}) leaves out "
                            "`{}`, so its factor there is 1, but the factor bound ({}) needs at "
                            "least {}",
                            c.level_names[i], origin_text(level.order->origin), dim_name(d),
                            origin_text(bound->origin), bound->min),
                "a full order that lists every dimension with a factor > 1 at the level",
                fmt::format("add `{}` to the order, or use `partial_order`", dim_name(d)));
        }
    }
}

MappingConstraints parse_constraints_section(const SpecNode& node,
                                             const std::vector<StorageLevel>& levels,
                                             const PeArray& array) {
    MapReader reader(node);
    MappingConstraints c = read_body(reader, levels, array);
    reader.finish();
    return c;
}

std::optional<std::filesystem::path> read_constraints_target(const SpecNode& root) {
    MapReader reader(root);
    const auto target = reader.optional("for");
    if (!target) return std::nullopt;
    MapReader block(*target);
    const SpecNode arch = block.required("arch");
    block.finish();
    return (std::filesystem::path(root.file()).parent_path() / arch.as_string()).lexically_normal();
}

ConstraintsFile parse_constraints_file(const SpecNode& root,
                                       const std::vector<StorageLevel>& levels,
                                       const PeArray& array) {
    ConstraintsFile file;
    file.arch = read_constraints_target(root);
    MapReader reader(root);
    reader.allow({"for"});
    file.name = spec_reading::read_name(reader.required("mapping_constraints"));
    if (const auto description = reader.optional("description"))
        file.description = description->as_string();
    file.constraints = read_body(reader, levels, array);
    reader.finish();
    return file;
}

ConstraintsFile load_constraints_file(const std::filesystem::path& path,
                                      const std::vector<StorageLevel>& levels,
                                      const PeArray& array) {
    return parse_constraints_file(SpecNode::load_file(path), levels, array);
}

}  // namespace trainloop
