// A mapping as one list of loops, outermost first (each level's temporal
// loops, then its spatial X and Y loops), with each loop's step (the extent
// of its dimension inside it): what the brute-force reference walks of the
// nest analysis tests iterate over.
#pragma once

#include <vector>

#include "mapping/mapping.hpp"

namespace trainloop::testing {

struct FlatLoop {
    Dim d;
    std::int64_t f;
    std::int64_t step;
    bool temporal;
    std::size_t level;
};

struct FlatLoops {
    std::vector<FlatLoop> loops;
    DimBounds tile;  // the tile of the level asked for (Π of the factors at it and inside)
};

inline FlatLoops flat_loops(const Mapping& m, std::size_t level) {
    FlatLoops out;
    for (std::size_t i = 0; i < m.num_levels; ++i) {
        for (const Loop& l : m.level(i).temporal)
            out.loops.push_back({l.dim, l.factor, 1, true, i});
        for (const Loop& l : m.level(i).spatial_x)
            out.loops.push_back({l.dim, l.factor, 1, false, i});
        for (const Loop& l : m.level(i).spatial_y)
            out.loops.push_back({l.dim, l.factor, 1, false, i});
    }
    DimBounds inside;
    for (Dim d : kAllDims) inside[d] = 1;
    out.tile = inside;
    for (std::size_t k = out.loops.size(); k-- > 0;) {
        FlatLoop& l = out.loops[k];
        l.step = inside[l.d];
        inside[l.d] *= l.f;
        if (l.level >= level) out.tile = inside;
    }
    return out;
}

// Adds each loop's index × step to its dimension's offset in `at`.
inline void add_offsets(DimBounds& at, const std::vector<FlatLoop>& loops,
                        const std::vector<std::int64_t>& index) {
    for (std::size_t j = 0; j < loops.size(); ++j) at[loops[j].d] += index[j] * loops[j].step;
}

// Steps an odometer over `loops`' iterations (the last loop fastest);
// false when it wraps to all zeros.
inline bool next_iteration(std::vector<std::int64_t>& index, const std::vector<FlatLoop>& loops) {
    std::size_t j = loops.size();
    while (j > 0 && ++index[j - 1] == loops[j - 1].f) index[--j] = 0;
    return j > 0;
}

}  // namespace trainloop::testing
