// Checked integer arithmetic for every quantity a user can make large (PE
// counts, dimension bounds and their products, MAC counts, mapping factors,
// capacities, access counts).
//
// Counts are int64 in the model, but they also go through double (energies,
// ratios, JSON readers): above 2^53 a double no longer holds every integer, so
// kMaxCount = 2^53 is the largest count trainloop accepts. Inputs are checked
// against it where they are read, with a located error; the arithmetic below
// reports overflow instead of wrapping, so nothing past the edge can turn a
// huge input into a small wrong answer.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "common/spec_error.hpp"

namespace trainloop {

inline constexpr std::int64_t kMaxCount = std::int64_t{1} << 53;

// ⌈a / b⌉ for a ≥ 0, b > 0.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// How errors name the limit.
inline constexpr const char* kMaxCountText = "2^53 = 9,007,199,254,740,992";

// a·b, or nullopt when it leaves the int64 range.
constexpr std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
    return out;
}

// a+b, or nullopt when it leaves the int64 range.
constexpr std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
    return out;
}

// a·b for non-negative a and b, clamped to INT64_MAX instead of wrapping: a
// product compared against a bound (a factor product against a dimension,
// a tile against a capacity) stays larger than any bound once it overflows.
constexpr std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) return std::numeric_limits<std::int64_t>::max();
    return out;
}

// Whether `value` is a count trainloop can represent exactly (0 ..= 2^53).
constexpr bool representable_count(std::int64_t value) { return value >= 0 && value <= kMaxCount; }

// The product of counts, or nullopt when it exceeds kMaxCount.
template <typename Range>
std::optional<std::int64_t> count_product(const Range& values) {
    std::int64_t product = 1;
    for (std::int64_t v : values) {
        const auto next = checked_mul(product, v);
        if (!next || !representable_count(*next)) return std::nullopt;
        product = *next;
    }
    return product;
}

// Converts a non-negative finite double count to int64 when it is at most
// kMaxCount (rounding up), else nullopt: a cast of a larger double would be
// undefined behaviour, in practice INT64_MIN.
inline std::optional<std::int64_t> count_from_double(double value) {
    if (!(value >= 0) || value > double(kMaxCount)) return std::nullopt;
    const auto whole = std::int64_t(value);
    return double(whole) < value ? whole + 1 : whole;
}

// total + count for a sum over layers (or layer-phases) whose terms are each
// at most 2^53: past int64 it is a SpecError ("the network's total MACs
// exceed 2^63"), never a wrapped total.
inline std::int64_t add_to_total(std::int64_t total, std::int64_t count, const char* what) {
    const auto sum = checked_add(total, count);
    if (!sum) {
        throw SpecError({}, "", std::string("the network's total ") + what + " exceed 2^63",
                        "a network whose totals are representable", "a smaller batch");
    }
    return *sum;
}

}  // namespace trainloop
