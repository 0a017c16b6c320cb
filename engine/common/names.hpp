// Names a spec gives to what it defines: networks, layers and inputs,
// architectures, storage levels, networks on chip, units, component
// libraries and components, sparsity profiles, constraint sets, sweeps and
// their architecture variants, the levels of an imported Timeloop spec.
//
// A name is 1 to kMaxNameBytes characters: ASCII letters, digits, `_`, `-`
// and `.`, beginning with a letter, a digit or `_`, with no `..`. So a name is
// always one plain file-name component (no `/`, never `.` or `..`, never
// hidden), an identifier in SQL and YAML without quoting, never an option on
// a command line (`-x`), and prints as itself (no control characters, no
// bidirectional overrides such as U+202E, no look-alike letters).
// docs/arch_format.md ("Names") states the rule for users.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace trainloop {

inline constexpr std::size_t kMaxNameBytes = 128;

// What is wrong with `name` as a name (a sentence, the name quoted with
// every character outside printable ASCII written as U+XXXX), or nothing.
std::optional<std::string> name_problem(std::string_view name);

// `text` with every character outside printable ASCII written as <U+XXXX>
// (a byte that is not UTF-8 as <0xXX>): safe to print, and shows what is
// there.
std::string visible_text(std::string_view text);

// What names may hold, for `expected` in errors.
inline constexpr std::string_view kNameRule =
    "a name of ASCII letters, digits, `_`, `-` and `.` (at most 128), beginning with a letter, "
    "a digit or `_`, without `..`";

}  // namespace trainloop
