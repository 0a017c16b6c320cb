#include "common/did_you_mean.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace trainloop {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t rows = a.size() + 1;
    const std::size_t cols = b.size() + 1;
    std::vector<std::size_t> d(rows * cols);
    auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * cols + j]; };
    for (std::size_t i = 0; i < rows; ++i) at(i, 0) = i;
    for (std::size_t j = 0; j < cols; ++j) at(0, j) = j;
    for (std::size_t i = 1; i < rows; ++i) {
        for (std::size_t j = 1; j < cols; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
            }
        }
    }
    return at(rows - 1, cols - 1);
}

std::optional<std::string> nearest_name(std::string_view word,
                                        const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    std::size_t best_distance = 3;  // accept at most 2 edits
    for (const auto& candidate : candidates) {
        const std::size_t distance = edit_distance(word, candidate);
        if (distance < best_distance && 2 * distance < std::max(word.size(), candidate.size())) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

std::string suggestion_hint(std::string_view word, const std::vector<std::string>& candidates) {
    if (auto near = nearest_name(word, candidates)) return fmt::format("did you mean `{}`?", *near);
    if (candidates.empty()) return {};
    return fmt::format("valid: {}", fmt::join(candidates, ", "));
}

}  // namespace trainloop
