#include "nest/action_counts.hpp"

namespace trainloop {
namespace {

SpaceCounts dense_space_counts(const SpaceAccesses& acc) {
    SpaceCounts c;
    c.reads = c.timed_reads = double(acc.reads);
    c.fills = double(acc.fills);
    c.updates = c.timed_updates = double(acc.updates);
    c.drains = double(acc.drains);
    c.child_side_words = double(acc.child_side_words);
    c.footprint_words = acc.kept ? double(acc.tile) : 0.0;
    return c;
}

}  // namespace

void dense_action_counts(const NestAnalysis& nest, ActionCounts& out) {
    out.num_levels = nest.num_levels;
    for (std::size_t i = 0; i < nest.num_levels; ++i) {
        for (DataSpace s : kAllDataSpaces) {
            out.levels[i].spaces[s] = dense_space_counts(nest.levels[i].spaces[s]);
        }
    }
    out.macs_performed = double(nest.macs);
    out.effectual_macs = double(nest.macs);
}

}  // namespace trainloop
