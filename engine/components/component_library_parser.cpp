#include "components/component_library_parser.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "common/quantities.hpp"
#include "common/spec_reading.hpp"

namespace trainloop {
namespace {

using spec_reading::read_enum;

std::string action_key(Action a) { return fmt::format("{}_pj", action_name(a)); }

// Keys of one priced point of a component of class `c` (a table row, or the
// entry itself for the one-point classes), capacity excluded.
std::vector<std::string> point_keys(ComponentClass c) {
    std::vector<std::string> keys = {"area_um2"};
    if (c == ComponentClass::logic) return keys;  // priced by area only
    keys.emplace_back("word_bits");
    keys.emplace_back("leakage_mw");
    for (Action a : component_actions(c)) keys.push_back(action_key(a));
    return keys;
}

void allow_keys(MapReader& reader, const std::vector<std::string>& keys) {
    for (const std::string& k : keys) reader.allow({k});
}

// Reads the point keys from `reader` (already finished).
ComponentPoint read_point(MapReader& reader, ComponentClass c) {
    ComponentPoint point;
    if (c != ComponentClass::logic) point.word_bits = read_width_bits(reader.required("word_bits"));
    for (Action a : component_actions(c)) {
        if (a == Action::update) continue;  // below: defaults to write
        if (a == Action::router) {          // optional: a bus or systolic link has no router
            if (const auto router = reader.optional(action_key(a)))
                point.energy.set(a, read_non_negative_quantity(*router, Quantity::energy));
            continue;
        }
        // A wire may be left unpriced (0 pJ), as Timeloop's default network model does.
        const SpecNode energy = reader.required(action_key(a));
        point.energy.set(a, a == Action::hop ? read_non_negative_quantity(energy, Quantity::energy)
                                             : read_positive_quantity(energy, Quantity::energy));
    }
    if (c == ComponentClass::sram || c == ComponentClass::regfile || c == ComponentClass::dram) {
        // An update (read-modify-write of an accumulator) costs a write unless given.
        const auto update = reader.optional(action_key(Action::update));
        point.energy.set(Action::update, update ? read_positive_quantity(*update, Quantity::energy)
                                                : *point.energy.get(Action::write));
    }
    if (c != ComponentClass::logic) {
        point.leakage_mw =
            read_non_negative_quantity(reader.required("leakage_mw"), Quantity::power);
    }
    point.area_um2 = read_non_negative_quantity(reader.required("area_um2"), Quantity::area);
    return point;
}

std::vector<ComponentPoint> read_table(const SpecNode& table, ComponentClass c) {
    const std::vector<SpecNode> rows = table.items();
    if (rows.empty()) table.fail("empty table", "at least one (capacity, word_bits) row");
    std::vector<ComponentPoint> points;
    for (const SpecNode& row : rows) {
        MapReader reader(row);
        reader.allow({"capacity"});
        allow_keys(reader, point_keys(c));
        reader.finish();
        const std::int64_t capacity = reader.required("capacity").as_bytes();
        ComponentPoint point = read_point(reader, c);
        point.capacity_bytes = capacity;
        if (!points.empty()) {
            const ComponentPoint& prev = points.back();
            const auto key = std::pair(*point.capacity_bytes, point.word_bits);
            const auto prev_key = std::pair(*prev.capacity_bytes, prev.word_bits);
            if (key <= prev_key) {
                row.fail(
                    fmt::format("table row ({} bytes, {} bits) {} ({} bytes, {} bits)", key.first,
                                key.second, key == prev_key ? "repeats" : "comes after",
                                prev_key.first, prev_key.second),
                    "rows sorted by capacity, then word_bits, each point once",
                    "reorder the rows (the evaluator interpolates between neighbours)");
            }
        }
        points.push_back(point);
    }
    return points;
}

}  // namespace

Component parse_component(const SpecNode& node) {
    MapReader reader(node);
    reader.allow({"name", "class", "description"});
    Component component;
    const auto class_node = reader.optional("class");
    if (class_node && !class_node->is_null()) {
        component.component_class = read_enum<ComponentClass>(*class_node, kComponentClassNames);
        if (is_table_class(component.component_class)) {
            reader.allow({"table", "outside_table"});
        } else {
            allow_keys(reader, point_keys(component.component_class));
        }
    } else {
        // No class yet: accept every key any class has, so that a misspelled
        // `class` is reported as such rather than as a stray key.
        reader.allow({"table", "outside_table"});
        for (std::size_t i = 0; i < kComponentClassNames.size(); ++i) {
            allow_keys(reader, point_keys(static_cast<ComponentClass>(i)));
        }
    }
    reader.finish();
    component.name = spec_reading::read_name(reader.required("name"));
    reader.required("class");
    if (const auto description = reader.optional("description")) {
        component.description = description->as_string();
    }
    if (is_table_class(component.component_class)) {
        component.points = read_table(reader.required("table"), component.component_class);
        if (const auto rule = reader.optional("outside_table")) {
            component.outside_table = read_enum<OutsideTable>(*rule, kOutsideTableNames);
        }
    } else {
        component.points = {read_point(reader, component.component_class)};
    }
    return component;
}

std::vector<Component> parse_component_list(const SpecNode& list) {
    std::vector<Component> components;
    std::vector<SpecNode> name_nodes;
    for (const SpecNode& item : list.items()) {
        Component component = parse_component(item);
        for (std::size_t i = 0; i < components.size(); ++i) {
            if (components[i].name == component.name) {
                spec_reading::fail_duplicate_name(MapReader(item).required("name"), "component",
                                                  component.name, name_nodes[i]);
            }
        }
        name_nodes.push_back(MapReader(item).required("name"));
        components.push_back(std::move(component));
    }
    return components;
}

ComponentLibrary parse_component_library(const SpecNode& root) {
    MapReader reader(root);
    reader.allow({"components", "technology", "description", "entries"});
    reader.finish();
    ComponentLibrary library;
    library.name = spec_reading::read_name(reader.required("components"));
    if (const auto technology = reader.optional("technology")) {
        library.technology = technology->as_string();
    }
    if (const auto description = reader.optional("description")) {
        library.description = description->as_string();
    }
    const SpecNode entries = reader.required("entries");
    library.components = parse_component_list(entries);
    if (library.components.empty()) entries.fail("empty component library", "at least one entry");
    return library;
}

std::optional<std::string> outside_table_error(const Component& component,
                                               std::int64_t capacity_bytes) {
    if (!is_table_class(component.component_class) ||
        component.outside_table != OutsideTable::refuse)
        return std::nullopt;
    if (capacity_bytes >= component.min_capacity() && capacity_bytes <= component.max_capacity())
        return std::nullopt;
    return fmt::format(
        "{} bytes is outside the capacities component `{}`'s table covers ({}–{} bytes), and "
        "its library does not extrapolate (`outside_table: refuse`)",
        capacity_bytes, component.name, component.min_capacity(), component.max_capacity());
}

ComponentLibrary load_component_library(const std::filesystem::path& path) {
    return parse_component_library(SpecNode::load_file(path));
}

}  // namespace trainloop
