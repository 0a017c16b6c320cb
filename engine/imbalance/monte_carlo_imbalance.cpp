// The Monte-Carlo reference of the load-imbalance model (load_imbalance.hpp):
// per sampled wave, draws every distinct PE tile's nonzeros from the density
// model (cluster densities first, shared by the PEs of a cluster group; for
// a mask, a tile of the actual mask at a random aligned position), counts
// each PE's work, and applies the balancing scheme's rule
// (balancing_schemes.hpp) to the sampled works exactly: sorting and pairing
// the sampled half tiles, capping and sharing the sampled excess, summing
// the wave. Seeded (std::mt19937_64) and deterministic.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <variant>
#include <vector>

#include "common/overloaded.hpp"
#include "imbalance/balancing_schemes.hpp"
#include "imbalance/imbalance_detail.hpp"
#include "sparse/mask_tiles.hpp"
#include "sparse/tile_occupancy.hpp"

namespace trainloop::imbalance_detail {
namespace {

using Rng = std::mt19937_64;

double uniform01(Rng& rng) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng); }

std::int64_t binomial(Rng& rng, std::int64_t trials, double p) {
    if (trials <= 0 || p <= 0) return 0;
    if (p >= 1) return trials;
    return std::binomial_distribution<std::int64_t>(trials, p)(rng);
}

// A beta variate as X/(X+Y) of two gammas.
double beta_variate(Rng& rng, const BetaParameters& b) {
    const double x = std::gamma_distribution<double>(b.alpha, 1.0)(rng);
    const double y = std::gamma_distribution<double>(b.beta, 1.0)(rng);
    return x + y > 0 ? x / (x + y) : b.alpha / (b.alpha + b.beta);
}

// N:M: whole blocks exact; each line's partial block a hypergeometric draw.
std::int64_t sample_n_m(Rng& rng, const NMModel& m, const TensorTile& tile, DataSpace space) {
    const int axis = tensor_axis_index(space, m.axis);
    if (axis < 0 || axis >= tile.rank) return binomial(rng, tile.elements(), m.density());
    const std::int64_t length = tile.extent[std::size_t(axis)];
    const std::int64_t lines = tile.elements() / length;
    const std::int64_t r = length % m.m;
    std::int64_t count = lines * (length / m.m) * m.n;
    for (std::int64_t l = 0; l < lines && r > 0; ++l) {
        std::int64_t hits = 0;
        for (std::int64_t i = 0; i < r; ++i) {
            if (uniform01(rng) < double(m.n - hits) / double(m.m - i)) ++hits;
        }
        count += hits;
    }
    return count;
}

// Hypergeometric: E of the tensor's N elements drawn one by one without
// replacement, K of them nonzero (N unknown: binomial).
std::int64_t sample_hypergeometric(Rng& rng, const HypergeometricModel& m, double density,
                                   std::int64_t elements) {
    if (m.population <= 0) return binomial(rng, elements, density);
    const std::int64_t n = m.population;
    const auto k = std::int64_t(hypergeometric_nonzeros(density, double(n)));
    const std::int64_t draws = std::min(elements, n);
    std::int64_t hits = 0;
    for (std::int64_t i = 0; i < draws; ++i) {
        if (uniform01(rng) < double(k - hits) / double(n - i)) ++hits;
    }
    return hits;
}

// Draws the nonzero counts of one condition operand's distinct tiles (and
// their two halves, for half-tile pairing), wave by wave.
class OperandSampler {
  public:
    OperandSampler(const OperandSpread& op, const OperandDensity& d, bool halves)
        : op_(op), d_(d), halves_(halves) {
        cut_ = halves ? half_cut_axis(d.model, op.tile, op.space) : -1;
        half0_ = half_of(op.tile, cut_);
        half1_ = op.tile;
        if (cut_ >= 0) {
            half1_.extent[std::size_t(cut_)] =
                op.tile.extent[std::size_t(cut_)] - half0_.extent[std::size_t(cut_)];
        }
        std::visit(overloaded{
                       [](const UniformModel&) {},
                       [](const EvenModel&) {},
                       [](const HypergeometricModel&) {},
                       [](const NMModel&) {},
                       [&](const ClusteredModel& c) {
                           clustered_ = &c;
                           beta_ = cluster_beta(d.density, c.cv);
                           const ClusterSplit split = cluster_split(c, op.tile, op.space);
                           clusters_ = std::int64_t(std::llround(split.clusters));
                           per_cluster_ = std::int64_t(std::llround(split.elements_per_cluster));
                           cluster_densities_.resize(std::size_t(op.cluster_groups() * clusters_));
                       },
                       [&](const MaskModel& m) {
                           // Masks are read when the profile is parsed.
                           if (!m.mask) throw std::logic_error("Monte-Carlo: mask not loaded");
                           whole_counts_ = mask_tile_counts(*m.mask, op.tile, op.space).counts;
                           if (halves) {
                               half_counts_ = mask_tile_counts(*m.mask, half0_, op.space).counts;
                           }
                       },
                   },
                   d.model);
        counts_.resize(std::size_t(op.distinct()));
        first_half_.resize(std::size_t(op.distinct()));
    }

    // Draws this wave's tiles: counts(j) and first_half(j) for j < distinct.
    void draw(Rng& rng) {
        if (clustered_ && beta_.variance > 0) {
            for (double& c : cluster_densities_) c = beta_variate(rng, beta_);
        }
        for (std::int64_t jy = 0; jy < op_.distinct_y; ++jy) {
            for (std::int64_t jx = 0; jx < op_.distinct_x; ++jx) {
                const std::int64_t group =
                    op_.local_cluster_set_x(jx) + op_.clusters_x * op_.local_cluster_set_y(jy);
                const std::size_t j = std::size_t(jx + op_.distinct_x * jy);
                if (halves_ && cut_ >= 0) {
                    first_half_[j] = part(rng, group, half0_, 0);
                    counts_[j] = first_half_[j] + part(rng, group, half1_, 1);
                } else {
                    counts_[j] = part(rng, group, op_.tile, -1);
                    first_half_[j] = counts_[j];
                }
            }
        }
    }
    std::int64_t count(std::int64_t jx, std::int64_t jy) const {
        return counts_[std::size_t(jx % op_.distinct_x + op_.distinct_x * (jy % op_.distinct_y))];
    }
    std::int64_t first_half(std::int64_t jx, std::int64_t jy) const {
        return first_half_[std::size_t(jx % op_.distinct_x +
                                       op_.distinct_x * (jy % op_.distinct_y))];
    }
    double elements() const { return double(op_.tile.elements()); }

  private:
    // Nonzeros of `tile` (the whole tile: which = −1; a half: 0 or 1).
    std::int64_t part(Rng& rng, std::int64_t group, const TensorTile& tile, int which) {
        return std::visit(
            overloaded{
                [&](const UniformModel&) { return binomial(rng, tile.elements(), d_.density); },
                [&](const EvenModel&) {
                    // The floor, or the ceiling with the mean's fractional part.
                    const double x = d_.density * double(tile.elements());
                    const double low = std::floor(x);
                    return std::int64_t(low) + binomial(rng, 1, x - low);
                },
                [&](const HypergeometricModel& h) {
                    return sample_hypergeometric(rng, h, d_.density, tile.elements());
                },
                [&](const NMModel& nm) { return sample_n_m(rng, nm, tile, op_.space); },
                [&](const ClusteredModel&) { return clustered_part(rng, group, tile, which); },
                [&](const MaskModel&) { return mask_part(rng, tile, which); },
            },
            d_.model);
    }

    // Clusters draw their densities per wave (draw()); with no spread (cv 0)
    // the elements are independent with the tensor's density.
    std::int64_t clustered_part(Rng& rng, std::int64_t group, const TensorTile& tile, int which) {
        if (beta_.variance > 0) {
            const double* dens = cluster_densities_.data() + group * clusters_;
            std::int64_t first = 0;
            std::int64_t last = clusters_;
            std::int64_t per = per_cluster_;
            if (which >= 0) {
                const std::int64_t e = op_.tile.extent[std::size_t(cut_)];
                const std::int64_t share = tile.extent[std::size_t(cut_)];
                if (axis_identifies_cluster(*clustered_, cut_, op_.tile, op_.space)) {
                    // Disjoint clusters: the half holds share/e of them.
                    const std::int64_t split = clusters_ / e * (e - share);
                    first = which == 0 ? 0 : split;
                    last = which == 0 ? clusters_ / e * share : clusters_;
                } else {
                    per = per_cluster_ / e * share;  // the same clusters, fewer elements each
                }
            }
            std::int64_t n = 0;
            for (std::int64_t c = first; c < last; ++c) n += binomial(rng, per, dens[c]);
            return n;
        }
        return binomial(rng, tile.elements(), d_.density);
    }

    // A mask: the count of a tile drawn from the mask's own tiles.
    std::int64_t mask_part(Rng& rng, const TensorTile& tile, int which) const {
        const std::vector<std::int64_t>& counts = which >= 0 ? half_counts_ : whole_counts_;
        if (counts.empty()) throw std::logic_error("Monte-Carlo: a mask with no tiles");
        const std::int64_t c = counts[std::size_t(rng() % counts.size())];
        return which == 1 && tile.elements() != half0_.elements()
                   ? std::int64_t(std::llround(double(c) * double(tile.elements()) /
                                               double(half0_.elements())))
                   : c;
    }

    const OperandSpread& op_;
    const OperandDensity& d_;
    bool halves_;
    int cut_ = -1;
    TensorTile half0_;
    TensorTile half1_;
    const ClusteredModel* clustered_ = nullptr;
    BetaParameters beta_;
    std::int64_t clusters_ = 1;
    std::int64_t per_cluster_ = 1;
    std::vector<double> cluster_densities_;
    std::vector<std::int64_t> whole_counts_;
    std::vector<std::int64_t> half_counts_;
    std::vector<std::int64_t> counts_;
    std::vector<std::int64_t> first_half_;
};

constexpr int kHistogramBins = 11;  // [0,10), ..., [90,100), [100, ∞) percent

std::size_t histogram_bin(double overhead_pct) {
    return std::size_t(std::clamp(int(std::floor(overhead_pct / 10.0)), 0, kHistogramBins - 1));
}

// A group of `count` sampled waves that run as one (flexible allocation's
// packed waves, a line's under line indexing), `packed` waves when whole: the
// cycles of its busiest share, `busiest_work` over `pes` PEs, spread back over
// its waves, a group cut short by the sample's end standing for a whole one.
// Its waves go into the histogram at the group's overhead over `work`, the
// group's balanced work per PE.
double group_cycles(double busiest_work, double work, std::int64_t pes, std::int64_t count,
                    std::int64_t packed, std::int64_t units, std::vector<double>& bins) {
    const double whole = double(packed) / double(count);
    const double cycles = balancing::pe_cycles(busiest_work * whole / double(pes), units) / whole;
    const double balanced = work / double(units);
    bins[histogram_bin(balanced > 0 ? 100.0 * (cycles / balanced - 1.0) : 0.0)] += double(count);
    return cycles;
}

}  // namespace

LoadImbalance monte_carlo(const ArchModel& arch, const PhaseProblem& problem, const WaveShape& w,
                          const PhaseDensities& densities, const ImbalanceOptions& options) {
    const LoadBalancing& lb = arch.load_balancing;
    const int axis = balancing_axis(lb);
    const bool pairing = lb.scheme == LoadBalancingScheme::half_tile_pairing && axis >= 0;
    std::vector<OperandSampler> samplers;
    samplers.reserve(w.num_operands);
    for (std::size_t o = 0; o < w.num_operands; ++o) {
        samplers.emplace_back(w.operands[o], densities.of(w.operands[o].space), pairing && o == 0);
    }
    const std::int64_t dx = w.distinct_x;
    const std::int64_t dy = w.distinct_y;
    const std::int64_t units = w.mac_units;
    const double pe_macs = double(w.pe_macs);
    const double reuse = pe_macs / samplers[0].elements();
    std::vector<double> work(std::size_t(dx * dy));
    std::vector<double> first_half(std::size_t(dx * dy));
    std::vector<double> halves;

    const OperandDensity& first = densities.of(w.operands[0].space);
    const double pairing_nonzeros =
        pairing
            ? tile_occupancy(first.model, first.density, w.operands[0].tile, w.operands[0].space)
                  .mean_nonzeros
            : 0.0;
    Rng rng(options.seed);
    const std::int64_t sampled =
        std::max<std::int64_t>(1, std::min(w.waves, options.sampled_waves));
    double sum_cycles = 0;
    double sum_balanced = 0;
    double sum_balancing_cycles = 0;
    double sum_words = 0;
    double sum_word_hops = 0;
    double sum_stddev = 0;
    double sum_stddev_coarse = 0;
    double sum_stddev_two_level = 0;
    std::vector<double> bins(kHistogramBins, 0.0);
    std::vector<double> instance_work;  // flexible allocation: each instance's current group
    double packed_total = 0;
    std::int64_t packed_count = 0;
    std::vector<double> line_work;  // line indexing: each line's current group
    double line_total = 0;
    std::int64_t line_count = 0;
    for (std::int64_t s = 0; s < sampled; ++s) {
        for (OperandSampler& sampler : samplers) sampler.draw(rng);
        double total = 0;
        double slowest = 0;
        for (std::int64_t py = 0; py < dy; ++py) {
            for (std::int64_t px = 0; px < dx; ++px) {
                const std::size_t i = std::size_t(px + dx * py);
                double scale = reuse;  // MACs per nonzero of the first operand
                if (samplers.size() == 2) {
                    scale = pe_macs / samplers[0].elements() * double(samplers[1].count(px, py)) /
                            samplers[1].elements();
                }
                work[i] = scale * double(samplers[0].count(px, py));
                first_half[i] = scale * double(samplers[0].first_half(px, py));
                total += work[i];
                slowest = std::max(slowest, work[i]);
            }
        }
        const double mean = total / double(dx * dy);
        if (mean > 0) {  // the wave's normalized spread, before balancing
            double squares = 0;
            for (std::size_t i = 0; i < std::size_t(dx * dy); ++i)
                squares += (work[i] - mean) * (work[i] - mean);
            sum_stddev += std::sqrt(squares / double(dx * dy)) / mean;
            double coarse_squares = 0;  // after Chen et al.'s coarse step
            for (std::size_t i = 0; i < std::size_t(dx * dy); ++i) {
                const double d = balancing::coarse_deviation(work[i] - mean, mean);
                coarse_squares += d * d;
            }
            const double coarse = std::sqrt(coarse_squares / double(dx * dy)) / mean;
            sum_stddev_coarse += coarse;
            sum_stddev_two_level +=
                balancing::stealing_spread(coarse, balancing::two_level_steals(mean, slowest));
        }
        double cycles = balancing::pe_cycles(slowest, units);
        bool binned = false;  // the wave's overhead already in the histogram
        double balancing_cycles = 0;
        double words = 0;
        double hops = 1;
        switch (lb.scheme) {
            case LoadBalancingScheme::none:
                break;
            case LoadBalancingScheme::half_tile_pairing: {
                if (!pairing) break;
                const std::int64_t along = axis == 0 ? dx : dy;
                const std::int64_t lines = axis == 0 ? dy : dx;
                double heaviest = 0;
                for (std::int64_t l = 0; l < lines; ++l) {
                    halves.clear();
                    for (std::int64_t a = 0; a < along; ++a) {
                        const std::size_t i = std::size_t(axis == 0 ? a + dx * l : l + dx * a);
                        halves.push_back(first_half[i]);
                        halves.push_back(work[i] - first_half[i]);
                    }
                    std::sort(halves.begin(), halves.end());
                    for (std::size_t k = 0; k < halves.size() / 2; ++k) {
                        heaviest = std::max(heaviest, halves[k] + halves[halves.size() - 1 - k]);
                    }
                }
                cycles = balancing::pe_cycles(heaviest, units);
                words = pairing_words_per_wave(problem, w, pairing_nonzeros, axis);
                hops = balancing::pairing_mean_hops(pes_along(w, axis));
                break;
            }
            case LoadBalancingScheme::two_level_work_stealing: {
                const double after = balancing::two_level_slowest_work(mean, slowest);
                const double coarse = std::min(slowest, mean * (1.0 + balancing::kCoarseTolerance));
                balancing_cycles = balancing::two_level_steals(mean, slowest)
                                       ? balancing::kStealLatencyCycles
                                       : 0.0;
                cycles = balancing::pe_cycles(after, units) + balancing_cycles;
                words =
                    double(w.pes()) / 2.0 *
                    (2.0 * (slowest - coarse) + balancing::kStealWordsPerMac * (coarse - after));
                break;
            }
            case LoadBalancingScheme::flexible_allocation: {
                // The waves packed together (wave_shape.hpp) share the PEs of
                // each instance of the level that feeds them: each instance's
                // summed work spread evenly over its tiles, the busiest one's
                // cycles shared out over the group's waves. Tile (px, py) sits
                // in instance (px / local_distinct_x, py / local_distinct_y).
                // The adder tree's pipeline fill is added once, below.
                const std::int64_t lx = w.local_distinct_x;
                const std::int64_t ly = w.local_distinct_y;
                instance_work.resize(std::size_t(dx / lx * (dy / ly)), 0.0);
                for (std::int64_t py = 0; py < dy; ++py) {
                    for (std::int64_t px = 0; px < dx; ++px) {
                        instance_work[std::size_t(px / lx + dx / lx * (py / ly))] +=
                            work[std::size_t(px + dx * py)];
                    }
                }
                packed_total += total;
                packed_count += 1;
                cycles = 0;
                if (packed_count == w.packed_waves || s + 1 == sampled) {
                    cycles =
                        group_cycles(*std::max_element(instance_work.begin(), instance_work.end()),
                                     packed_total / double(dx * dy), lx * ly, packed_count,
                                     w.packed_waves, units, bins);
                    std::fill(instance_work.begin(), instance_work.end(), 0.0);
                    packed_total = 0;
                    packed_count = 0;
                }
                binned = true;
                words = double(w.pes());
                break;
            }
            case LoadBalancingScheme::line_indexing: {
                // Each line sums its tiles over the waves that feed its outputs
                // (wave_shape.hpp); the busiest line's sum, spread over its PEs.
                // A row (column) of tiles is cut into segments of `along`
                // consecutive tiles, one per instance of the level that feeds
                // the PEs (WaveShape::local_distinct_x).
                const bool along_x = axis == 0;
                const std::int64_t along = along_x ? w.local_distinct_x : w.local_distinct_y;
                const std::int64_t segments = (along_x ? dx : dy) / along;
                const std::int64_t lines = (along_x ? dy : dx) * segments;
                line_work.resize(std::size_t(lines), 0.0);
                for (std::int64_t l = 0; l < lines; ++l) {
                    const std::int64_t across = l / segments;  // the row (column)
                    const std::int64_t first = (l % segments) * along;
                    for (std::int64_t a = first; a < first + along; ++a) {
                        line_work[std::size_t(l)] +=
                            work[std::size_t(along_x ? a + dx * across : across + dx * a)];
                    }
                }
                line_total += total;
                line_count += 1;
                cycles = 0;
                if (line_count == w.line_packed_waves || s + 1 == sampled) {
                    cycles = group_cycles(*std::max_element(line_work.begin(), line_work.end()),
                                          line_total / double(dx * dy), along, line_count,
                                          w.line_packed_waves, units, bins);
                    std::fill(line_work.begin(), line_work.end(), 0.0);
                    line_total = 0;
                    line_count = 0;
                }
                binned = true;
                break;
            }
        }
        const double balanced = mean / double(units);
        sum_cycles += cycles;
        sum_balanced += balanced;
        sum_balancing_cycles += balancing_cycles;
        sum_words += words;
        sum_word_hops += words * hops;
        const double overhead = balanced > 0 ? 100.0 * (cycles / balanced - 1.0) : 0.0;
        if (!binned) bins[histogram_bin(overhead)] += 1;
    }
    LoadImbalance r;
    r.applies = true;
    r.waves = w.waves;
    const double per_wave = double(w.waves) / double(sampled);
    r.cycles = sum_cycles * per_wave;
    r.balanced_cycles = sum_balanced * per_wave;
    r.balancing_cycles = sum_balancing_cycles * per_wave;
    r.balancing_words = sum_words * per_wave;
    r.balancing_word_hops = sum_word_hops * per_wave;
    r.balancing_axis = pairing || lb.scheme == LoadBalancingScheme::line_indexing ? axis : -1;
    r.workload_stddev = sum_stddev / double(sampled);
    r.workload_stddev_coarse = sum_stddev_coarse / double(sampled);
    r.workload_stddev_two_level = sum_stddev_two_level / double(sampled);
    if (lb.scheme == LoadBalancingScheme::flexible_allocation) {
        // The adder tree's pipeline fills once per layer and phase.
        r.balancing_cycles = balancing::flexible_tree_cycles(w.pes());
        r.cycles += r.balancing_cycles;
    }
    finish(r);
    if (options.histogram) {
        for (int b = 0; b < kHistogramBins; ++b) {
            const double upper = b + 1 < kHistogramBins ? 10.0 * (b + 1) : HUGE_VAL;
            r.histogram.push_back({10.0 * b, upper, bins[std::size_t(b)] / double(sampled)});
        }
    }
    return r;
}

}  // namespace trainloop::imbalance_detail
