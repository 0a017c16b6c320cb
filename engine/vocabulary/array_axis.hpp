// ArrayAxis: a direction of the 2-D PE array. `x` runs along a row, across
// the columns (a row broadcast travels along x); `y` runs along a column,
// across the rows (a column reduction travels along y); `both` spans the
// whole array (e.g. a unicast network that reaches every PE).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trainloop {

enum class ArrayAxis : std::uint8_t { x, y, both };
inline constexpr std::array<std::string_view, 3> kArrayAxisNames = {"x", "y", "both"};

constexpr std::string_view array_axis_name(ArrayAxis a) {
    return kArrayAxisNames[static_cast<std::size_t>(a)];
}

}  // namespace trainloop
