// A lower bound on the energy of serving the MACs their operands and taking
// their updates, over every mapping of one phase problem on one architecture
// (a term of cost_lower_bound, lower_bound.hpp).
//
// In the nest analysis, the innermost level i that keeps data space s makes
// MACs / m_s reads (for the phase's output, updates) in all, where m_s, the
// multicast (spatial reduction) the spatial loops below i give s, is the
// product of the spread of the dimensions that do not index s: weights N, P,
// Q; outputs C, R, S; inputs K, plus a sliding window's overlap (positions of
// spread P and R are at least f_P + f_R − 1, so at most min(f_P, f_R) more).
// Every dimension but G indexes all but one of the three data spaces, so
// one spread serves one data space's multicast at most, and
//   m_W · m_O · m_I ≤ MAC units × min(R, P)·min(S, Q),
//   m_s ≤ the MAC units under one instance of i, ≤ the extents of its
//         dimensions (with padding, N, K, C may spread up to 2·bound − 1),
//         ≤ Π over the array's two axes of the axis's instances (over all
//         levels) and of the extents of the dimensions that may go across it
//         (all, or those the architecture's constraints fix there),
//         and ≤ MACs / (s's distinct words): every word is read (updated)
//         at least once.
// Each data space's innermost keeper is any level that may hold it and the
// architecture's constraints do not make bypass it (the
// outermost among them: its reads beyond the compulsory ones, which the
// caller counts); an operand's words are filled into an inner keeper at
// least once. The bound is the least, over the keepers, of
//   Σ_s (access energy at its keeper) × MACs / m_s  + fills,
// minimized exactly over the m_s under the constraints above (convex in
// log m: the least value is at a point where the unconstrained m_s give
// equal energy per access, which is enumerated).
#pragma once

#include <array>
#include <optional>

#include "arch/arch_model.hpp"
#include "constraints/mapping_constraints.hpp"
#include "nest/padding.hpp"
#include "problem/phase_problem.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

// `distinct`: each data space's distinct words (lower_bound.hpp).
// `constraints` (may be null): the architecture's mapping constraints for the
// problem's phase; an axis they give dimensions for multicasts only through
// those, and a level they make bypass a data space does not keep it.
// `paddable`: the dimensions a mapping may pad (nest/padding.hpp), whose
// spread may reach twice their size less one (default: the problem's
// one-term dimensions). At least 0.
double mac_serving_lower_bound_pj(const ArchModel& arch, const PhaseProblem& problem,
                                  const PerDataSpace<double>& distinct,
                                  const MappingConstraints* constraints = nullptr,
                                  std::optional<DimSet> paddable = std::nullopt);

// The least Σ a_s / m_s over 1 ≤ m_s ≤ cap_s with Π m_s ≤ product (exposed
// for its test).
double least_serving_sum(const std::array<double, 3>& a, const std::array<double, 3>& cap,
                         double product);

}  // namespace trainloop
