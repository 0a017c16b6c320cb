// The load-balancing schemes of the seeds (arch/sparse_features.hpp), as
// rules that turn the work of one wave into the wave's cycles. The closed
// form and the Monte-Carlo reference (load_imbalance.hpp) share them, so the
// two differ only in how they get the distribution of per-PE work.
//
// All work is in effectual MACs; a PE with `units` MAC units takes
// ceil(work / units) cycles.
//   none                     the wave lasts as long as its slowest PE.
//   half_tile_pairing        Procrustes §IV-C: along one array axis, every
//                            PE's tile is cut in half, the halves are sorted
//                            by work and paired densest with sparsest; the
//                            wave lasts as long as the heaviest pair. Only
//                            along one axis (its interconnect constraint):
//                            the lines along the other axis stay apart.
//   two_level_work_stealing  Chen et al. 2024 §IV-D: the coarse step repartitions
//                            the wave so no PE's estimated work exceeds the
//                            mean by more than 10 %; then a PE that finishes
//                            early steals from its torus neighbours, so the
//                            slowest PE's remaining excess is shared among
//                            its 4 neighbours and itself, at the cost of the
//                            NoC round trip (8 cycles) once per wave, and
//                            only when the excess exceeds the break-even
//                            batch (3 multiplications for floating point,
//                            Chen et al. 2024 Table I).
//   flexible_allocation      Eager Pruning §4.1–4.3 (DRACT): the nonzero
//                            weights are loaded into consecutive PEs whatever
//                            filter they belong to, so the wave's work is
//                            spread evenly over its PEs, and a reconfigurable
//                            adder tree collects each filter's partial sums.
//                            The tree is a pipeline (one adder level per
//                            stage) whose configuration bits arrive with the
//                            weights, and weight loading overlaps computation
//                            (§4.3: doubled weight registers), so its depth,
//                            ceil(log2 PEs) cycles, is paid once per layer
//                            and phase (filling the pipeline), not per wave.
//                            Each instance of the level that feeds the PEs
//                            has its own tree and spreads its own share (a
//                            sub-system's 512 PEs, §5.2); the wave waits for
//                            the busiest instance.
//   line_indexing            Cambricon-X's rows as Eager Pruning §4.1 and §5.2
//                            describe them ("16 PEs in a row serve one
//                            output", fed its filter's nonzero weights by the
//                            indexing module): along one array axis, each
//                            line's work, over the waves that feed the same
//                            outputs, is spread evenly over the line's PEs,
//                            a line ending at an instance of the level that
//                            feeds the PEs (a sub-system's own rows, §5.2);
//                            the lines wait for the busiest ("idleness will
//                            occur in rows with lighter workloads", §4.1).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace trainloop::balancing {

// Chen et al. 2024 §IV-D: the coarse step allows "a maximum of 10 % in workload difference".
inline constexpr double kCoarseTolerance = 0.10;
// Chen et al. 2024 §IV-D, Procedure 2: stealing pays off beyond 3 float multiplications.
inline constexpr double kStealBreakEvenMacs = 3.0;
// Chen et al. 2024 §IV-D: "eight cycles for data to traverse the NoC and reach the neighbor".
inline constexpr double kStealLatencyCycles = 8.0;
// Chen et al. 2024 §IV-D: a 2-D torus, so every PE has 4 neighbours (and itself).
inline constexpr double kStealNeighbourhood = 5.0;
// Chen et al. 2024 §IV-D: across partitions both operands and the product cross the NoC.
inline constexpr double kStealWordsPerMac = 3.0;

inline double pe_cycles(double work, std::int64_t units) {
    return std::ceil(work / double(units) - 1e-9);
}

// Two-level work stealing: the slowest PE's work after both steps, given
// the wave's mean and slowest-PE work.
inline double two_level_slowest_work(double mean, double slowest) {
    const double coarse = std::min(slowest, mean * (1.0 + kCoarseTolerance));
    const double excess = coarse - mean;
    if (excess <= kStealBreakEvenMacs) return coarse;
    return mean + excess / kStealNeighbourhood;
}
inline bool two_level_steals(double mean, double slowest) {
    return std::min(slowest, mean * (1.0 + kCoarseTolerance)) - mean > kStealBreakEvenMacs;
}

// What the two balancing steps leave of the PEs' spread (Chen et al. 2024,
// Fig. 18), by the rules above applied to every PE, not only the slowest:
// the coarse step (Procedure 1) moves work until no PE's estimated work is
// further than the tolerance from the mean, so each PE's deviation from the
// mean is clipped to ±kCoarseTolerance of it; stealing (Procedure 2) then
// shares each PE's remaining deviation with its torus neighbourhood, as it
// shares the slowest PE's excess, when the slowest PE's excess pays for it.
inline double coarse_deviation(double deviation, double mean) {
    return std::clamp(deviation, -kCoarseTolerance * mean, kCoarseTolerance * mean);
}
// `steals`: two_level_steals(mean, slowest) of the wave.
inline double stealing_spread(double coarse_spread, bool steals) {
    return steals ? coarse_spread / kStealNeighbourhood : coarse_spread;
}

// The normalized spread after the coarse step: the PEs' work taken as
// normal around the mean with the normalized spread `stddev`, each
// deviation clipped to ±t (t = kCoarseTolerance, in units of the mean).
// With a = t/σ, the clipped normal's second moment is
// σ²(2Φ(a) − 1 − 2aφ(a)) + 2t²(1 − Φ(a)) (integrate x² over |x| < t, add the
// clipped tails; any probability text).
inline double coarse_workload_stddev(double stddev) {
    if (stddev <= 0) return 0.0;
    const double t = balancing::kCoarseTolerance;
    const double a = t / stddev;
    const double phi = std::exp(-0.5 * a * a) / std::sqrt(2.0 * std::numbers::pi);
    const double inside = std::erf(a / std::sqrt(2.0));       // 2Φ(a) − 1
    const double tail = 0.5 * std::erfc(a / std::sqrt(2.0));  // 1 − Φ(a)
    const double var = stddev * stddev * (inside - 2.0 * a * phi) + 2.0 * t * t * tail;
    return std::sqrt(std::max(0.0, var));
}

// Flexible allocation: the adder tree's depth over `pes` PEs (Eager Pruning
// §4.2: a binary tree of path gates), the latency of its pipeline.
inline double flexible_tree_cycles(std::int64_t pes) {
    return pes <= 1 ? 0.0 : std::ceil(std::log2(double(pes)));
}

// Half-tile pairing: the mean distance, in hops along a line of `n` PEs,
// between the two PEs of a pair. Sorting by density places the partners at
// independent positions, so the distance is that of two distinct positions
// drawn uniformly from n: E|i − j| = (n + 1) / 3.
inline double pairing_mean_hops(std::int64_t n) { return n <= 1 ? 0.0 : double(n + 1) / 3.0; }

}  // namespace trainloop::balancing
