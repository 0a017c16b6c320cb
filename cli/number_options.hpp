// Strict numeric command-line values. CLI11's own conversion reads `010` as
// octal 8, clamps `99999999999999999999` to 2^63-1, and takes `nan` and `inf`
// as numbers; these validators accept base-10 integers within a range and
// finite numbers only (else CLI11 reports the option and the reason, exit 2),
// and rewrite the text into the plain form CLI11 then converts unchanged.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>

#include "common/checked_math.hpp"
#include "usable_threads.hpp"

namespace trainloop::cli {

namespace number_detail {

// Whole text, base 10, optional sign; nullopt-like failure through `ok`.
template <typename T>
bool read_whole(const std::string& text, T& value) {
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+') ++begin;  // from_chars takes no '+'
    const auto [stop, error] = std::from_chars(begin, end, value);
    return error == std::errc{} && stop == end && begin != end;
}

}  // namespace number_detail

// An integer in [min, max].
inline CLI::Validator integer_in(std::int64_t min, std::int64_t max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            std::int64_t value = 0;
            if (!number_detail::read_whole(text, value) || value < min || value > max) {
                return fmt::format("`{}` is not an integer in {}..{}", text, min, max);
            }
            text = std::to_string(value);
            return {};
        },
        fmt::format("INT in [{} - {}]", min, max));
}

// A count: an integer in [min, 2^53] (common/checked_math.hpp).
inline CLI::Validator count_from(std::int64_t min) { return integer_in(min, kMaxCount); }

// Any 64-bit unsigned integer (seeds).
inline CLI::Validator unsigned_integer() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::uint64_t value = 0;
            if (text.empty() || text[0] == '-' || !number_detail::read_whole(text, value)) {
                return fmt::format("`{}` is not an integer in 0..2^64-1", text);
            }
            text = std::to_string(value);
            return {};
        },
        "UINT");
}

// A finite number in [min, max].
inline CLI::Validator finite_number_in(double min, double max) {
    return CLI::Validator(
        [min, max](std::string& text) -> std::string {
            double value = 0;
            if (!number_detail::read_whole(text, value) || !std::isfinite(value) || value < min ||
                value > max) {
                return fmt::format("`{}` is not a number in {:g}..{:g}", text, min, max);
            }
            text = fmt::format("{}", value);
            return {};
        },
        fmt::format("NUMBER in [{:g} - {:g}]", min, max));
}

}  // namespace trainloop::cli
