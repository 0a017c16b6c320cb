// WaveShape: how a mapping spreads one phase's work over the PE array, as the
// load-imbalance model (imbalance/load_imbalance.hpp) sees it.
//
//   - The PE level is the outermost storage level with one instance per PE
//     (the MACs when there is none). The spatial loops of the levels above it
//     spread work over the array; their temporal loops are the waves: each
//     iteration hands every PE one work tile (Procrustes fig. 4), and the PEs
//     run it in lock-step.
//   - A PE's work tile is the box of every loop at and below the PE level;
//     its dense MACs are the box's volume, spread over the MAC units its
//     spatial loops use (the PE's cycles = MACs / units when dense).
//   - For each condition operand (a sparse input whose zeros skip MACs), the
//     PEs hold *different* tiles only along the dimensions spread over the
//     array that index the operand; along the others they hold copies
//     (identical work — the K,N insight of Procrustes §IV-C). Of the
//     distinct tiles, those that differ only in dimensions that do not index
//     the model's cluster axis share their clusters (correlated work).
//
// Contract: pure and allocation-free.
#pragma once

#include <array>
#include <cstdint>

#include "arch/arch_model.hpp"
#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"
#include "sparse/phase_densities.hpp"
#include "sparse/tensor_tile.hpp"

namespace trainloop {

struct OperandSpread {
    DataSpace space = DataSpace::weights;
    TensorTile tile;  // one PE's tile of the operand per wave
    // Distinct tiles along x and y, and among them distinct cluster sets
    // (equal to distinct unless the model is clustered).
    std::int64_t distinct_x = 1;
    std::int64_t distinct_y = 1;
    std::int64_t clusters_x = 1;
    std::int64_t clusters_y = 1;
    // Distinct tiles and cluster sets along each axis within one instance of
    // the level that feeds the PEs (WaveShape::local_distinct_x); they divide
    // distinct_x, clusters_x (and their y twins). Tile j along x sits in
    // instance j / local_distinct_x; its cluster set is
    // local_cluster_set_x(j) (the Monte Carlo's enumeration).
    std::int64_t local_distinct_x = 1;
    std::int64_t local_distinct_y = 1;
    std::int64_t local_clusters_x = 1;
    std::int64_t local_clusters_y = 1;
    std::int64_t local_cluster_set_x(std::int64_t j) const {
        return j % local_distinct_x % local_clusters_x +
               local_clusters_x * (j / local_distinct_x % (clusters_x / local_clusters_x));
    }
    std::int64_t local_cluster_set_y(std::int64_t j) const {
        return j % local_distinct_y % local_clusters_y +
               local_clusters_y * (j / local_distinct_y % (clusters_y / local_clusters_y));
    }
    std::int64_t distinct() const { return distinct_x * distinct_y; }
    std::int64_t cluster_groups() const { return clusters_x * clusters_y; }
};

struct WaveShape {
    std::size_t pe_level = 0;    // the level with one instance per PE (num_levels: the MACs)
    std::int64_t waves = 1;      // Π temporal factors above the PE level
    std::int64_t pes_x = 1;      // PEs used along x (columns)
    std::int64_t pes_y = 1;      // PEs used along y (rows)
    std::int64_t pe_macs = 1;    // dense MACs of one PE's work tile
    std::int64_t mac_units = 1;  // MAC units a PE uses (spatial factors at and below the PE level)
    DimBounds pe_box{};          // extents of one PE's work tile
    DimBounds spread_x{};        // per dimension: factor spread along x above the PE level
    DimBounds spread_y{};
    std::array<OperandSpread, 2> operands{};
    std::size_t num_operands = 0;
    // Distinct PE work tiles along each axis, over every operand.
    std::int64_t distinct_x = 1;
    std::int64_t distinct_y = 1;
    // The same within one instance of the level just above the PE level (the
    // spread its own spatial loops make; the levels above spread work across
    // its instances, as Eager Pruning's four sub-systems, §5.2): a line of
    // line indexing ends there (Cambricon-X's indexing module feeds
    // the 16 PEs of one row, Eager Pruning §5.2), so along the balancing axis
    // each of distinct_x / local_distinct_x segments is a line of its own;
    // flexible allocation spreads work within one instance (each sub-system
    // its own adder tree, §4.2, §5.2). They divide distinct_x, distinct_y.
    std::int64_t local_distinct_x = 1;
    std::int64_t local_distinct_y = 1;
    // How many consecutive waves flexible allocation runs as one (Eager
    // Pruning §4.1-4.2, eq. (9): DRACT loads the nonzero weights of as many
    // filters as fit into consecutive PEs). Waves that differ only in which
    // tile of a condition operand they hold, and not in what the PEs are
    // streamed, can share the PEs: Π of the temporal factors above the PE
    // level of the dimensions that index a condition operand and no streamed
    // operand (an operand of the phase that is neither its output, nor a
    // condition operand, nor kept at the PE level). 1 without condition operands.
    std::int64_t packed_waves = 1;
    // How many consecutive waves a line of line indexing runs as one
    // (Cambricon-X's rows, Eager Pruning §4.1, §5.2: the PEs of one output take
    // "the next" nonzero weights of its filter): waves that feed the same
    // outputs with more of a condition operand, Π of the temporal factors
    // above the PE level of the dimensions that index a condition operand and
    // not the phase's output. 1 without condition operands.
    std::int64_t line_packed_waves = 1;

    std::int64_t pes() const { return pes_x * pes_y; }
    std::int64_t dense_pe_cycles() const { return pe_macs / mac_units; }
};

// The operands of the phase that skip MACs: the data spaces listed in
// `arch.compute_skip` for the phase with density below 1 — inputs by their
// zeros, the output by its known-zero mask (a masked-out output element's
// MACs are skipped: Eager Pruning's wu, docs/sparse_evaluation.md). At most
// two (the architecture parser checks it).
std::array<DataSpace, 2> skip_operands(const ArchModel& arch, const PhaseProblem& problem,
                                       const PhaseDensities& densities, std::size_t& count);

// Precondition: the mapping passed check_mapping_structure.
WaveShape wave_shape(const ArchModel& arch, const PhaseProblem& problem, const Mapping& mapping,
                     const PhaseDensities& densities);

// The dimensions that identify a cluster of `model` in `space` (empty unless
// the model is clustered).
DimSet cluster_dims(const DensityModel& model, const Projection& projection, DataSpace space);

}  // namespace trainloop
