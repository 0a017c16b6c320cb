// Random mappings that obey the structural rules (factors multiply to the
// bounds, spatial factors within each level's fanout, keep rules); capacity
// may still be exceeded. For property tests and benchmarks.
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "arch/arch_model.hpp"
#include "problem/iteration_space.hpp"

namespace trainloop::testing {

inline std::vector<std::int64_t> divisors_of(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d <= n; ++d) {
        if (n % d == 0) out.push_back(d);
    }
    return out;
}

inline Mapping random_mapping(const ArchModel& arch, const IterationSpace& space,
                              std::mt19937_64& rng) {
    Mapping m;
    m.num_levels = std::uint8_t(arch.num_levels);
    std::vector<std::int64_t> room_x(arch.num_levels), room_y(arch.num_levels);
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        room_x[i] = arch.fanout_x(i);
        room_y[i] = arch.fanout_y(i);
        DataSpaceSet keep;
        for (DataSpace s : kAllDataSpaces) {
            if (i == 0 || (arch.levels[i].may_hold.contains(s) && rng() % 5 != 0)) keep.insert(s);
        }
        m.level(i).keep = keep;
    }
    std::vector<std::vector<Loop>> temporal(arch.num_levels);
    for (Dim d : kAllDims) {
        std::int64_t rest = space.bounds[d];
        // Visit the slots (level × kind) in a random order; DRAM's temporal
        // slot takes what is left.
        std::vector<std::pair<std::size_t, int>> slots;
        for (std::size_t i = 0; i < arch.num_levels; ++i) {
            for (int kind = 0; kind < 3; ++kind) {
                if (!(i == 0 && kind == 0)) slots.emplace_back(i, kind);
            }
        }
        std::shuffle(slots.begin(), slots.end(), rng);
        for (const auto& [i, kind] : slots) {
            std::vector<std::int64_t> choices;
            for (std::int64_t f : divisors_of(rest)) {
                if (kind == 1 && f > room_x[i]) continue;
                if (kind == 2 && f > room_y[i]) continue;
                choices.push_back(f);
            }
            const std::int64_t f = choices[rng() % choices.size()];
            if (f == 1) continue;
            rest /= f;
            if (kind == 0) temporal[i].push_back({d, f});
            if (kind == 1) {
                m.level(i).spatial_x.push_back({d, f});
                room_x[i] /= f;
            }
            if (kind == 2) {
                m.level(i).spatial_y.push_back({d, f});
                room_y[i] /= f;
            }
        }
        if (rest > 1) temporal[0].push_back({d, rest});
    }
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        std::shuffle(temporal[i].begin(), temporal[i].end(), rng);
        for (const Loop& l : temporal[i]) m.level(i).temporal.push_back(l);
    }
    return m;
}

}  // namespace trainloop::testing
