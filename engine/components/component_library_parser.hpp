// Reading a component library YAML (top-level key `components:`, the
// library's name; format in docs/arch_format.md). Every user error is a
// SpecError at the offending node: unknown or missing keys, wrong types,
// non-positive energies, negative leakage or area, duplicate component names,
// unsorted or repeated table points.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/spec_node.hpp"
#include "components/component_library.hpp"

namespace trainloop {

ComponentLibrary load_component_library(const std::filesystem::path& path);
ComponentLibrary parse_component_library(const SpecNode& root);

// A list of component entries (a library's `entries:`, or an architecture's
// `component_overrides:`); names must be unique within the list.
std::vector<Component> parse_component_list(const SpecNode& list);
// One component entry.
Component parse_component(const SpecNode& node);

// For a table component and a capacity outside its table whose rule is
// `outside_table: refuse`: why it cannot be priced (the architecture parser
// reports it at the level's capacity); nullopt when it can be.
std::optional<std::string> outside_table_error(const Component& component,
                                               std::int64_t capacity_bytes);

}  // namespace trainloop
