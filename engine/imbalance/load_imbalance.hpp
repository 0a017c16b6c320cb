// Load imbalance: with skipping at the MACs, the PEs of the array get
// unequal work, and PEs that run in lock-step wait for the slowest of them
// (Procrustes §II-C, figs. 4, 5 and 13). A "wave" is one set of work tiles
// that the array runs together: one iteration of the temporal loops above
// the spatial fan-out to the PEs.
//
// For a mapping and the phase's densities this module gives the expected
// compute cycles when every wave lasts as long as its slowest PE (the
// expected maximum over PEs, not the mean), under the architecture's
// balancing scheme (arch/sparse_features.hpp), and the cycles lost to
// imbalance. Only the dimensions that index a sparse operand create
// imbalance: PEs whose tiles differ only along dense dimensions get
// identical work.
//
// Two implementations of one contract:
//   closed_form  fast enough for the mapper's inner loop (allocation-free);
//   monte_carlo  the reference: samples masks (or reads the actual mask of a
//                `mask` model) and counts each PE's work exactly; seeded and
//                deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/arch_model.hpp"
#include "nest/nest_analysis.hpp"
#include "sparse/phase_densities.hpp"

namespace trainloop {

enum class ImbalanceMethod : std::uint8_t { closed_form, monte_carlo };

struct ImbalanceOptions {
    ImbalanceMethod method = ImbalanceMethod::closed_form;
    std::uint64_t seed = 1;            // monte_carlo
    std::int64_t sampled_waves = 256;  // monte_carlo: waves sampled (all of them when fewer)
    bool histogram = false;            // fill LoadImbalance::histogram
    // closed_form: fill workload_stddev_coarse and workload_stddev_two_level.
    // They are reported, never searched on: the mapper's inner loop leaves
    // them out and derives them (balanced_spreads()) for the mappings it keeps.
    bool balanced_spreads = true;
};

// The per-wave overhead histogram of Procrustes figs. 5 and 13: the share of
// waves whose slowest PE exceeds the mean PE by [lower_pct, upper_pct).
struct OverheadBin {
    double lower_pct = 0;
    double upper_pct = 0;
    double fraction_of_waves = 0;
};

struct LoadImbalance {
    // False when the MACs do not skip (no `compute` skipping entry, or every
    // condition operand is dense): compute cycles are the dense ones.
    bool applies = false;
    std::int64_t waves = 0;
    // Σ over waves of the cycles of a perfectly balanced array: the mean PE
    // work, in cycles of the PE's MAC units.
    double balanced_cycles = 0;
    // Expected compute cycles: Σ over waves of the slowest PE's cycles under
    // the balancing scheme, the scheme's own overhead included.
    double cycles = 0;
    double imbalance_cycles = 0;  // cycles − balanced_cycles
    double imbalance_pct = 0;     // 100 · imbalance_cycles / balanced_cycles
    // The part of `cycles` the balancing scheme spends on itself (pairing,
    // stealing, the flexible reduction network), the words it moves between
    // PEs, and those words times the hops each travels. The evaluator prices
    // the word-hops on the network along `balancing_axis` (0: x, 1: y; -1:
    // any, priced on the unicast network).
    double balancing_cycles = 0;
    double balancing_words = 0;
    double balancing_word_hops = 0;
    int balancing_axis = -1;
    // The standard deviation of the PEs' work in a wave, normalized to their
    // mean work (Chen et al. 2024, Fig. 18's measure), for the mapping's
    // partition of the work before any balancing scheme moves it (their
    // "dimension-based matrix partition"): expected over waves.
    double workload_stddev = 0;
    // The same after Chen et al.'s coarse step, and after both of its steps
    // (balancing_schemes.hpp coarse_deviation, stealing_spread): what their
    // two-level balancing would leave of this mapping's spread, whatever
    // scheme the architecture has (Fig. 18 compares the three on one design).
    double workload_stddev_coarse = 0;
    double workload_stddev_two_level = 0;
    // Whether the slowest PE's excess passes stealing's break-even
    // (balancing_schemes.hpp two_level_steals): with workload_stddev, all
    // balanced_spreads() needs.
    bool stealing_pays = false;
    std::vector<OverheadBin> histogram;  // only with ImbalanceOptions::histogram
};

// Preconditions: the mapping passed check_mapping_structure and `nest` is
// its analysis. The skipping conditions and the balancing scheme are read
// from `arch` (ArchModel::compute_skip in the problem's phase,
// ArchModel::load_balancing).
// What Chen et al.'s coarse step, and it followed by stealing, leave of a
// closed-form estimate's workload_stddev (balancing_schemes.hpp): the
// spreads `balanced_spreads = false` left out, derived without re-estimating.
struct BalancedSpreads {
    double coarse = 0;
    double two_level = 0;
};
BalancedSpreads balanced_spreads(const LoadImbalance& imbalance);

LoadImbalance estimate_load_imbalance(const ArchModel& arch, const PhaseProblem& problem,
                                      const Mapping& mapping, const NestAnalysis& nest,
                                      const PhaseDensities& densities,
                                      const ImbalanceOptions& options = {});

}  // namespace trainloop
