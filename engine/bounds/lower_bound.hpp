// A bound no mapping of one phase problem on one architecture can beat, and
// the gap of a found mapping to it (`trainloop map`, its JSON and the results
// database report both).
//
//   off-chip words ≥ max(Σ distinct words touched,
//                        S·(⌈MACs / (√(R·S)·S^1.5)⌉ − 1))
//            with S the on-chip capacity in words (every instance of every
//            inner level; the second term only when all are bounded): the
//            Hong & Kung segment argument (STOC 1981) with Loomis–Whitney
//            (1949) over the MACs' three projections. Split the run where
//            every S off-chip words have moved: a segment's MACs touch at
//            most S words held at its start, S moved, and S held at its end,
//            3S in all over weights W, outputs O and inputs I, and (each
//            iteration index in exactly two of the three; an input word is
//            at most R·S window elements) do at most √(R·S·|W|·|O|·|I|) ≤
//            √(R·S)·S^1.5 MACs; grouped layers keep it (Cauchy–Schwarz per group).
//   cycles ≥ max(⌈MACs / MAC units⌉ (the peak throughput),
//                ⌈operand words / outermost read bandwidth⌉,
//                ⌈output words / its write bandwidth⌉,
//                ⌈off-chip words / (read + write bandwidth)⌉,
//                ⌈off-chip words / its shared read + write bandwidth⌉);
//   energy ≥ MACs × MAC energy
//          + Σ over the operands: distinct words × outermost read energy
//          + distinct output words × min(outermost write, update energy)
//          + max(the off-chip words beyond those × its cheapest access,
//                the cheapest way to serve the MACs their operands and take
//                  their updates, over the levels that may keep each tensor
//                  and the multicast the array can give the three at once
//                  (mac_serving_bound.hpp))
//          + leakage of every instance over the cycle bound.
// Every operand word the MACs use leaves the outermost level (which holds
// every tensor) at least once, and every output word returns to it at least
// once; each term counts accesses the evaluator charges (its reads serving
// the MACs are per distinct position, at least one per MAC unit's cycle), and
// networks and the other levels' traffic only add. The two extra terms may
// both be the outermost level's own reads, so only the larger is added.
// "Distinct words touched" counts the input window's elements exactly (a
// strided window skips some), not its bounding box, so a tiling whose tiles
// read less than the bounding box still stays above the bound.
//
// Dense evaluation only: with densities (skipped MACs, compressed tensors)
// the compulsory work shrinks with data the mapper does not see, so no bound
// is claimed (the caller reports none).
#pragma once

#include <cstdint>
#include <optional>

#include "arch/arch_model.hpp"
#include "constraints/mapping_constraints.hpp"
#include "nest/padding.hpp"
#include "problem/phase_problem.hpp"

namespace trainloop {

struct CostLowerBound {
    std::int64_t cycles = 0;
    double energy_pj = 0;
    // Off-chip words (evaluation.hpp offchip_words()): see above.
    double offchip_words = 0;
    double edp() const { return energy_pj * double(cycles); }
};

// `constraints` (may be null): the architecture's own mapping constraints,
// resolved for the problem's phase (constraints_for_phase): what every mapping
// on it honours, so the MAC-serving term may assume them: the dimensions they
// let across each axis, and that a level they make bypass a data space does
// not serve it. `paddable`: the dimensions the mappings may pad
// (nest/padding.hpp paddable_dims; the default, the problem's one-term
// dimensions, holds with or without imperfect factors unless the
// sliding-window dimensions are padded too).
CostLowerBound cost_lower_bound(const ArchModel& arch, const PhaseProblem& problem,
                                const MappingConstraints* constraints = nullptr,
                                std::optional<DimSet> paddable = std::nullopt);

// The words the inner levels hold at once (every instance's capacity); -1
// when one of them is unbounded.
double on_chip_capacity_words(const ArchModel& arch);
// The off-chip traffic the on-chip capacity `on_chip_words` forces (the
// segment term above); 0 when it forces none.
double capacity_traffic_words(const PhaseProblem& problem, double on_chip_words);

// The distinct elements of a data space the whole iteration space touches.
std::int64_t distinct_words(const Projection& projection, const DimBounds& bounds);

// How far `found` is above `bound`, as a fraction (0.25: 25 % above); 0 when
// the bound is 0. A mapping that meets the bound can come out a rounding
// error below it (the two sums are taken in different orders): that reads 0.
inline double optimality_gap(double found, double bound) {
    if (bound <= 0) return 0.0;
    const double gap = found / bound - 1.0;
    return gap < 0 && gap > -1e-9 ? 0.0 : gap;
}

}  // namespace trainloop
