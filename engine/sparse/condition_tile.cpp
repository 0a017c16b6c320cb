#include "sparse/condition_tile.hpp"

namespace trainloop {
namespace {

// The level's spatial loops (x and y) along the dimensions not `indexed`.
void multiply_spatial_unless_indexed(DimBounds& box, const LevelMapping& level, DimSet indexed) {
    for (const LoopList* loops : {&level.spatial_x, &level.spatial_y}) {
        for (const Loop& l : *loops) {
            if (!indexed.contains(l.dim)) box[l.dim] *= l.factor;
        }
    }
}

}  // namespace

DimBounds serving_condition_box(const PhaseProblem& problem, const Mapping& mapping,
                                std::size_t level, DataSpace target) {
    const DimSet indexed = problem.projection(target).relevant;
    DimBounds box;
    for (Dim d : kAllDims) box[d] = 1;
    // Below the serving level, temporal loops are later reads.
    for (std::size_t j = level; j < mapping.num_levels; ++j)
        multiply_spatial_unless_indexed(box, mapping.level(j), indexed);
    return box;
}

DimBounds condition_box(const PhaseProblem& problem, const Mapping& mapping,
                        const NestAnalysis& nest, std::size_t level, DataSpace target) {
    const int child = nest.levels[level].space(target).child;
    if (child < 0) return serving_condition_box(problem, mapping, level, target);
    const DimSet indexed = problem.projection(target).relevant;
    DimBounds box = nest.tile_box[std::size_t(child)];
    for (std::size_t j = level; j < std::size_t(child); ++j)
        multiply_spatial_unless_indexed(box, mapping.level(j), indexed);
    // The temporal loops the child keeps the target across: innermost first,
    // up to the first loop that indexes it.
    for (std::size_t j = std::size_t(child); j-- > level;) {
        const LoopList& loops = mapping.level(j).temporal;
        for (std::size_t k = loops.size(); k-- > 0;) {
            const Loop& l = loops[k];
            if (l.factor <= 1) continue;
            if (indexed.contains(l.dim)) return box;
            box[l.dim] *= l.factor;
        }
    }
    return box;
}

std::vector<StorageActionTile> storage_action_tiles(const ArchModel& arch,
                                                    const PhaseProblem& problem,
                                                    const Mapping& mapping,
                                                    const NestAnalysis& nest) {
    std::vector<StorageActionTile> out;
    for (std::size_t i = 0; i < nest.num_levels; ++i) {
        for (DataSpace target : kAllDataSpaces) {
            if (!nest.levels[i].space(target).kept) continue;
            for (const bool skipping : {true, false}) {
                const LevelModel& level = arch.levels[i];
                const DataSpaceSet conditions =
                    (skipping ? level.skip_when_zero : level.gate_when_zero)[target].in(
                        problem.phase);
                if (conditions.empty()) continue;
                const DimBounds box = condition_box(problem, mapping, nest, i, target);
                for (DataSpace c : kAllDataSpaces) {
                    if (!conditions.contains(c)) continue;
                    out.push_back(
                        {i, target, c, skipping, tile_of(problem.projection(c), box).elements()});
                }
            }
        }
    }
    return out;
}

}  // namespace trainloop
