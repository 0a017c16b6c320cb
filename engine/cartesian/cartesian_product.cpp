#include "cartesian/cartesian_product.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <compare>
#include <limits>
#include <map>
#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>

#include "cartesian/bank_conflicts.hpp"
#include "cartesian/random_vectors.hpp"

namespace trainloop {
namespace {

std::int64_t floor_div(std::int64_t n, std::int64_t d) {
    const std::int64_t q = n / d;
    return (n % d != 0 && ((n < 0) != (d < 0))) ? q - 1 : q;
}

std::int64_t ceil_div(std::int64_t n, std::int64_t d) { return -floor_div(-n, d); }

// The b in [0, b_extent) used with A at `a`: an interval of b (from the
// output range) intersected with one residue class (from the divisibility).
struct Partners {
    std::int64_t first = 0;  // lowest used b
    std::int64_t step = 1;
    std::int64_t count = 0;
};

Partners partners_of(const CartesianAxis& axis, std::int64_t a, UnusedRule rule) {
    const std::int64_t c = axis.a_scale * a + axis.offset;
    // n = c + sb·b must lie in [0, high]; negative_only drops the upper bound.
    const std::int64_t high = rule == UnusedRule::negative_only
                                  ? std::numeric_limits<std::int64_t>::max() / 4
                                  : axis.divisor * axis.out_extent - 1;
    const std::int64_t sb = axis.b_scale;
    std::int64_t lo = 0;
    std::int64_t hi = axis.b_extent - 1;
    if (sb > 0) {
        lo = std::max(lo, ceil_div(-c, sb));
        hi = std::min(hi, floor_div(high - c, sb));
    } else {
        lo = std::max(lo, ceil_div(c - high, -sb));
        hi = std::min(hi, floor_div(c, -sb));
    }
    if (lo > hi) return {};
    // sb·b ≡ −c (mod divisor): one residue modulo divisor / gcd, or none.
    const std::int64_t g = std::gcd(sb < 0 ? -sb : sb, axis.divisor);
    const std::int64_t step = axis.divisor / g;
    std::int64_t residue = -1;
    for (std::int64_t r = 0; r < step; ++r) {
        const std::int64_t n = c + sb * r;
        if (((n % axis.divisor) + axis.divisor) % axis.divisor == 0) {
            residue = r;
            break;
        }
    }
    if (residue < 0) return {};
    const std::int64_t first = lo + ((residue - lo) % step + step) % step;
    if (first > hi) return {};
    return {first, step, (hi - first) / step + 1};
}

// Whether one of `points` (h, w positions of A) is used with B at (bh, bw).
struct Point {
    std::int64_t h = 0;
    std::int64_t w = 0;
};

// Dense count of the cycles of one input vector (its A positions) against
// the whole B stream in which no product is used: the stream's F-entry
// chunks minus those holding a used partner of some position. The stream is
// position-major (bh, bw), filter fastest: entry (bh·Bw + bw)·filters + k.
std::int64_t all_unused_chunks(const CartesianConv& conv, std::int64_t filters,
                               const std::vector<Point>& vector, std::int64_t chunk,
                               UnusedRule rule,
                               std::vector<std::pair<std::int64_t, std::int64_t>>& spans) {
    const std::int64_t stream = filters * conv.h.b_extent * conv.w.b_extent;
    const std::int64_t chunks = ceil_div(stream, chunk);
    spans.clear();
    for (const Point& p : vector) {
        const Partners ph = partners_of(conv.h, p.h, rule);
        const Partners pw = partners_of(conv.w, p.w, rule);
        for (std::int64_t i = 0; i < ph.count; ++i) {
            const std::int64_t bh = ph.first + i * ph.step;
            if (pw.count > 0 && pw.step == 1) {  // consecutive bw: one run of the stream
                const std::int64_t begin = (bh * conv.w.b_extent + pw.first) * filters;
                const std::int64_t end = begin + pw.count * filters;
                spans.emplace_back(begin / chunk, (end - 1) / chunk);
                continue;
            }
            for (std::int64_t j = 0; j < pw.count; ++j) {
                const std::int64_t bw = pw.first + j * pw.step;
                const std::int64_t begin = (bh * conv.w.b_extent + bw) * filters;
                spans.emplace_back(begin / chunk, (begin + filters - 1) / chunk);
            }
        }
    }
    std::sort(spans.begin(), spans.end());
    std::int64_t touched = 0;
    std::int64_t covered_to = -1;  // last chunk index already counted
    for (const auto& [first, last] : spans) {
        if (last <= covered_to) continue;
        touched += last - std::max(first, covered_to + 1) + 1;
        covered_to = last;
    }
    return chunks - touched;
}

// The positions [begin, end) of tile `index` of `tiles` over `extent`.
std::pair<std::int64_t, std::int64_t> tile_range(std::int64_t extent, std::int64_t tiles,
                                                 std::int64_t index) {
    const std::int64_t size = ceil_div(extent, tiles);
    const std::int64_t begin = std::min(extent, index * size);
    return {begin, std::min(extent, begin + size)};
}

// ⌈nonzeros / width⌉ vectors of `width` nonzeros, the expected count inside the
// ceiling (Alg. 3 lines 7-10); the epsilon keeps an exact multiple from rounding up.
double vectors_of(double nonzeros, std::int64_t width) {
    return std::ceil(nonzeros / static_cast<double>(width) - 1e-9);
}

// What a PE holds: its part of the A plane and its share of the filters.
struct PeWork {
    std::int64_t h0, h1, w0, w1, filters;

    auto operator<=>(const PeWork&) const = default;
};

// One PE's cycles and issued products per (sample, channel) under GSCN's
// predictor (thesis §6.5; the model in the header): width-major input
// vectors, each running the filter stream (width outermost, Alg. 5) up to
// the first filter vector whose products all have a negative width
// coordinate, that vector included.
struct PredictedWork {
    double cycles = 0;
    double issued = 0;
};

PredictedWork predicted_pe_work(const CartesianConv& conv, const PeWork& pe,
                                const CartesianConfig& config) {
    const std::int64_t column = pe.h1 - pe.h0;  // positions per width step of the tile
    const std::int64_t positions = column * (pe.w1 - pe.w0);
    const double f = static_cast<double>(config.filter_vector);
    const double i_width = static_cast<double>(config.input_vector);
    // Stream nonzeros per width position b_w of B, and in all.
    const double per_width =
        config.filter_density * static_cast<double>(pe.filters * conv.h.b_extent);
    const double stream = per_width * static_cast<double>(conv.w.b_extent);
    const double all_vectors = vectors_of(stream, config.filter_vector);
    const double nonzeros = config.input_density * static_cast<double>(positions);
    const auto input_vectors = static_cast<std::int64_t>(vectors_of(nonzeros, config.input_vector));
    PredictedWork out;
    for (std::int64_t j = 0; j < input_vectors; ++j) {
        const double in_vector = std::min(i_width, nonzeros - static_cast<double>(j) * i_width);
        // The vector's last nonzero is its widest input (width-major order).
        const double last = static_cast<double>(j) * i_width + in_vector - 1.0;
        // Clamped before the cast: a vanishing density puts the expected position far out.
        const auto position =
            static_cast<std::int64_t>(std::clamp(std::floor(last / config.input_density + 1e-9),
                                                 0.0, static_cast<double>(positions - 1)));
        const std::int64_t a_w = pe.w0 + position / column;
        double vectors = all_vectors;
        if (conv.w.b_scale < 0) {  // the coordinate a_scale·a + b_scale·b + offset falls with b
            const std::int64_t last_kept =
                floor_div(conv.w.a_scale * a_w + conv.w.offset, -conv.w.b_scale);
            const std::int64_t kept = std::clamp<std::int64_t>(last_kept + 1, 0, conv.w.b_extent);
            if (kept < conv.w.b_extent)
                vectors = std::min(
                    all_vectors,
                    vectors_of(per_width * static_cast<double>(kept), config.filter_vector) + 1.0);
        }
        out.cycles += vectors;
        out.issued += in_vector * std::min(stream, f * vectors);
    }
    return out;
}

// Buffers pe_figures reuses from one PE to the next.
struct PeScratch {
    std::vector<std::pair<std::int64_t, std::int64_t>> spans;
    std::vector<Point> vector;
};

// One PE's figures per (sample, channel) step, dense where not scaled by a density.
struct PeFigures {
    std::int64_t positions = 0;  // of its part of the A plane
    std::int64_t stream = 0;     // entries of its B stream
    double pairs = 0;            // positions × stream
    double used_pairs = 0;
    double input_vectors = 0;     // at the input density (Alg. 3 lines 7-10)
    double filter_vectors = 0;    // at the filter density
    PredictedWork predicted;      // with the predictor (config.predictor)
    std::int64_t all_unused = 0;  // Table 6.1's all-unused cycles
};

// Precondition: the PE has positions and filters.
PeFigures pe_figures(const CartesianConv& conv, const PeWork& pe, const CartesianConfig& config,
                     PeScratch& scratch) {
    PeFigures f;
    f.positions = (pe.h1 - pe.h0) * (pe.w1 - pe.w0);
    f.stream = pe.filters * conv.h.b_extent * conv.w.b_extent;
    f.pairs = static_cast<double>(f.positions) * static_cast<double>(f.stream);
    // Separable: a pair is used iff it is used on both axes (SCNN §III coordinates).
    f.used_pairs = static_cast<double>(conv.h.used_pairs(pe.h0, pe.h1, config.rule)) *
                   static_cast<double>(conv.w.used_pairs(pe.w0, pe.w1, config.rule)) *
                   static_cast<double>(pe.filters);
    // Alg. 3 lines 7-10: ⌈nnz(tile)/I⌉ input vectors, each against ⌈nnz(B stream)/F⌉
    // filter vectors, per (sample, channel).
    f.input_vectors =
        vectors_of(config.input_density * static_cast<double>(f.positions), config.input_vector);
    f.filter_vectors =
        vectors_of(config.filter_density * static_cast<double>(f.stream), config.filter_vector);
    if (config.predictor) f.predicted = predicted_pe_work(conv, pe, config);
    // Table 6.1: dense input vectors of I consecutive row-major positions.
    const std::int64_t row = pe.w1 - pe.w0;
    for (std::int64_t first = 0; first < f.positions; first += config.input_vector) {
        scratch.vector.clear();
        for (std::int64_t i = first; i < std::min(f.positions, first + config.input_vector); ++i)
            scratch.vector.push_back({pe.h0 + i / row, pe.w0 + i % row});
        f.all_unused += all_unused_chunks(conv, pe.filters, scratch.vector, config.filter_vector,
                                          config.rule, scratch.spans);
    }
    return f;
}

}  // namespace

bool CartesianAxis::used(std::int64_t a, std::int64_t b, UnusedRule rule) const {
    const std::int64_t n = a_scale * a + b_scale * b + offset;
    if (n < 0 || n % divisor != 0) return false;
    return rule == UnusedRule::negative_only || n / divisor < out_extent;
}

std::vector<std::int64_t> CartesianAxis::used_partners(std::int64_t a, UnusedRule rule) const {
    const Partners p = partners_of(*this, a, rule);
    std::vector<std::int64_t> out;
    for (std::int64_t i = 0; i < p.count; ++i) out.push_back(p.first + i * p.step);
    return out;
}

std::int64_t CartesianAxis::used_pairs(std::int64_t a_begin, std::int64_t a_end,
                                       UnusedRule rule) const {
    std::int64_t total = 0;
    for (std::int64_t a = a_begin; a < a_end; ++a) total += partners_of(*this, a, rule).count;
    return total;
}

CartesianOperands cartesian_operands(Phase phase) {
    switch (phase) {
        case Phase::fw:
            return {DataSpace::inputs, DataSpace::weights};
        case Phase::bw:
            return {DataSpace::outputs, DataSpace::weights};
        case Phase::wu:
            return {DataSpace::inputs, DataSpace::outputs};
    }
    return {};
}

double cartesian_density(double density) { return std::max(density, 1e-9); }

CartesianConv cartesian_conv_of(const Layer& layer, const TensorShape& input,
                                const TensorShape& output, std::int64_t batch, Phase phase) {
    if (const auto* linear = std::get_if<LinearAttributes>(&layer.attributes)) {
        // Assumed (SCNN §III and the thesis's ch. 6 describe the dataflow for convolutions
        // only): a fully connected layer is a 1 × 1 convolution of a 1 × 1 plane whose
        // channels are the flattened input; a matmul, which applies its matrix at every
        // position, a 1 × 1 convolution of its own plane.
        ConvAttributes as_conv;
        as_conv.out_channels = linear->out_features;
        as_conv.kernel = {1, 1};
        as_conv.groups = linear->groups;
        Layer one_by_one = layer;
        one_by_one.attributes = as_conv;
        if (layer.type == LayerType::matmul)
            return cartesian_conv_of(one_by_one, input, output, batch, phase);
        const TensorShape flat_input{input.channels * input.height * input.width, 1, 1};
        const TensorShape flat_output{linear->out_features, 1, 1};
        return cartesian_conv_of(one_by_one, flat_input, flat_output, batch, phase);
    }
    const auto* conv = std::get_if<ConvAttributes>(&layer.attributes);
    if (conv == nullptr)
        throw std::invalid_argument(
            fmt::format("layer '{}' is neither a conv, an fc nor a matmul layer: the "
                        "Cartesian-product evaluator models convolutions (and fully connected "
                        "and matmul layers as 1 × 1 "
                        "convolutions) only",
                        layer.name));
    const std::int64_t groups = conv->groups;
    const auto axis = [&](std::int64_t in, std::int64_t out, std::int64_t kernel,
                          std::int64_t stride, std::int64_t pad, std::int64_t dilation) {
        switch (phase) {
            case Phase::fw:  // SCNN §III: output (h + pad − d·r) / u, kept when divisible
                return CartesianAxis{in, kernel, out, 1, -dilation, pad, stride};
            case Phase::bw:  // thesis Fig. 6.1b: dx at u·p + d·r − pad
                return CartesianAxis{out, kernel, in, stride, dilation, -pad, 1};
            case Phase::wu:  // thesis Fig. 6.1c: dw at (h + pad − u·p) / d
                return CartesianAxis{in, out, kernel, 1, -stride, pad, dilation};
        }
        return CartesianAxis{};
    };
    CartesianConv result;
    result.samples = batch;
    result.h = axis(input.height, output.height, conv->kernel.h, conv->stride.h, conv->padding.h,
                    conv->dilation.h);
    result.w = axis(input.width, output.width, conv->kernel.w, conv->stride.w, conv->padding.w,
                    conv->dilation.w);
    switch (phase) {
        case Phase::fw:
            result.repetitions = batch * input.channels;
            result.filters = output.channels / groups;
            break;
        case Phase::bw:
            result.repetitions = batch * output.channels;
            result.filters = input.channels / groups;
            break;
        case Phase::wu:
            result.repetitions = input.channels * batch;
            result.filters = output.channels / groups;
            break;
    }
    return result;
}

// The bank-conflict model takes every array the limits admit.
static_assert(kMaxCartesianProducts <= kMaxBankBalls && kMaxCartesianCount <= kMaxBanks);

std::string cartesian_config_problem(const CartesianConfig& c) {
    const auto count = [](std::int64_t v, std::int64_t max, const char* what) -> std::string {
        if (v < 1 || v > max)
            return fmt::format("{} must be between 1 and {}, got {}", what, max, v);
        return {};
    };
    for (const std::string& p :
         {count(c.tiles_h, kMaxCartesianCount, "the PE grid's height"),
          count(c.tiles_w, kMaxCartesianCount, "the PE grid's width"),
          count(c.sample_tiles, kMaxCartesianCount, "the number of sample tiles"),
          count(c.filter_groups, kMaxCartesianCount, "the number of filter groups"),
          count(c.filter_vector, kMaxCartesianVector, "the filter vector width F"),
          count(c.input_vector, kMaxCartesianVector, "the input vector width I"),
          count(c.accumulator_banks, kMaxCartesianCount, "the number of accumulator banks")}) {
        if (!p.empty()) return p;
    }
    if (c.filter_vector * c.input_vector > kMaxCartesianProducts)
        return fmt::format("F × I must be at most {} products per cycle, got {}",
                           kMaxCartesianProducts, c.filter_vector * c.input_vector);
    for (const auto& [d, what] : {std::pair{c.input_density, "the input density"},
                                  std::pair{c.filter_density, "the filter density"}}) {
        if (!(d > 0.0 && d <= 1.0)) return fmt::format("{} must be in (0, 1], got {}", what, d);
    }
    return {};
}

double conflict_stall_per_cycle(const CartesianConfig& config) {
    if (config.bank_stalls == CartesianBankStalls::none) return 0.0;  // SCNN §IV: queued
    return expected_max_occupancy(config.filter_vector * config.input_vector,
                                  config.accumulator_banks) -
           1.0;
}

CartesianCost evaluate_cartesian(const CartesianConv& conv, const CartesianConfig& config) {
    CartesianCost cost;
    const double density = config.input_density * config.filter_density;
    const double reps = static_cast<double>(conv.repetitions);
    std::vector<PeWork> work;
    // EP §5.2: each filter group runs ⌈filters / groups⌉ of the filters (the last fewer
    // or none) on the same samples; within a group, the tiling below.
    const std::int64_t group_share = ceil_div(conv.filters, config.filter_groups);
    for (std::int64_t g = 0; g < config.filter_groups; ++g) {
        const std::int64_t filters =
            std::clamp<std::int64_t>(conv.filters - g * group_share, 0, group_share);
        if (config.tiling == CartesianTiling::planar) {  // SCNN §IV: a tile each, every filter
            for (std::int64_t th = 0; th < config.tiles_h; ++th)
                for (std::int64_t tw = 0; tw < config.tiles_w; ++tw) {
                    const auto [h0, h1] = tile_range(conv.h.a_extent, config.tiles_h, th);
                    const auto [w0, w1] = tile_range(conv.w.a_extent, config.tiles_w, tw);
                    work.push_back({h0, h1, w0, w1, filters});
                }
        } else {  // thesis §6.4, Alg. 4: the whole plane each, Ks = ⌈filters / PEs⌉ filters
            const std::int64_t pes = config.tiles_h * config.tiles_w;
            const std::int64_t share = ceil_div(filters, pes);
            for (std::int64_t pe = 0; pe < pes; ++pe)
                work.push_back({0, conv.h.a_extent, 0, conv.w.a_extent,
                                std::clamp<std::int64_t>(filters - pe * share, 0, share)});
        }
    }
    PeScratch scratch;
    // The slowest PE's product cycles per (sample, channel) step, without the
    // predictor (expected counts), and the shares each busy PE holds.
    double slowest_step = 0;
    std::vector<std::int64_t> tile_positions;
    std::vector<std::int64_t> filter_streams;
    // Split filters give most PEs the same work, and filter groups repeat a group's tiles:
    // each distinct PE's figures are computed once.
    std::map<PeWork, PeFigures> counted;
    for (const PeWork& pe : work) {
        if (pe.h1 == pe.h0 || pe.w1 == pe.w0 || pe.filters == 0) continue;
        auto known = counted.find(pe);
        if (known == counted.end())
            known = counted.emplace(pe, pe_figures(conv, pe, config, scratch)).first;
        const PeFigures& f = known->second;
        ++cost.busy_pes;
        cost.used_products += reps * density * f.used_pairs;
        double pe_cycles = reps * f.input_vectors * f.filter_vectors;
        slowest_step = std::max(slowest_step, f.input_vectors * f.filter_vectors);
        cost.tiled_operand_reads += reps * config.input_density * static_cast<double>(f.positions);
        tile_positions.push_back(f.positions);
        filter_streams.push_back(f.stream);
        if (config.predictor) {  // thesis §6.5: the predictor skips the stream's tail
            cost.skipped_product_cycles += pe_cycles - reps * f.predicted.cycles;
            pe_cycles = reps * f.predicted.cycles;
            cost.issued_products += reps * f.predicted.issued;
        } else {
            cost.issued_products += reps * density * f.pairs;
        }
        cost.product_cycles += pe_cycles;
        cost.slowest_pe_product_cycles = std::max(cost.slowest_pe_product_cycles, pe_cycles);
        cost.all_unused_cycles += reps * static_cast<double>(f.all_unused);
        cost.dense_product_cycles +=
            reps * static_cast<double>(ceil_div(f.positions, config.input_vector)) *
            static_cast<double>(ceil_div(f.stream, config.filter_vector));
    }
    cost.broadcast_operand_reads = cost.product_cycles * static_cast<double>(config.filter_vector);
    cost.unused_products = cost.issued_products - cost.used_products;
    cost.unused_pct =
        cost.issued_products > 0 ? 100.0 * cost.unused_products / cost.issued_products : 0.0;
    cost.all_unused_pct = cost.dense_product_cycles > 0
                              ? 100.0 * cost.all_unused_cycles / cost.dense_product_cycles
                              : 0.0;
    cost.conflict_stall_per_cycle = conflict_stall_per_cycle(config);
    if (config.zeros == CartesianZeros::random && slowest_step > 0) {
        // The operand every PE shares, and the one they split (header: "Random zeros").
        const bool planar = config.tiling == CartesianTiling::planar;
        const std::int64_t shared = planar ? filter_streams.front() : tile_positions.front();
        const double shared_vectors = expected_max_vectors(
            std::span(&shared, 1), planar ? config.filter_density : config.input_density,
            planar ? config.filter_vector : config.input_vector);
        const double slowest_own =
            planar
                ? expected_max_vectors(tile_positions, config.input_density, config.input_vector)
                : expected_max_vectors(filter_streams, config.filter_density, config.filter_vector);
        cost.slowest_pe_product_cycles *= shared_vectors * slowest_own / slowest_step;
    }
    // Thesis §6.5: T tiles take different samples; the slowest PE runs ⌈N/T⌉ of the N.
    const std::int64_t samples = std::max<std::int64_t>(conv.samples, 1);
    cost.slowest_pe_product_cycles *=
        static_cast<double>(ceil_div(samples, config.sample_tiles)) / static_cast<double>(samples);
    cost.busy_pes *= std::min(samples, config.sample_tiles);
    cost.slowest_pe_cycles = (1.0 + cost.conflict_stall_per_cycle) * cost.slowest_pe_product_cycles;
    return cost;
}

}  // namespace trainloop
