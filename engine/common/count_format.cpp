#include "common/count_format.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace trainloop {

std::string group_thousands(std::int64_t value) {
    const bool negative = value < 0;
    std::string digits = std::to_string(negative ? -static_cast<std::uint64_t>(value)
                                                 : static_cast<std::uint64_t>(value));
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return negative ? "-" + out : out;
}

std::string si_count(double value) {
    constexpr std::array<const char*, 5> suffixes = {"", " k", " M", " G", " T"};
    std::size_t index = 0;
    while (std::fabs(value) >= 1000.0 && index + 1 < suffixes.size()) {
        value /= 1000.0;
        ++index;
    }
    if (index == 0) return fmt::format("{:.0f}", value);
    const int decimals = std::fabs(value) >= 100 ? 0 : (std::fabs(value) >= 10 ? 1 : 2);
    return fmt::format("{:.{}f}{}", value, decimals, suffixes[index]);
}

}  // namespace trainloop
