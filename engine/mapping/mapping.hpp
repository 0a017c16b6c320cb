// Mapping: how one phase problem is scheduled on an architecture.
//
// For every storage level, from the outermost (DRAM) inward: the temporal
// loops (dimension and factor, outermost first), the spatial loops that
// spread the level's tile over the instances of the next level inward —
// across the PE array's columns (X) and rows (Y) — and which data spaces the
// level keeps (the others bypass it).
//
// A plain value of fixed size: the mapper builds and the evaluator reads
// millions of them, so nothing here allocates. Levels are referred to by their
// index in the architecture (0 = outermost). Parsing, printing and
// validation live at the edge (mapping_yaml, mapping_text, mapping_check).
#pragma once

#include <array>
#include <cstdint>

#include "common/checked_math.hpp"
#include "vocabulary/data_space_set.hpp"
#include "vocabulary/dims.hpp"
#include "vocabulary/fixed_list.hpp"
#include "vocabulary/limits.hpp"

namespace trainloop {

struct Loop {
    Dim dim = Dim::N;
    std::int64_t factor = 1;
    friend bool operator==(const Loop&, const Loop&) = default;
};

// At most one loop per dimension in a list.
class LoopList : public FixedList<Loop, kNumDims> {
  public:
    // Product of the factors of the loops over `dim` (1 if none). Products
    // saturate at INT64_MAX: a mapping read from a file may hold any factors,
    // and an overflowing product must stay larger than every bound it is
    // checked against.
    constexpr std::int64_t factor_of(Dim dim) const {
        std::int64_t f = 1;
        for (const Loop& loop : *this) {
            if (loop.dim == dim) f = saturating_mul(f, loop.factor);
        }
        return f;
    }
    constexpr std::int64_t product() const {
        std::int64_t f = 1;
        for (const Loop& loop : *this) f = saturating_mul(f, loop.factor);
        return f;
    }
};

struct LevelMapping {
    LoopList temporal;   // outermost first
    LoopList spatial_x;  // across the array's columns
    LoopList spatial_y;  // across the array's rows
    DataSpaceSet keep;   // data spaces this level holds
    friend bool operator==(const LevelMapping&, const LevelMapping&) = default;
};

struct Mapping {
    std::array<LevelMapping, kMaxLevels> levels{};
    std::uint8_t num_levels = 0;

    const LevelMapping& level(std::size_t i) const { return levels[i]; }
    LevelMapping& level(std::size_t i) { return levels[i]; }
    // Product of all factors of `dim` over every level and loop kind.
    std::int64_t total_factor(Dim dim) const {
        std::int64_t f = 1;
        for (std::size_t i = 0; i < num_levels; ++i) {
            f = saturating_mul(f, levels[i].temporal.factor_of(dim));
            f = saturating_mul(f, levels[i].spatial_x.factor_of(dim));
            f = saturating_mul(f, levels[i].spatial_y.factor_of(dim));
        }
        return f;
    }
    friend bool operator==(const Mapping& a, const Mapping& b) {
        if (a.num_levels != b.num_levels) return false;
        for (std::size_t i = 0; i < a.num_levels; ++i) {
            if (!(a.levels[i] == b.levels[i])) return false;
        }
        return true;
    }
};

}  // namespace trainloop
