// Where timeloop-model v3.0.3 counts differently from trainloop, on purpose
// (docs/nest_analysis.md, "Deliberate differences from Timeloop"): for an
// evaluated case, which quantities of which level and data space Timeloop
// reports differently, each with the rule that says why. Decided from the
// nest analysis alone (never from Timeloop's output), so the reference-corpus
// tests exclude exactly these quantities and `eval --timeloop` can name them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch_model.hpp"
#include "nest/nest_analysis.hpp"

namespace trainloop {

enum class Quantity : std::uint8_t { capacity, instances, reads, fills, updates, energy, cycles };

struct Difference {
    Quantity quantity;
    std::size_t level;  // storage level index (cycles: 0)
    DataSpace space;    // (energy, cycles: weights)
    std::string rule;   // the documented difference, in one line
};

struct Differences {
    std::vector<Difference> items;

    // Energy is per level (any data space); cycles are global.
    bool excludes(Quantity q, std::size_t level, DataSpace space) const;
};

Differences timeloop_differences(const NestAnalysis& nest, const ArchModel& arch);

}  // namespace trainloop
