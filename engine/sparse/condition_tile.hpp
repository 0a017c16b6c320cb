// The tile of a condition operand that one read of a target meets: a storage
// level skips (gates) a read of `target` only when every element of the
// condition operand that the read's data meets in the MACs is zero
// (Sparseloop's storage skipping and gating, Wu et al., MICRO 2022, §V-B:
// the "leader" tile conditions the "follower" read).
//
// - At the level serving the MACs (no inner level keeps the target), a read
//   delivers one word to the MACs of one spatial position of every loop below
//   the level at once: the word meets the condition operand over the spatial
//   loops between the level and the MACs along the dimensions the target
//   does not index (a multicast read is skipped only when all its MACs' other
//   operands are zero). With no such loop it is one element, and the
//   probability is the element's: 1 − density.
// - At a level above, a read fills the child's tile: it meets the condition
//   operand over the child's tile box, times the spatial loops in between
//   along the dimensions the target does not index, times the temporal loops
//   the child keeps the target across (those inside the innermost loop that
//   indexes it, at the levels from this one down to the child).
//
// Precondition: `nest` analyzes `problem` under `mapping`, and `level` keeps
// `target`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arch/arch_model.hpp"
#include "mapping/mapping.hpp"
#include "nest/nest_analysis.hpp"
#include "problem/phase_problem.hpp"
#include "sparse/tensor_tile.hpp"

namespace trainloop {

// The iteration-space box whose projection on `condition` is the tile one
// read of `target` at `level` meets.
DimBounds condition_box(const PhaseProblem& problem, const Mapping& mapping,
                        const NestAnalysis& nest, std::size_t level, DataSpace target);

// One storage-level skipping or gating entry as the mapping meets it: the
// condition tile each read of `target` at `level` meets (for reports: why a
// large tile is rarely skipped).
struct StorageActionTile {
    std::size_t level = 0;
    DataSpace target = DataSpace::weights;
    DataSpace condition = DataSpace::weights;
    bool skipping = true;  // else gating
    std::int64_t tile_elements = 1;
};

// The entries of `arch` in `problem`'s phase at the levels that keep their
// target, outermost level first.
std::vector<StorageActionTile> storage_action_tiles(const ArchModel& arch,
                                                    const PhaseProblem& problem,
                                                    const Mapping& mapping,
                                                    const NestAnalysis& nest);

// The same where `level` serves the MACs (no inner level keeps `target`):
// the spatial loops below it, along the dimensions `target` does not index.
DimBounds serving_condition_box(const PhaseProblem& problem, const Mapping& mapping,
                                std::size_t level, DataSpace target);

}  // namespace trainloop
