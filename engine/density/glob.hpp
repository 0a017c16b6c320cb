// Layer- and network-name patterns for sparsity rules.
//
// Contract: a pattern is a non-empty string in which `*` matches any run of
// characters (including none) and `?` matches exactly one; every other
// character matches itself. Matching is case-sensitive and covers the whole
// name. `glob_problem` says why a pattern is rejected (empty, or using
// `[`, `]`, `{`, `}`, `\` or `!`, which other glob dialects treat as special
// but this one does not), so parsers can refuse it at the edge.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trainloop {

// Whether `name` matches `pattern` as a whole. Pure; O(|pattern|·|name|).
bool glob_match(std::string_view pattern, std::string_view name);

// Why `pattern` is not a valid pattern, or nothing if it is.
std::optional<std::string> glob_problem(std::string_view pattern);

}  // namespace trainloop
