// Small readers shared by the spec parsers (architecture, component library,
// constraints): enumerations from their name tables, names, and the
// "unknown name" / "duplicate name" errors (physical quantities:
// common/quantities.hpp). All failures are SpecErrors at the node read. (Data spaces:
// vocabulary/data_space_reading.hpp.)
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/spec_node.hpp"

namespace trainloop::spec_reading {

// One of `names`, as the enum whose values index them.
template <typename Enum, std::size_t N>
Enum read_enum(const SpecNode& node, const std::array<std::string_view, N>& names) {
    const std::vector<std::string> choices(names.begin(), names.end());
    const std::string text = node.as_choice(choices);
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == text) return static_cast<Enum>(i);
    }
    node.fail("internal: choice not in its table");
}

// A name a spec defines (a string scalar): what common/names.hpp allows,
// else an error at the node naming the character.
std::string read_name(const SpecNode& node);

// "unknown <what> `name`", listing `known`, with a did-you-mean hint.
[[noreturn]] void fail_unknown_name(const SpecNode& node, std::string_view what,
                                    const std::string& name, const std::vector<std::string>& known);

// "duplicate <what> `name`" pointing back at the first definition.
[[noreturn]] void fail_duplicate_name(const SpecNode& node, std::string_view what,
                                      const std::string& name, const SpecNode& first);

}  // namespace trainloop::spec_reading
