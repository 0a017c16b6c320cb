#include "sparse/sparse_adjustment.hpp"

#include <algorithm>
#include <optional>

#include "sparse/compressed_format.hpp"
#include "sparse/condition_tile.hpp"
#include "sparse/effectual_macs.hpp"
#include "sparse/fibertree.hpp"
#include "sparse/tensor_tile.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop {
namespace {

// The probability that an access to `target` meets no zero of the operands in
// `conditions` (see the header for which operands count). The output, as a
// condition, is its known-zero mask.
double no_zero_probability(const PhaseDensities& densities, const DataSpaceSet& conditions,
                           DataSpace target, bool target_compressed) {
    double p = 1.0;
    for (DataSpace c : kAllDataSpaces) {
        if (!conditions.contains(c)) continue;
        if (c == target && target_compressed) continue;
        p *= densities.of(c).density;
    }
    return p;
}

// The probability that a read of `target` at storage level `level` is kept
// by the level's own entries on `conditions` and by the MACs' entries on
// `macs` (nonempty only where the level serves the MACs). A level's entry
// skips a read when the whole condition tile the read meets is empty
// (condition_tile.hpp); a MAC's, when its one element is zero. A condition
// in both keeps the read only when the MAC's element is nonzero, which
// implies a nonempty tile.
double kept_probability(const PhaseProblem& problem, const Mapping& mapping,
                        const NestAnalysis& nest, std::size_t level,
                        const PhaseDensities& densities, const DataSpaceSet& conditions,
                        const DataSpaceSet& macs, DataSpace target, bool target_compressed) {
    double p = 1.0;
    std::optional<DimBounds> box;  // the same for every condition: computed once, if needed
    for (DataSpace c : kAllDataSpaces) {
        if (c == target && target_compressed) continue;
        const OperandDensity& operand = densities.of(c);
        if (macs.contains(c)) {
            p *= operand.density;
        } else if (conditions.contains(c) && operand.density < 1.0) {
            if (!box) box = condition_box(problem, mapping, nest, level, target);
            const TensorTile tile = tile_of(problem.projection(c), *box);
            p *= 1.0 - tile_occupancy(operand.model, operand.density, tile, c).probability_empty;
        }
    }
    return p;
}

// The conditions of the MACs' skipping (gating) entries that remove the
// accesses of `s` at the level serving the MACs. A skipped MAC's operands are
// not read and its output is not updated — except that an operand must be
// read to find its own zero unless its format keeps only the nonzeros (the
// format's density already removed those reads, see no_zero_probability).
// The output's mask is known apart from its values: a masked-out output is
// neither read nor updated.
DataSpaceSet macs_condition(DataSpaceSet macs, DataSpace s, DataSpace output) {
    if (s != output) macs.erase(s);
    return macs;
}

// The gating conditions whose gated MACs also save their accesses at the
// level serving the MACs (all but `saves: mac`).
DataSpaceSet gate_saving_accesses(const ArchModel& arch, Phase phase) {
    DataSpaceSet out = arch.compute_gate.in(phase);
    for (DataSpace s : kAllDataSpaces) {
        if (arch.compute_gate_mac_only.in(phase).contains(s)) out.erase(s);
    }
    return out;
}

// Whether the next level out that keeps `s` keeps it compressed (a
// fibertree of uncompressed ranks only keeps its empty tiles).
bool parent_compresses(const ArchModel& arch, const Mapping& mapping, std::size_t level,
                       DataSpace s, Phase phase) {
    for (std::size_t j = level; j-- > 0;) {
        if (!mapping.levels[j].keep.contains(s)) continue;
        const LevelModel& parent = arch.levels[j];
        const CompressedFormat format = parent.format_in(s, phase);
        if (format != CompressedFormat::fibertree) return format != CompressedFormat::uncompressed;
        const RankFormats& ranks = parent.ranks_in(s, phase);
        return std::any_of(ranks.begin(), ranks.end(), rank_compressed);
    }
    return false;
}

void apply_format(const LevelModel& level, const PhaseProblem& problem, const TilePlace& place,
                  const DimBounds& box, DataSpace s, const PhaseDensities& densities,
                  SpaceCounts& c) {
    const CompressedSize size = stored_tile(level, problem, s, box, &densities, &place);
    const TransferRatio ratio =
        transfer_ratio(size, tile_of(problem.projection(s), box).elements(), level.word_bits);
    const double data = ratio.data;
    const double metadata = ratio.metadata;
    c.metadata_reads = c.reads * metadata;
    c.metadata_fills = c.fills * metadata;
    c.metadata_updates = c.updates * metadata;
    c.timed_metadata_reads = c.timed_reads * metadata;
    c.timed_metadata_updates = c.timed_updates * metadata;
    c.reads *= data;
    c.timed_reads *= data;
    c.fills *= data;
    c.updates *= data;
    c.timed_updates *= data;
    c.drains *= data;
    c.child_side_words *= data + metadata;
    c.footprint_words = size.words(level.word_bits);
    c.footprint_metadata_words = size.metadata_bits / double(level.word_bits);
}

}  // namespace

CompressedSize stored_tile(const LevelModel& level, const PhaseProblem& problem, DataSpace space,
                           const DimBounds& box, const PhaseDensities* densities,
                           const TilePlace* place) {
    const CompressedFormat format = level.format_in(space, problem.phase);
    if (densities == nullptr || format == CompressedFormat::uncompressed) {
        return {double(footprint(problem.projection(space), box)), 0.0};
    }
    const OperandDensity& operand = densities->of(space);
    if (format == CompressedFormat::fibertree) {
        const TensorTile tile = tile_of(problem.projection(space), box);
        if (place == nullptr) {  // no loop order yet: the data alone, a lower bound
            return {tile_occupancy(operand.model, operand.density, tile, space).mean_nonzeros, 0};
        }
        const RankFormats& ranks = level.ranks_in(space, problem.phase);
        const FiberTreeShape shape =
            fibertree_shape(problem.projection(space), problem.space.bounds, *place->mapping,
                            place->level, ranks.size());
        return fibertree_size(ranks, shape, space, operand.density, operand.model,
                              level.index_bits_in(space, problem.phase), !place->parent_compresses);
    }
    return compressed_size(format, tile_of(problem.projection(space), box), space, operand.density,
                           operand.model, level.word_bits,
                           level.index_bits_in(space, problem.phase));
}

void sparse_action_counts(const ArchModel& arch, const PhaseProblem& problem,
                          const Mapping& mapping, const NestAnalysis& nest,
                          const PhaseDensities& densities, ActionCounts& out) {
    dense_action_counts(nest, out);
    const DataSpace output = problem.output();
    const DataSpaceSet gate_saves = gate_saving_accesses(arch, problem.phase);
    for (std::size_t i = 0; i < nest.num_levels; ++i) {
        const LevelModel& level = arch.levels[i];
        for (DataSpace s : kAllDataSpaces) {
            if (!nest.levels[i].spaces[s].kept) continue;
            SpaceCounts& c = out.levels[i].spaces[s];
            const bool compressed =
                level.format_in(s, problem.phase) != CompressedFormat::uncompressed;
            if (compressed) {
                const TilePlace place{&mapping, i,
                                      parent_compresses(arch, mapping, i, s, problem.phase)};
                apply_format(level, problem, place, nest.tile_box[i], s, densities, c);
            }
            // Skipping removes the access and its cycle; gating only its energy.
            // The innermost keeper serves the MACs: a skipped (gated, unless
            // it saves only the MAC) MAC does not read its operands there nor
            // update its output.
            const bool serves_macs = nest.levels[i].spaces[s].child < 0;
            const DataSpaceSet macs_skip =
                serves_macs ? macs_condition(arch.compute_skip.in(problem.phase), s, output)
                            : DataSpaceSet{};
            const DataSpaceSet macs_gate =
                serves_macs ? macs_condition(gate_saves, s, output) : DataSpaceSet{};
            const double kept_by_skip = kept_probability(problem, mapping, nest, i, densities,
                                                         level.skip_when_zero[s].in(problem.phase),
                                                         macs_skip, s, compressed);
            const double kept_by_gate = kept_probability(problem, mapping, nest, i, densities,
                                                         level.gate_when_zero[s].in(problem.phase),
                                                         macs_gate, s, compressed);
            // For the output an update and its read-modify-write read go together.
            // An access skipped or gated does not touch the tile's metadata either:
            // the metadata apply_format charged per access goes with it.
            c.skipped_reads = c.reads * (1 - kept_by_skip);
            c.gated_reads = c.reads * kept_by_skip * (1 - kept_by_gate);
            c.timed_reads *= kept_by_skip;
            c.reads *= kept_by_skip * kept_by_gate;
            c.metadata_reads *= kept_by_skip * kept_by_gate;
            c.timed_metadata_reads *= kept_by_skip;
            if (s == output) {
                c.skipped_updates = c.updates * (1 - kept_by_skip);
                c.gated_updates = c.updates * kept_by_skip * (1 - kept_by_gate);
                c.timed_updates *= kept_by_skip;
                c.updates *= kept_by_skip * kept_by_gate;
                c.metadata_updates *= kept_by_skip * kept_by_gate;
                c.timed_metadata_updates *= kept_by_skip;
            }
            c.child_side_words *= kept_by_skip;
        }
    }
    DataSpaceSet datapath = arch.compute_skip.in(problem.phase);
    for (DataSpace s : kAllDataSpaces) {
        if (arch.compute_gate.in(problem.phase).contains(s)) datapath.insert(s);
    }
    out.effectual_macs = double(nest.macs) * effectual_fraction(densities);
    out.macs_performed =
        double(nest.macs) * no_zero_probability(densities, datapath, output, false);
}

}  // namespace trainloop
