// Action counts: what each storage level and the MACs actually do, the input
// of the latency and energy models. The dense counts are the nest analysis's
// (nest_analysis.hpp); with a sparsity profile, sparse/sparse_adjustment.hpp
// adjusts them (docs/design.md, "The pipeline", step 5, sparse adjustment).
//
// Every count is per instance of the level and a double (expected values).
#pragma once

#include <array>
#include <cstddef>

#include "nest/nest_analysis.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

struct SpaceCounts {
    double reads = 0;             // words read (energy): skipped and gated reads removed
    double timed_reads = 0;       // words read that take a cycle (gated reads still do)
    double fills = 0;             // words written in from the parent
    double updates = 0;           // output: partial sums written in (energy)
    double timed_updates = 0;     // output: the updates that take a cycle
    double drains = 0;            // output: words written back to the parent
    double metadata_reads = 0;    // words of format metadata read
    double metadata_fills = 0;    // words of format metadata written in from the parent
    double metadata_updates = 0;  // output: words of format metadata written with the updates
    // The metadata words that take a cycle: a gated access's metadata still does.
    double timed_metadata_reads = 0;
    double timed_metadata_updates = 0;
    double child_side_words = 0;          // words crossing the network to (from) the children
    double footprint_words = 0;           // the tile's storage, metadata included (capacity)
    double footprint_metadata_words = 0;  // of which format metadata
    // The words skipping and gating removed from `reads` (`updates`):
    // Sparseloop's skipped and gated accesses.
    double skipped_reads = 0;
    double gated_reads = 0;
    double skipped_updates = 0;
    double gated_updates = 0;

    // The share of the accesses skipping (gating) left — of the updates for
    // the phase's output, of the reads otherwise; 1 when there were none.
    double kept_by_skipping(bool output) const {
        return output ? kept_share(skipped_updates, gated_updates + updates)
                      : kept_share(skipped_reads, gated_reads + reads);
    }
    double kept_by_gating(bool output) const {
        return output ? kept_share(gated_updates, updates) : kept_share(gated_reads, reads);
    }

  private:
    static double kept_share(double removed, double left) {
        return removed + left > 0 ? left / (removed + left) : 1.0;
    }
};

struct LevelCounts {
    PerDataSpace<SpaceCounts> spaces{};
    const SpaceCounts& space(DataSpace s) const { return spaces[s]; }
};

struct ActionCounts {
    std::array<LevelCounts, kMaxLevels> levels{};
    std::size_t num_levels = 0;
    double macs_performed = 0;  // MACs the datapath does (skipped and gated ones removed)
    double effectual_macs = 0;  // MACs whose operands are all nonzero
};

// The dense counts of a nest analysis.
void dense_action_counts(const NestAnalysis& nest, ActionCounts& out);

}  // namespace trainloop
