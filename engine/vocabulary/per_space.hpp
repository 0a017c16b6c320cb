// PerDataSpace<T> and PerPhase<T>: one value per data space (weights, inputs,
// outputs) or per training phase (fw, bw, wu), indexed by the enum itself.
// They replace std::array<T, 3> indexed through casts, so a phase cannot be
// used where a data space is meant. Fixed-size aggregates: brace-initialize
// them like the array they hold ({a, b, c}, in enum order).
#pragma once

#include <array>
#include <cstddef>

#include "vocabulary/phase.hpp"

namespace trainloop {

template <typename T, typename Key>
struct PerKey {
    std::array<T, 3> values{};

    constexpr T& operator[](Key k) { return values[static_cast<std::size_t>(k)]; }
    constexpr const T& operator[](Key k) const { return values[static_cast<std::size_t>(k)]; }
    constexpr auto begin() { return values.begin(); }
    constexpr auto end() { return values.end(); }
    constexpr auto begin() const { return values.begin(); }
    constexpr auto end() const { return values.end(); }
    static constexpr std::size_t size() { return 3; }
    constexpr void fill(const T& value) { values.fill(value); }
    friend constexpr bool operator==(const PerKey&, const PerKey&) = default;
};

template <typename T>
using PerDataSpace = PerKey<T, DataSpace>;
template <typename T>
using PerPhase = PerKey<T, Phase>;

}  // namespace trainloop
