// A bound no mapping of one phase problem on one architecture can beat, and
// the gap of a found mapping to it (`trainloop map`, its JSON and the results
// database report both).
//
//   cycles ≥ ⌈MACs / MAC units⌉: every MAC runs once and the array performs
//            at most one per MAC unit per cycle (the peak throughput);
//   energy ≥ MACs × MAC energy
//          + Σ over the operands: distinct words touched × outermost read energy
//          + distinct output words × min(outermost write, update energy)
//          + leakage of every instance over the cycle bound;
//   off-chip words ≥ Σ over the data spaces: distinct words touched.
// Every operand word the MACs use leaves the outermost level (which holds
// every tensor) at least once, and every output word returns to it at least
// once; nothing else is counted, so any mapping's energy (which adds inner
// levels, networks and repeated traffic, all non-negative) is at least this.
// "Distinct words touched" counts the input window's elements exactly (a
// strided window skips some), not its bounding box, so a tiling whose tiles
// read less than the bounding box still stays above the bound.
//
// Dense evaluation only: with densities (skipped MACs, compressed tensors)
// the compulsory work shrinks with data the mapper does not see, so no bound
// is claimed (the caller reports none).
#pragma once

#include <cstdint>

#include "arch/arch_model.hpp"
#include "problem/phase_problem.hpp"

namespace trainloop {

struct CostLowerBound {
    std::int64_t cycles = 0;
    double energy_pj = 0;
    // Off-chip words (evaluation.hpp offchip_words()) ≥ every operand's and
    // the output's distinct words: each crosses the outermost level once.
    double offchip_words = 0;
    double edp() const { return energy_pj * double(cycles); }
};

CostLowerBound cost_lower_bound(const ArchModel& arch, const PhaseProblem& problem);

// The distinct elements of a data space the whole iteration space touches.
std::int64_t distinct_words(const Projection& projection, const DimBounds& bounds);

// How far `found` is above `bound`, as a fraction (0.25: 25 % above); 0 when
// the bound is 0.
inline double optimality_gap(double found, double bound) {
    return bound > 0 ? found / bound - 1.0 : 0.0;
}

}  // namespace trainloop
