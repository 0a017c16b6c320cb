// "4.2 s", "38 s", "3 min 5 s", "2 h 10 min": durations for progress lines.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace trainloop::cli {

inline std::string duration_text(double seconds) {
    if (seconds < 10) return fmt::format("{:.1f} s", seconds);
    if (seconds < 60) return fmt::format("{:.0f} s", seconds);
    const auto s = static_cast<std::int64_t>(seconds);
    if (s < 3600) return fmt::format("{} min {} s", s / 60, s % 60);
    return fmt::format("{} h {} min", s / 3600, (s % 3600) / 60);
}

}  // namespace trainloop::cli
