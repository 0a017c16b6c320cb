// The sparse adjustment of the action counts (nest/action_counts.hpp): with a
// sparsity profile, what each level and the MACs actually do
// (docs/design.md, "The pipeline", step 5, sparse adjustment; Sparseloop's terms):
//   - a compressed format at a level keeps a tile in compressed_size() words
//     (sparse/compressed_format.hpp): the tile's footprint (capacity), and
//     every transfer of the tile (fills, reads serving the child, the words
//     crossing the network) moves data_words / elements of the dense words
//     plus metadata in the same proportion (docs/sparse_formats.md);
//   - skipping at a level: reads of the target (updates, for the phase's
//     output) whose condition tile is empty — every element of a condition
//     operand the read meets is zero (sparse/condition_tile.hpp); one element
//     at a level serving the MACs without spatial loops below — are not done
//     and take no cycle; gating: not done (no energy) but the cycle is spent;
//   - skipping (gating) at `compute`: the MACs with a zero condition operand
//     are not done (no energy); skipping also removes their cycles, with the
//     load imbalance that causes (imbalance/load_imbalance.hpp). A skipped
//     (gated) MAC does not touch the level that serves the MACs either: its
//     other operands are not read there and its output is not updated (nor
//     read for the read-modify-write) — unless its gating entry saves only
//     the MAC (`saves: mac`, ArchModel::compute_gate_mac_only). The condition operand itself is
//     still read to find its zero, unless that level keeps it in a compressed format, which stores
//     and reads only the nonzeros.
// Operands are independent: the probability that a MAC meets no zero is the
// product of the condition operands' densities; that a level's read meets a
// nonempty tile of each, the product of 1 − P(empty) over them. The phase's
// output as a condition is its known-zero mask (its density is the share of
// elements needed, known before the phase runs: Eager Pruning's wu computes
// no gradient of a pruned weight, Zhang et al., ISCA 2019, §2.2 and §4.4);
// the mask is read apart from the values, so a masked-out output is neither
// updated nor read. A target whose own format is compressed already moves
// only its nonzeros.
//
// Every count is per instance of the level and a double (expected values).
// With every density 1, no format and no metadata, the counts equal the
// dense ones exactly, so the evaluation is unchanged.
#pragma once

#include "arch/arch_model.hpp"
#include "mapping/mapping.hpp"
#include "nest/action_counts.hpp"
#include "nest/nest_analysis.hpp"
#include "sparse/compressed_format.hpp"
#include "sparse/phase_densities.hpp"

namespace trainloop {

// Where a tile sits: level `level` of `mapping` (a fibertree format's ranks
// are the mapping's loops, sparse/fibertree.hpp).
struct TilePlace {
    const Mapping* mapping = nullptr;
    std::size_t level = 0;
    // The next level out keeping the space compresses it: an empty tile is
    // not stored here (sparse/fibertree.hpp).
    bool parent_compresses = false;
};

// What `level` stores of the tile of `space` over the iteration-space box
// `box`: its format's expected compressed size when `densities` is given and
// the format is not `uncompressed`, else the dense footprint (no metadata).
// The sparse counts (footprint, words per transfer), the capacity check and
// the mapper's pruning all use it. Without `place` (the mapper's pruning,
// before the loop orders are chosen) a fibertree tile is its data alone, a
// lower bound: the evaluation's capacity check has the whole size.
CompressedSize stored_tile(const LevelModel& level, const PhaseProblem& problem, DataSpace space,
                           const DimBounds& box, const PhaseDensities* densities,
                           const TilePlace* place = nullptr);

// The sparse adjustment. Precondition: `nest` analyzes `problem` under a
// mapping that passed check_mapping_structure.
void sparse_action_counts(const ArchModel& arch, const PhaseProblem& problem,
                          const Mapping& mapping, const NestAnalysis& nest,
                          const PhaseDensities& densities, ActionCounts& out);

}  // namespace trainloop
