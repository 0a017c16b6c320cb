#include "density/glob.hpp"

#include <fmt/format.h>

namespace trainloop {

bool glob_match(std::string_view pattern, std::string_view name) {
    // Greedy matching with backtracking to the last `*` (linear in practice).
    std::size_t p = 0, n = 0;
    std::size_t star = std::string_view::npos, star_n = 0;
    while (n < name.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[n])) {
            ++p;
            ++n;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            star_n = n;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            n = ++star_n;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

std::optional<std::string> glob_problem(std::string_view pattern) {
    if (pattern.empty()) return std::string("empty pattern");
    for (char c : std::string_view("[]{}\\!")) {
        if (pattern.find(c) != std::string_view::npos) {
            return fmt::format(
                "`{}` is not supported in a pattern (only `*` and `?` are wildcards)", c);
        }
    }
    return std::nullopt;
}

}  // namespace trainloop
