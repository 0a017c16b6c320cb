// The last line of defence against a silent wrong number: what the model
// returns is finite, or the run ends in an internal error (exit 1) naming
// the figure, never a printed `nan` or `inf`. The first line is at the edge:
// every physical quantity a spec gives is range-checked
// (common/quantities.hpp), so this fires only on a bug.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace trainloop {

// Throws std::logic_error when any of `figures` (name, value) is NaN or
// infinite; `what` names the computation.
inline void require_finite(std::string_view what,
                           std::initializer_list<std::pair<std::string_view, double>> figures) {
    for (const auto& [name, value] : figures) {
        if (!std::isfinite(value)) {
            throw std::logic_error(
                fmt::format("{}: {} came out as {} (an input outside the ranges trainloop checks?)",
                            what, name, value));
        }
    }
}

}  // namespace trainloop
