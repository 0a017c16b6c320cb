// The closed form of the load-imbalance model (load_imbalance.hpp), and the
// dispatch to the Monte-Carlo reference (monte_carlo_imbalance.cpp).
//
// Per-PE work in a wave is the effectual MACs of the PE's tile: with one
// condition operand, its tile's nonzeros times the uses of each element
// (pe_macs / tile elements; exact for weights and outputs, the average for
// an input's sliding window); with two, pe_macs times the product of the two
// tiles' densities (independent operands). Its distribution comes from
// tile_occupancy(); the slowest PE from expected_maximum().
#include "imbalance/load_imbalance.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "imbalance/balancing_schemes.hpp"
#include "imbalance/expected_ceiling.hpp"
#include "imbalance/expected_maximum.hpp"
#include "imbalance/imbalance_detail.hpp"
#include "imbalance/small_count_maximum.hpp"
#include "imbalance/small_count_pairing.hpp"
#include "imbalance/wave_shape.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop {
namespace {

// The distribution of one PE's effectual MACs in one wave.
struct PeWork {
    double mean = 0;
    double sd = 0;
    double skew = 0;
    double upper = 0;      // the most work a PE can have (every element nonzero)
    bool integral = true;  // work is a whole multiple of the element reuse
    double reuse = 1;      // MACs per nonzero of the condition operand
    // Clustered model: the variance and third central moment of the part of
    // the work set by the cluster densities (shared by PEs of one group).
    double shared_var = 0;
    double shared_third = 0;
};

PeWork single_operand_work(const WaveShape& w, const OperandSpread& op, const OperandDensity& d,
                           const TensorTile& tile) {
    const TileOccupancy occ = tile_count_moments(d.model, d.density, tile, op.space);
    PeWork pw;
    pw.reuse = double(w.pe_macs) / double(op.tile.elements());
    pw.integral = pw.reuse == std::floor(pw.reuse);
    pw.mean = pw.reuse * occ.mean_nonzeros;
    pw.sd = pw.reuse * std::sqrt(occ.variance);
    pw.skew = occ.variance > 0 ? occ.third_central_moment / std::pow(occ.variance, 1.5) : 0.0;
    pw.upper = pw.reuse * double(tile.elements());
    // The part of the variance that PEs sharing a cluster share: only
    // clustered weights have one (other models' tiles are independent).
    const ClusteredModel* c = clustered_model(d.model);
    if (c != nullptr) {
        const BetaParameters b = cluster_beta(d.density, c->cv);
        if (b.variance > 0) {
            const ClusterSplit split = cluster_split(*c, tile, op.space);
            const double m = split.elements_per_cluster;
            const double s = b.alpha + b.beta;
            // Beta skewness (any statistics text): 2(β−α)√(α+β+1) / ((α+β+2)√(αβ)).
            const double skew = 2.0 * (b.beta - b.alpha) * std::sqrt(s + 1.0) /
                                ((s + 2.0) * std::sqrt(b.alpha * b.beta));
            pw.shared_var = pw.reuse * pw.reuse * split.clusters * m * m * b.variance;
            pw.shared_third = std::pow(pw.reuse * m, 3) * split.clusters * skew * b.variance *
                              std::sqrt(b.variance);
        }
    }
    return pw;
}

// Raw moments of a tile's density ρ = nonzeros / elements.
struct RawMoments {
    double m1, m2, m3;
};
RawMoments density_moments(const TileOccupancy& o, double elements) {
    const double mu = o.mean_nonzeros;
    const double v = o.variance;
    return {
        mu / elements, (v + mu * mu) / (elements * elements),
        (o.third_central_moment + 3 * mu * v + mu * mu * mu) / (elements * elements * elements)};
}

PeWork two_operand_work(const WaveShape& w, const PhaseDensities& densities) {
    RawMoments r[2];
    for (std::size_t o = 0; o < 2; ++o) {
        const OperandSpread& op = w.operands[o];
        const OperandDensity& d = densities.of(op.space);
        r[o] = density_moments(tile_count_moments(d.model, d.density, op.tile, op.space),
                               double(op.tile.elements()));
    }
    const double W = double(w.pe_macs);
    const double m1 = W * r[0].m1 * r[1].m1;
    const double m2 = W * W * r[0].m2 * r[1].m2;
    const double m3 = W * W * W * r[0].m3 * r[1].m3;
    PeWork pw;
    pw.integral = false;
    pw.upper = W;
    pw.mean = m1;
    const double var = std::max(0.0, m2 - m1 * m1);
    pw.sd = std::sqrt(var);
    pw.skew = var > 0 ? (m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1) / std::pow(var, 1.5) : 0.0;
    return pw;
}

// The largest of `members` values that share their cluster draw: the shared
// part plus the largest of their own parts (normal), its mean and variance.
struct SetMaximum {
    double mean = 0;
    double var = 0;
};
SetMaximum largest_in_set(const PeWork& pw, std::int64_t members) {
    const NormalMaxMoments z = normal_max_moments(members);
    const double own_sd = std::sqrt(std::max(0.0, pw.sd * pw.sd - pw.shared_var));
    return {pw.mean + own_sd * z.m1, pw.shared_var + own_sd * own_sd * (z.m2 - z.m1 * z.m1)};
}

// E[slowest PE's work] over `distinct` PEs with different tiles, of which
// groups of distinct/groups share their clusters.
double expected_max_work(const PeWork& pw, std::int64_t distinct, std::int64_t groups) {
    if (distinct <= 1 || pw.sd <= 0) return pw.mean;
    if (groups < distinct && pw.shared_var > 0) {
        // Each group's largest, then the largest of the groups (Pearson, with
        // the shared skew).
        const SetMaximum each = largest_in_set(pw, distinct / std::max<std::int64_t>(groups, 1));
        return expected_maximum(groups, each.mean, std::sqrt(each.var),
                                pw.shared_third / std::pow(each.var, 1.5));
    }
    return expected_maximum(distinct, pw.mean, pw.sd, pw.skew);
}

// Expected cycles of a PE whose expected work is `work`: ceil(work / units),
// whose rounding adds (units − 1)/(2·units) on average for whole work and
// half a cycle for fractional work.
double cycles_of(double work, const PeWork& pw, std::int64_t units) {
    if (pw.sd <= 0) return balancing::pe_cycles(work, units);
    const double rounding = pw.integral ? double(units - 1) / (2.0 * double(units)) : 0.5;
    return work / double(units) + rounding;
}

// E[ceil(W / (D · units))] for the wave's total work W over its D distinct
// tiles spread evenly (flexible allocation; expected_ceiling.hpp), W normal
// with the tiles' moments (groups sharing clusters add their shared
// variance), on the lattice of whole nonzeros when the work counts them; W
// the work of `shares` packed waves (expected_ceiling.hpp).
double expected_even_share_cycles(const PeWork& pw, std::int64_t distinct, std::int64_t groups,
                                  std::int64_t units, double shares = 1) {
    const double D = double(distinct);
    const double per_cycle = D * double(units);
    const double mean = D * pw.mean;
    const double own = std::max(0.0, pw.sd * pw.sd - pw.shared_var);
    const double var = D * own + D * D / double(std::max<std::int64_t>(groups, 1)) * pw.shared_var;
    if (var <= 0) return balancing::pe_cycles(pw.mean, units);
    return expected_ceiling(
        {.mean = mean, .sd = std::sqrt(var), .integral = pw.integral, .lattice = pw.reuse},
        per_cycle, shares);
}

// The expected population standard deviation of the work of `distinct` PEs
// over their mean: each PE's own part is independent, E[var] = σ²(D − 1)/D
// over D draws (any statistics text); a clustered operand's shared part
// varies only between its `groups` cluster groups, (G − 1)/G.
double normalized_workload_stddev(const PeWork& pw, std::int64_t distinct, std::int64_t groups) {
    if (pw.mean <= 0 || distinct <= 1) return 0.0;
    const double own = std::max(0.0, pw.sd * pw.sd - pw.shared_var);
    const double d = double(distinct);
    const double g = double(std::max<std::int64_t>(1, std::min(groups, distinct)));
    const double var = own * (d - 1.0) / d + pw.shared_var * (g - 1.0) / g;
    return std::sqrt(var) / pw.mean;
}

// Tiles pooled in groups, each group's work summed and spread evenly over
// its own PEs, the wave waiting for the busiest group: line indexing's lines,
// flexible allocation's instances (balancing_schemes.hpp).
struct Pools {
    std::int64_t tiles = 1;      // distinct tiles a group sums per wave
    std::int64_t count = 1;      // distinct groups
    std::int64_t sets = 1;       // distinct cluster sets among the groups
    std::int64_t tile_sets = 1;  // distinct cluster sets among one group's tiles
    double packed = 1;           // waves a group runs as one
    // Whether the packed waves keep their cluster sets (line indexing: they
    // differ in dimensions that reduce into the same outputs) or draw new ones
    // (flexible allocation: they hold other filters).
    bool packed_keep_sets = true;
};

// A wave's cycles, shared out over the packed waves. A group sums its tiles
// over the packed waves: their own parts independently, their shared part
// once per cluster set; the groups' sums differ as their cluster sets do.
double busiest_pool_cycles(const PeWork& pw, const Pools& pools, std::int64_t units) {
    const double n = pools.packed * double(pools.tiles);  // tiles one group's sum holds
    const double sets = double(pools.tile_sets) * (pools.packed_keep_sets ? 1.0 : pools.packed);
    const double per_set = n / sets;
    const double own = std::max(0.0, pw.sd * pw.sd - pw.shared_var);
    PeWork sum = pw;
    sum.mean = n * pw.mean;
    sum.upper = n * pw.upper;
    sum.shared_var = sets * per_set * per_set * pw.shared_var;
    sum.shared_third = sets * per_set * per_set * per_set * pw.shared_third;
    sum.sd = std::sqrt(n * own + sum.shared_var);
    sum.skew = pw.skew / std::sqrt(n);
    if (sum.sd <= 0)
        return balancing::pe_cycles(sum.mean / double(pools.tiles), units) / pools.packed;
    const double busiest =
        std::clamp(expected_max_work(sum, pools.count, pools.sets), sum.mean, sum.upper);
    // E[⌈busiest / PEs⌉] for normal sums taken as independent; groups that
    // share a cluster set differ only in their own parts, so each set counts
    // once, with the largest of its groups (as expected_max_work); `busiest`
    // (with the sums' skew) where the sum has too many terms.
    CeilingWork each{.mean = sum.mean, .sd = sum.sd, .integral = pw.integral, .lattice = pw.reuse};
    std::int64_t independent = pools.count;
    if (pools.sets < pools.count && sum.shared_var > 0) {
        independent = std::max<std::int64_t>(1, pools.sets);
        const SetMaximum largest = largest_in_set(sum, pools.count / independent);
        each.mean = largest.mean;
        each.sd = std::sqrt(largest.var);
    }
    return expected_max_ceiling(each, double(pools.tiles * units), independent, busiest,
                                sum.upper) /
           pools.packed;
}

// Line indexing (balancing_schemes.hpp): a line is the `along` tiles along
// the axis within one instance of the level that feeds the PEs
// (WaveShape::local_distinct_x), summed over the waves it runs as one
// (WaveShape::line_packed_waves).
double line_indexing_cycles(const WaveShape& w, const PeWork& pw, bool single, int axis,
                            std::int64_t units) {
    const OperandSpread& op0 = w.operands[0];
    const bool along_x = axis == 0;
    const std::int64_t along = along_x ? w.local_distinct_x : w.local_distinct_y;
    const std::int64_t segments = (along_x ? w.distinct_x : w.distinct_y) / along;
    const std::int64_t lines = (along_x ? w.distinct_y : w.distinct_x) * segments;
    const std::int64_t local_sets = along_x ? op0.local_clusters_x : op0.local_clusters_y;
    return busiest_pool_cycles(
        pw,
        {.tiles = along,
         .count = lines,
         .sets = single ? (along_x ? op0.clusters_y * (op0.clusters_x / local_sets)
                                   : op0.clusters_x * (op0.clusters_y / local_sets))
                        : lines,
         .tile_sets = single ? std::max<std::int64_t>(1, local_sets) : along,
         .packed = double(w.line_packed_waves),
         .packed_keep_sets = true},
        units);
}

// Flexible allocation in one instance (balancing_schemes.hpp): the waves it
// packs (WaveShape::packed_waves) summed, independent, and spread evenly over
// the PEs, the cycles shared out over them.
double pooled_allocation_cycles(const WaveShape& w, const PeWork& pw, std::int64_t groups,
                                std::int64_t units) {
    const double packed = double(w.packed_waves);
    PeWork group = pw;
    group.mean *= packed;
    group.sd *= std::sqrt(packed);
    group.skew /= std::sqrt(packed);
    group.upper *= packed;
    group.shared_var *= packed;
    group.shared_third *= packed;
    return expected_even_share_cycles(group, w.distinct_x * w.distinct_y, groups, units, packed) /
           packed;
}

// Flexible allocation across instances (balancing_schemes.hpp): each
// instance of the level that feeds the PEs spreads its own tiles' work,
// summed over the waves it packs (WaveShape::packed_waves), over its own PEs.
double instance_allocation_cycles(const WaveShape& w, const PeWork& pw, bool single,
                                  std::int64_t units) {
    const OperandSpread& op0 = w.operands[0];
    const std::int64_t tiles = w.local_distinct_x * w.local_distinct_y;
    const std::int64_t instances = w.distinct_x * w.distinct_y / tiles;
    const std::int64_t local_sets = op0.local_clusters_x * op0.local_clusters_y;
    return busiest_pool_cycles(pw,
                               {.tiles = tiles,
                                .count = instances,
                                .sets = single ? op0.cluster_groups() / local_sets : instances,
                                .tile_sets = single ? local_sets : tiles,
                                .packed = double(w.packed_waves),
                                .packed_keep_sets = false},
                               units);
}

LoadImbalance closed_form(const ArchModel& arch, const PhaseProblem& problem, const WaveShape& w,
                          const PhaseDensities& densities, bool balanced_spreads) {
    const bool single = w.num_operands == 1;
    const OperandSpread& op0 = w.operands[0];
    const PeWork pw = single ? single_operand_work(w, op0, densities.of(op0.space), op0.tile)
                             : two_operand_work(w, densities);
    const std::int64_t distinct = w.distinct_x * w.distinct_y;
    const std::int64_t groups = single ? op0.cluster_groups() : distinct;
    const std::int64_t units = w.mac_units;
    // Small counts: the exact order statistics; else the continuous form,
    // kept within the work's bounds.
    const OperandDensity& d0 = densities.of(op0.space);
    const std::optional<double> small =
        single && distinct > 1 && pw.sd > 0
            ? small_count_expected_max(d0.model, d0.density, op0.tile, op0.space, distinct, groups)
            : std::nullopt;
    const double slowest =
        small ? pw.reuse * *small
              : std::clamp(expected_max_work(pw, distinct, groups), pw.mean, pw.upper);

    double wave_cycles = cycles_of(slowest, pw, units);
    double wave_balancing_cycles = 0;  // included in wave_cycles
    double wave_words = 0;
    double wave_hops = 1;  // per word moved
    int balancing_axis = -1;
    const LoadBalancing& lb = arch.load_balancing;
    switch (lb.scheme) {
        case LoadBalancingScheme::none:
            break;
        case LoadBalancingScheme::half_tile_pairing: {
            const int axis = imbalance_detail::balancing_axis(lb);
            const std::int64_t along = axis == 0 ? w.distinct_x : w.distinct_y;
            const std::int64_t lines = axis == 0 ? w.distinct_y : w.distinct_x;
            const int cut =
                single ? half_cut_axis(densities.of(op0.space).model, op0.tile, op0.space) : 0;
            if (axis < 0 || along <= 1 || cut < 0) break;  // nothing to pair: as `none`
            PeWork half = pw;  // two operands: halves of independent elements
            half.sd = pw.sd / std::sqrt(2.0);
            half.skew = pw.skew / std::sqrt(2.0);
            if (single)
                half = single_operand_work(w, op0, densities.of(op0.space), half_of(op0.tile, cut));
            const double half_sd = half.sd;
            const NormalMaxMoments z = paired_halves_max_moments(along, half.skew);
            const double var = std::max(0.0, z.m2 - z.m1 * z.m1);
            const double skew =
                var > 0 ? (z.m3 - 3 * z.m1 * z.m2 + 2 * z.m1 * z.m1 * z.m1) / std::pow(var, 1.5)
                        : 0;
            // Lines that share their clusters (C,K with per-filter clusters: a
            // row's PEs hold the same filters) differ only in their own parts.
            const std::int64_t line_clusters = axis == 0 ? op0.clusters_y : op0.clusters_x;
            const double line_sd =
                single && line_clusters < lines
                    ? std::sqrt(std::max(0.0, half_sd * half_sd - half.shared_var))
                    : half_sd;
            const double paired = std::clamp(
                expected_maximum(lines, pw.mean + half_sd * z.m1, line_sd * std::sqrt(var), skew),
                pw.mean, pw.upper);
            wave_cycles = cycles_of(paired, pw, units);
            // A few nonzeros per half: the exact distribution of the heaviest pair.
            if (single) {
                const OperandDensity& d = densities.of(op0.space);
                const TensorTile half0 = half_of(op0.tile, cut);
                TensorTile half1 = op0.tile;
                half1.extent[std::size_t(cut)] -= half0.extent[std::size_t(cut)];
                if (const auto exact = small_count_paired_max(d.model, d.density, half0, half1,
                                                              op0.space, along, lines)) {
                    wave_cycles = 0;
                    for (std::size_t t = 0; t <= exact->top; ++t) {
                        const double p = exact->at(t) - (t > 0 ? exact->at(t - 1) : 0.0);
                        wave_cycles += p * balancing::pe_cycles(double(t) * pw.reuse, units);
                    }
                }
            }
            // The first operand's nonzeros: its whole tile's share of the work.
            const double nonzeros = single
                                        ? pw.mean / pw.reuse
                                        : pw.mean * double(op0.tile.elements()) / double(w.pe_macs);
            wave_words = imbalance_detail::pairing_words_per_wave(problem, w, nonzeros, axis);
            wave_hops = balancing::pairing_mean_hops(imbalance_detail::pes_along(w, axis));
            balancing_axis = axis;
            break;
        }
        case LoadBalancingScheme::two_level_work_stealing: {
            const double after = balancing::two_level_slowest_work(pw.mean, slowest);
            const bool steals = balancing::two_level_steals(pw.mean, slowest);
            wave_balancing_cycles = steals ? balancing::kStealLatencyCycles : 0.0;
            // After stealing the work is a fraction of MACs: its ceil adds half a cycle.
            wave_cycles =
                (after > pw.mean ? after / double(units) + 0.5 : cycles_of(after, pw, units)) +
                wave_balancing_cycles;
            const double coarse = std::min(slowest, pw.mean * (1.0 + balancing::kCoarseTolerance));
            // Half the PEs are above the mean; each sheds its excess: operands (2 words
            // per MAC) in the coarse step, operands and product in the stealing step.
            wave_words =
                double(w.pes()) / 2.0 *
                (2.0 * (slowest - coarse) + balancing::kStealWordsPerMac * (coarse - after));
            break;
        }
        case LoadBalancingScheme::flexible_allocation: {
            // The work of the waves packed together (wave_shape.hpp) spread
            // evenly over the PEs, independent waves summed; the tree's fill
            // once (below). Each instance of the level that feeds the PEs has
            // its own tree (Eager Pruning's sub-systems, §5.2): with several,
            // the busiest instance sets the pace.
            wave_cycles = w.local_distinct_x * w.local_distinct_y < distinct
                              ? instance_allocation_cycles(w, pw, single, units)
                              : pooled_allocation_cycles(w, pw, groups, units);
            wave_words = double(w.pes());
            break;
        }
        case LoadBalancingScheme::line_indexing: {
            const int axis = imbalance_detail::balancing_axis(lb);
            wave_cycles = line_indexing_cycles(w, pw, single, axis, units);
            balancing_axis = axis;
            break;
        }
    }
    LoadImbalance r;
    r.applies = true;
    r.waves = w.waves;
    r.balanced_cycles = double(w.waves) * pw.mean / double(units);
    r.cycles = double(w.waves) * wave_cycles;
    r.balancing_cycles = double(w.waves) * wave_balancing_cycles;
    if (lb.scheme == LoadBalancingScheme::flexible_allocation) {
        // The adder tree's pipeline fills once per layer and phase.
        r.balancing_cycles = balancing::flexible_tree_cycles(w.pes());
        r.cycles += r.balancing_cycles;
    }
    r.balancing_words = double(w.waves) * wave_words;
    r.balancing_word_hops = r.balancing_words * wave_hops;
    r.balancing_axis = balancing_axis;
    r.workload_stddev = normalized_workload_stddev(pw, distinct, groups);
    r.stealing_pays = balancing::two_level_steals(pw.mean, slowest);
    if (balanced_spreads) {
        const BalancedSpreads b = trainloop::balanced_spreads(r);
        r.workload_stddev_coarse = b.coarse;
        r.workload_stddev_two_level = b.two_level;
    }
    imbalance_detail::finish(r);
    return r;
}

}  // namespace

namespace imbalance_detail {

int balancing_axis(const LoadBalancing& balancing) {
    if (!balancing.axis || *balancing.axis == ArrayAxis::both) return -1;
    return *balancing.axis == ArrayAxis::x ? 0 : 1;
}

std::int64_t pes_along(const WaveShape& wave, int axis) {
    return axis == 0 ? wave.pes_x : axis == 1 ? wave.pes_y : 1;
}

double pairing_words_per_wave(const PhaseProblem& problem, const WaveShape& wave,
                              double operand_nonzeros, int axis) {
    const OperandSpread& op = wave.operands[0];
    double words = operand_nonzeros / 2.0 +
                   double(footprint(problem.projection(problem.output()), wave.pe_box)) / 2.0;
    const DimBounds& spread = axis == 0 ? wave.spread_x : wave.spread_y;
    for (DataSpace s : kAllDataSpaces) {
        if (s == problem.output() || s == op.space) continue;
        bool differs = false;
        for (Dim dim : kAllDims) {
            differs = differs || (problem.projection(s).relevant.contains(dim) && spread[dim] > 1);
        }
        if (differs) words += double(footprint(problem.projection(s), wave.pe_box));
    }
    return words * double(wave.pes());
}

void finish(LoadImbalance& r) {
    r.imbalance_cycles = r.cycles - r.balanced_cycles;
    r.imbalance_pct = r.balanced_cycles > 0 ? 100.0 * r.imbalance_cycles / r.balanced_cycles : 0.0;
}

}  // namespace imbalance_detail

BalancedSpreads balanced_spreads(const LoadImbalance& imbalance) {
    const double coarse = balancing::coarse_workload_stddev(imbalance.workload_stddev);
    return {coarse, balancing::stealing_spread(coarse, imbalance.stealing_pays)};
}

LoadImbalance estimate_load_imbalance(const ArchModel& arch, const PhaseProblem& problem,
                                      const Mapping& mapping, const NestAnalysis& nest,
                                      const PhaseDensities& densities,
                                      const ImbalanceOptions& options) {
    const WaveShape w = wave_shape(arch, problem, mapping, densities);
    if (w.num_operands == 0) {
        LoadImbalance dense;
        dense.waves = w.waves;
        dense.balanced_cycles = double(nest.compute_cycles);
        dense.cycles = double(nest.compute_cycles);
        return dense;
    }
    if (options.method == ImbalanceMethod::monte_carlo) {
        return imbalance_detail::monte_carlo(arch, problem, w, densities, options);
    }
    LoadImbalance r = closed_form(arch, problem, w, densities, options.balanced_spreads);
    if (options.histogram) {
        r.histogram = imbalance_detail::monte_carlo(arch, problem, w, densities, options).histogram;
    }
    return r;
}

}  // namespace trainloop
