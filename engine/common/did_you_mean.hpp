// Suggestions for misspelled names ("did you mean `capacity`?").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainloop {

// Optimal-string-alignment edit distance (insertions, deletions,
// substitutions and transpositions of adjacent characters each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if it is close enough to be a plausible
// typo: at most 2 edits, and fewer edits than half of the word's length.
std::optional<std::string> nearest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

// "did you mean `x`?" when a near name exists, else "valid: a, b, c".
std::string suggestion_hint(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace trainloop
