// The Cartesian-product evaluator (cartesian/cartesian_product.hpp) against a
// brute force that knows nothing of its axis formulas: the used pairs are
// the MACs of the convolution's own loop nest (every fw MAC x[h]·w[r] ->
// y[p] is also the bw product dy[p]·w[r] -> dx[h] and the wu product
// x[h]·dy[p] -> dw[r]), and every input vector × filter vector of the
// stream is checked against them. Also the bank-conflict model and the
// configuration checks.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cartesian/bank_conflicts.hpp"
#include "cartesian/cartesian_product.hpp"

namespace trainloop {
namespace {

struct SmallConv {
    std::int64_t c = 2, k = 4, h = 7, w = 6, r = 3, s = 2, stride = 1, pad = 1, dilation = 1;
    std::int64_t groups = 1, batch = 2;

    std::int64_t out(std::int64_t in, std::int64_t kernel) const {
        return (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
    }
    Layer layer() const {
        ConvAttributes a;
        a.out_channels = k;
        a.kernel = {r, s};
        a.stride = {stride, stride};
        a.padding = {pad, pad};
        a.dilation = {dilation, dilation};
        a.groups = groups;
        return Layer{"conv", LayerType::conv, {"in"}, a, {}, {}};
    }
    TensorShape input() const { return {c, h, w}; }
    TensorShape output() const { return {k, out(h, r), out(w, s)}; }
};

// One used pair: A position (ah, aw) with B position (bh, bw).
using Pair = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

// The used pairs of `phase`, from the forward loop nest over outputs and taps.
std::set<Pair> used_pairs_from_loop_nest(const SmallConv& cv, Phase phase) {
    std::set<Pair> pairs;
    const TensorShape o = cv.output();
    for (std::int64_t p = 0; p < o.height; ++p)
        for (std::int64_t q = 0; q < o.width; ++q)
            for (std::int64_t r = 0; r < cv.r; ++r)
                for (std::int64_t s = 0; s < cv.s; ++s) {
                    const std::int64_t h = p * cv.stride + r * cv.dilation - cv.pad;
                    const std::int64_t w = q * cv.stride + s * cv.dilation - cv.pad;
                    if (h < 0 || h >= cv.h || w < 0 || w >= cv.w) continue;  // padding
                    switch (phase) {
                        case Phase::fw:
                            pairs.insert({h, w, r, s});
                            break;
                        case Phase::bw:
                            pairs.insert({p, q, r, s});
                            break;
                        case Phase::wu:
                            pairs.insert({h, w, p, q});
                            break;
                    }
                }
    return pairs;
}

struct BruteForce {
    double issued = 0, used = 0, all_unused_cycles = 0, cycles = 0;
};

BruteForce brute_force(const SmallConv& cv, Phase phase, const CartesianConfig& config) {
    const CartesianConv conv =
        cartesian_conv_of(cv.layer(), cv.input(), cv.output(), cv.batch, phase);
    std::set<Pair> used = used_pairs_from_loop_nest(cv, phase);
    if (config.rule == UnusedRule::negative_only) {  // no loop nest for this rule: the axis test
        used.clear();
        for (std::int64_t ah = 0; ah < conv.h.a_extent; ++ah)
            for (std::int64_t aw = 0; aw < conv.w.a_extent; ++aw)
                for (std::int64_t bh = 0; bh < conv.h.b_extent; ++bh)
                    for (std::int64_t bw = 0; bw < conv.w.b_extent; ++bw)
                        if (conv.h.used(ah, bh, config.rule) && conv.w.used(aw, bw, config.rule))
                            used.insert({ah, aw, bh, bw});
    }
    const std::int64_t ah = conv.h.a_extent, aw = conv.w.a_extent;
    const std::int64_t bh = conv.h.b_extent, bw = conv.w.b_extent;
    // Each PE's part of the A plane (row-major) and its number of filters.
    using Points = std::vector<std::pair<std::int64_t, std::int64_t>>;
    std::vector<std::pair<Points, std::int64_t>> pes;
    const std::int64_t th_size = (ah + config.tiles_h - 1) / config.tiles_h;
    const std::int64_t tw_size = (aw + config.tiles_w - 1) / config.tiles_w;
    Points whole;
    for (std::int64_t h = 0; h < ah; ++h)
        for (std::int64_t w = 0; w < aw; ++w) whole.emplace_back(h, w);
    const std::int64_t count = config.tiles_h * config.tiles_w;
    const std::int64_t share = (conv.filters + count - 1) / count;
    for (std::int64_t th = 0; th < config.tiles_h; ++th)
        for (std::int64_t tw = 0; tw < config.tiles_w; ++tw) {
            if (config.tiling == CartesianTiling::split_filters) {
                std::int64_t mine = 0;  // filters dealt in blocks of `share`
                for (std::int64_t f = 0; f < conv.filters; ++f)
                    mine += f / share == th * config.tiles_w + tw;
                pes.emplace_back(whole, mine);
                continue;
            }
            Points tile;
            for (std::int64_t h = th * th_size; h < std::min(ah, (th + 1) * th_size); ++h)
                for (std::int64_t w = tw * tw_size; w < std::min(aw, (tw + 1) * tw_size); ++w)
                    tile.emplace_back(h, w);
            pes.emplace_back(tile, conv.filters);
        }
    BruteForce out;
    for (const auto& [tile, filters] : pes) {
        // The B stream: position-major, filter fastest (Alg. 5); only positions matter.
        Points stream;
        for (std::int64_t i = 0; i < bh; ++i)
            for (std::int64_t j = 0; j < bw; ++j)
                for (std::int64_t f = 0; f < filters; ++f) stream.emplace_back(i, j);
        for (const auto& [h, w] : tile)
            for (const auto& [i, j] : stream) {
                out.issued += 1;
                out.used += used.count({h, w, i, j});
            }
        for (std::size_t a = 0; a < tile.size(); a += config.input_vector)
            for (std::size_t b = 0; b < stream.size(); b += config.filter_vector) {
                bool any = false;
                for (std::size_t x = a; x < std::min(tile.size(), a + config.input_vector); ++x)
                    for (std::size_t y = b; y < std::min(stream.size(), b + config.filter_vector);
                         ++y)
                        any = any || used.count({tile[x].first, tile[x].second, stream[y].first,
                                                 stream[y].second}) > 0;
                out.cycles += 1;
                out.all_unused_cycles += any ? 0 : 1;
            }
    }
    const double reps = static_cast<double>(conv.repetitions);
    out.issued *= reps;
    out.used *= reps;
    out.cycles *= reps;
    out.all_unused_cycles *= reps;
    return out;
}

void expect_agrees(const SmallConv& cv, const CartesianConfig& config) {
    for (Phase phase : kAllPhases) {
        SCOPED_TRACE(::testing::Message()
                     << phase_name(phase) << " H=" << cv.h << " W=" << cv.w << " R=" << cv.r
                     << " S=" << cv.s << " u=" << cv.stride << " pad=" << cv.pad
                     << " d=" << cv.dilation << " G=" << cv.groups << " tiles=" << config.tiles_h
                     << "x" << config.tiles_w << " F=" << config.filter_vector
                     << " I=" << config.input_vector << " rule=" << int(config.rule)
                     << " tiling=" << int(config.tiling));
        const BruteForce b = brute_force(cv, phase, config);
        const CartesianConv conv =
            cartesian_conv_of(cv.layer(), cv.input(), cv.output(), cv.batch, phase);
        const CartesianCost c = evaluate_cartesian(conv, config);
        EXPECT_EQ(c.issued_products, b.issued);
        EXPECT_EQ(c.used_products, b.used);
        EXPECT_EQ(c.unused_products, b.issued - b.used);
        EXPECT_EQ(c.dense_product_cycles, b.cycles);
        EXPECT_EQ(c.product_cycles, b.cycles) << "dense: the expected cycles are the counted ones";
        EXPECT_EQ(c.all_unused_cycles, b.all_unused_cycles);
    }
}

TEST(CartesianProduct, AgreesExactlyWithBruteForceOnAPlainConv) {
    expect_agrees(SmallConv{}, CartesianConfig{2, 2, 4, 4, 32});
}

// A random small layer (groups, strides, dilation, padding, kernels up to 4 × 4
// over planes up to 11 × 11) and a configuration of up to `max_tiles` PEs a side.
struct RandomCase {
    SmallConv cv;
    CartesianConfig config;
};

RandomCase random_case(std::mt19937& rng, std::int64_t max_tiles) {
    const auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    RandomCase c;
    SmallConv& cv = c.cv;
    cv.groups = pick(1, 2);
    cv.c = cv.groups * pick(1, 2);
    cv.k = cv.groups * pick(1, 5);
    cv.r = pick(1, 4);
    cv.s = pick(1, 4);
    cv.stride = pick(1, 3);
    cv.dilation = pick(1, 2);
    cv.pad = pick(0, 2);
    cv.h = pick(cv.dilation * (cv.r - 1) + 1, 11);
    cv.w = pick(cv.dilation * (cv.s - 1) + 1, 11);
    cv.batch = pick(1, 2);
    c.config.tiles_h = pick(1, max_tiles);
    c.config.tiles_w = pick(1, max_tiles);
    c.config.filter_vector = pick(1, 5);
    c.config.input_vector = pick(1, 5);
    return c;
}

TEST(CartesianProduct, AgreesExactlyWithBruteForceOnRandomSmallLayers) {
    std::mt19937 rng(17);
    for (int trial = 0; trial < 60; ++trial) {
        auto [cv, config] = random_case(rng, 4);
        expect_agrees(cv, config);
        config.rule = UnusedRule::negative_only;
        expect_agrees(cv, config);
        config.rule = UnusedRule::outside_output;
        config.tiling = CartesianTiling::split_filters;
        expect_agrees(cv, config);
    }
}

// GSCN's predictor (thesis §6.5), simulated on dense operands: each PE's
// inputs width-major (W → H), the filter stream width outermost (Alg. 5:
// R → S → K); per input vector the filter vectors are multiplied in order up
// to and including the first whose products all have a negative output
// width coordinate (the prediction acts a cycle late). The coordinate comes
// from the convolution's definition, not from the evaluator's axes: fw
// u·q = w + pad − d·s, bw w = u·q + d·s − pad, wu d·s = w + pad − u·q. In bw
// the coordinate grows along the stream, so nothing is skipped.
struct Simulated {
    double cycles = 0, issued = 0;
};

Simulated simulate_predictor(const SmallConv& cv, Phase phase, const CartesianConfig& config) {
    const CartesianConv conv =
        cartesian_conv_of(cv.layer(), cv.input(), cv.output(), cv.batch, phase);
    const TensorShape o = cv.output();
    // A and B extents (height, width) of the phase: fw x and the kernel, bw dy and the
    // kernel, wu x and dy.
    const std::int64_t ah = phase == Phase::bw ? o.height : cv.h;
    const std::int64_t aw = phase == Phase::bw ? o.width : cv.w;
    const std::int64_t bh = phase == Phase::wu ? o.height : cv.r;
    const std::int64_t bw = phase == Phase::wu ? o.width : cv.s;
    const auto width_coordinate = [&](std::int64_t a, std::int64_t b) {
        switch (phase) {
            case Phase::fw:
                return a + cv.pad - cv.dilation * b;
            case Phase::bw:
                return cv.stride * a + cv.dilation * b - cv.pad;
            case Phase::wu:
                return a + cv.pad - cv.stride * b;
        }
        return std::int64_t{0};
    };
    const std::int64_t th_size = (ah + config.tiles_h - 1) / config.tiles_h;
    const std::int64_t tw_size = (aw + config.tiles_w - 1) / config.tiles_w;
    const std::int64_t count = config.tiles_h * config.tiles_w;
    const std::int64_t share = (conv.filters + count - 1) / count;
    Simulated out;
    for (std::int64_t th = 0; th < config.tiles_h; ++th)
        for (std::int64_t tw = 0; tw < config.tiles_w; ++tw) {
            std::vector<std::int64_t> widths;  // the tile's positions, width-major: only w matters
            std::int64_t filters = conv.filters;
            if (config.tiling == CartesianTiling::split_filters) {
                for (std::int64_t w = 0; w < aw; ++w)
                    for (std::int64_t h = 0; h < ah; ++h) widths.push_back(w);
                filters = 0;
                for (std::int64_t f = 0; f < conv.filters; ++f)
                    filters += f / share == th * config.tiles_w + tw;
            } else {
                for (std::int64_t w = tw * tw_size; w < std::min(aw, (tw + 1) * tw_size); ++w)
                    for (std::int64_t h = th * th_size; h < std::min(ah, (th + 1) * th_size); ++h)
                        widths.push_back(w);
            }
            std::vector<std::int64_t> stream;  // b_w of each entry: width outermost, then h, k
            for (std::int64_t w = 0; w < bw; ++w)
                for (std::int64_t i = 0; i < bh * filters; ++i) stream.push_back(w);
            for (std::size_t a = 0; a < widths.size(); a += config.input_vector) {
                const std::size_t a_end = std::min(widths.size(), a + config.input_vector);
                for (std::size_t b = 0; b < stream.size(); b += config.filter_vector) {
                    const std::size_t b_end = std::min(stream.size(), b + config.filter_vector);
                    out.cycles += 1;
                    out.issued += static_cast<double>((a_end - a) * (b_end - b));
                    bool all_negative = phase != Phase::bw;
                    for (std::size_t x = a; x < a_end; ++x)
                        for (std::size_t y = b; y < b_end; ++y)
                            all_negative =
                                all_negative && width_coordinate(widths[x], stream[y]) < 0;
                    if (all_negative) break;
                }
            }
        }
    const double reps = static_cast<double>(conv.repetitions);
    out.cycles *= reps;
    out.issued *= reps;
    return out;
}

TEST(CartesianProduct, PredictorAgreesExactlyWithASimulationOnRandomSmallLayers) {
    std::mt19937 rng(29);
    int skipped_somewhere = 0;
    for (int trial = 0; trial < 80; ++trial) {
        auto [cv, config] = random_case(rng, 3);
        config.predictor = true;
        for (CartesianTiling tiling : {CartesianTiling::planar, CartesianTiling::split_filters}) {
            config.tiling = tiling;
            for (Phase phase : kAllPhases) {
                SCOPED_TRACE(::testing::Message() << "trial " << trial << " " << phase_name(phase)
                                                  << " tiling=" << int(tiling));
                const Simulated sim = simulate_predictor(cv, phase, config);
                const CartesianCost c = evaluate_cartesian(
                    cartesian_conv_of(cv.layer(), cv.input(), cv.output(), cv.batch, phase),
                    config);
                EXPECT_EQ(c.product_cycles, sim.cycles);
                EXPECT_EQ(c.issued_products, sim.issued);
                EXPECT_EQ(c.skipped_product_cycles, c.dense_product_cycles - sim.cycles);
                EXPECT_GE(c.issued_products, c.used_products)
                    << "the predictor skips no used product";
                if (phase == Phase::bw) {
                    EXPECT_EQ(c.skipped_product_cycles, 0.0);
                }
                skipped_somewhere += c.skipped_product_cycles > 0;
            }
        }
    }
    EXPECT_GT(skipped_somewhere, 40) << "the trials exercise the skipping";
}

TEST(CartesianProduct, PredictorHalvesTheWeightGradientConvolution) {
    // Thesis §6.5: "about 60% of products are not useful in the gradients of
    // weight convolution, ideally, we would get about 2× speedups", and §7.5.4
    // (Fig. 7.4): the predictor made it "about 2× faster". For an input at
    // width w the stream runs only to dy's width w + pad: w + pad + 1 of W
    // columns, (W − 1)/2 + pad + 1 on average, less than a cycle more per
    // input vector for the late prediction.
    SmallConv cv;
    cv.c = 4;
    cv.k = 64;
    cv.h = cv.w = 28;
    cv.r = cv.s = 3;
    cv.pad = 1;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, Phase::wu);
    CartesianConfig config{8, 8, 4, 4, 32};
    config.tiling = CartesianTiling::split_filters;
    const CartesianCost without = evaluate_cartesian(conv, config);
    config.predictor = true;
    const CartesianCost with = evaluate_cartesian(conv, config);
    EXPECT_EQ(without.skipped_product_cycles, 0.0);
    const double kept = (28.0 - 1.0) / 2.0 + 1.0 + 1.0;  // columns of 28, on average
    const double speedup = without.slowest_pe_cycles / with.slowest_pe_cycles;
    EXPECT_NEAR(speedup, 28.0 / kept, 0.02);
    EXPECT_LT(speedup, 28.0 / kept);
    EXPECT_EQ(with.used_products, without.used_products);
    EXPECT_NEAR(with.issued_products / without.issued_products, kept / 28.0, 0.01);
}

TEST(CartesianProduct, PredictorWithSparseOperandsReducesToTheDenseCountAtDensityOne) {
    SmallConv cv;
    cv.c = 2;
    cv.k = 16;
    cv.h = cv.w = 12;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, Phase::wu);
    CartesianConfig config{2, 2, 4, 4, 32};
    config.predictor = true;
    const CartesianCost dense = evaluate_cartesian(conv, config);
    double previous = dense.product_cycles;
    for (double d : {0.8, 0.5, 0.2, 0.1}) {
        config.filter_density = d;  // the output gradient (ReSprop's SpHG in wu)
        const CartesianCost sparse = evaluate_cartesian(conv, config);
        EXPECT_LT(sparse.product_cycles, previous) << d;
        // Each input vector still pays the delayed cycle and a partial vector.
        EXPECT_GT(sparse.product_cycles, d * dense.product_cycles) << d;
        previous = sparse.product_cycles;
    }
    config.filter_density = 1.0;
    config.input_density = 0.25;
    const CartesianCost sparse_input = evaluate_cartesian(conv, config);
    EXPECT_LT(sparse_input.product_cycles, dense.product_cycles);
    EXPECT_LE(sparse_input.used_products, 0.25 * dense.used_products + 1e-9);
    // Vanishing densities (the CLI passes 1e-9 for a tensor known to be all zero): a part of
    // an input vector costs its cycles, nothing costs none, with or without the predictor.
    for (double d : {1e-9, 1e-300}) {
        config.input_density = d;
        const CartesianCost with = evaluate_cartesian(conv, config);
        config.predictor = false;
        const CartesianCost without = evaluate_cartesian(conv, config);
        config.predictor = true;
        EXPECT_LE(with.product_cycles, without.product_cycles) << d;
        EXPECT_GE(with.product_cycles, 0.0) << d;
        EXPECT_LE(with.issued_products, without.issued_products * (1 + 1e-12)) << d;
    }
}

TEST(CartesianProduct, ForwardConvolutionsWithSmallFiltersWasteLittleAndWeightGradientsMuch) {
    // Thesis §6.3.1 (Figs. 6.4, 6.5): a small filter over a large input
    // yields mostly used products; two operands of about the same size not.
    SmallConv cv;
    cv.c = 1;
    cv.k = 4;
    cv.h = cv.w = 14;
    cv.r = cv.s = 3;
    cv.pad = 1;
    const CartesianConfig config{1, 1, 4, 4, 32};
    const auto cost = [&](Phase p) {
        return evaluate_cartesian(cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, p),
                                  config);
    };
    EXPECT_LT(cost(Phase::fw).unused_pct, 20.0);
    EXPECT_GT(cost(Phase::wu).unused_pct, 90.0);
    EXPECT_GT(cost(Phase::wu).all_unused_pct, cost(Phase::fw).all_unused_pct);
}

TEST(CartesianProduct, DensityScalesProductsButNotTheUnusedShare) {
    SmallConv cv;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 2, Phase::wu);
    CartesianConfig dense{2, 2, 4, 4, 32};
    CartesianConfig sparse = dense;
    sparse.input_density = 0.5;
    sparse.filter_density = 0.25;
    const CartesianCost d = evaluate_cartesian(conv, dense);
    const CartesianCost s = evaluate_cartesian(conv, sparse);
    EXPECT_DOUBLE_EQ(s.issued_products, d.issued_products * 0.125);
    EXPECT_DOUBLE_EQ(s.used_products, d.used_products * 0.125);
    EXPECT_DOUBLE_EQ(s.unused_pct, d.unused_pct);
    EXPECT_LT(s.product_cycles, d.product_cycles);
    EXPECT_EQ(s.all_unused_cycles, d.all_unused_cycles) << "the Table 6.1 count is the dense one";
}

TEST(CartesianProduct, NegativeOnlyCountsFewerUnusedProducts) {
    SmallConv cv;
    cv.h = cv.w = 10;
    for (Phase p : kAllPhases) {
        const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, p);
        CartesianConfig config{2, 2, 4, 4, 32};
        const double strict = evaluate_cartesian(conv, config).unused_products;
        config.rule = UnusedRule::negative_only;
        const double loose = evaluate_cartesian(conv, config).unused_products;
        EXPECT_LE(loose, strict) << phase_name(p);
        // Brute force of the rule on the axis itself.
        for (const CartesianAxis* axis : {&conv.h, &conv.w})
            for (std::int64_t a = 0; a < axis->a_extent; ++a) {
                std::int64_t n = 0;
                for (std::int64_t b = 0; b < axis->b_extent; ++b)
                    n += axis->used(a, b, UnusedRule::negative_only);
                EXPECT_EQ(axis->used_pairs(a, a + 1, UnusedRule::negative_only), n);
                EXPECT_EQ(static_cast<std::int64_t>(
                              axis->used_partners(a, UnusedRule::negative_only).size()),
                          n);
            }
    }
}

TEST(CartesianProduct, TilesPastThePlaneAreIdle) {
    SmallConv cv;
    cv.h = cv.w = 3;
    cv.r = cv.s = 1;
    cv.pad = 0;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, Phase::fw);
    const CartesianCost c = evaluate_cartesian(conv, CartesianConfig{8, 8, 4, 4, 32});
    EXPECT_EQ(c.busy_pes, 9) << "a 3 × 3 plane over 8 × 8 PEs keeps 9 busy (thesis §6.3.1)";
    EXPECT_EQ(c.unused_products, 0.0);
}

TEST(CartesianProduct, SplitFiltersKeepsPesBusyOnSmallPlanes) {
    // Thesis §6.3.1 and §6.4: a 4 × 4 plane over 64 PEs leaves most of them
    // idle under SCNN's planar tiling; GSCN's split filters keep them busy.
    SmallConv cv;
    cv.h = cv.w = 4;
    cv.c = 2;
    cv.k = 64;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, Phase::fw);
    CartesianConfig scnn{8, 8, 4, 4, 32};
    CartesianConfig gscn = scnn;
    gscn.tiling = CartesianTiling::split_filters;
    const CartesianCost a = evaluate_cartesian(conv, scnn);
    const CartesianCost b = evaluate_cartesian(conv, gscn);
    EXPECT_EQ(a.busy_pes, 16);
    EXPECT_EQ(b.busy_pes, 64);
    EXPECT_EQ(a.used_products, b.used_products) << "the same convolution";
    EXPECT_LT(b.slowest_pe_cycles, a.slowest_pe_cycles);
}

TEST(CartesianProduct, SampleTilesShareTheMinibatch) {
    // Thesis §6.5 and Table 7.9: GSCN's tiles each take different samples, so
    // the slowest PE runs ⌈N/T⌉ of the N samples; what all PEs issue is the same.
    SmallConv cv;
    for (const Phase phase : {Phase::fw, Phase::bw, Phase::wu}) {
        const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 5, phase);
        EXPECT_EQ(conv.samples, 5);
        CartesianConfig one{2, 2, 4, 4, 32};
        one.predictor = phase != Phase::bw;
        const CartesianCost single = evaluate_cartesian(conv, one);
        for (const auto& [tiles, samples_on_slowest] :
             {std::pair{2, 3}, std::pair{4, 2}, std::pair{5, 1}, std::pair{9, 1}}) {
            CartesianConfig tiled = one;
            tiled.sample_tiles = tiles;
            const CartesianCost c = evaluate_cartesian(conv, tiled);
            EXPECT_DOUBLE_EQ(c.slowest_pe_cycles, single.slowest_pe_cycles * samples_on_slowest / 5)
                << phase_name(phase) << " on " << tiles << " tiles";
            EXPECT_EQ(c.busy_pes, single.busy_pes * std::min(tiles, 5));
            EXPECT_DOUBLE_EQ(c.issued_products, single.issued_products);
            EXPECT_DOUBLE_EQ(c.product_cycles, single.product_cycles);
            EXPECT_DOUBLE_EQ(c.all_unused_pct, single.all_unused_pct);
        }
    }
}

TEST(CartesianProduct, FilterGroupsEachRunTheirShareOfTheFilters) {
    // Eager Pruning §5.2's SCNN: groups of PEs take the same samples and their own
    // ⌈K/G⌉ filters, so the slowest PE is one of a layer with that many filters, and
    // what all PEs issue is what one group issues for all K.
    for (const Phase phase : {Phase::fw, Phase::bw, Phase::wu}) {
        for (const CartesianTiling tiling :
             {CartesianTiling::planar, CartesianTiling::split_filters}) {
            SmallConv cv;
            cv.c = 4;
            cv.k = 8;
            const CartesianConv conv =
                cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 2, phase);
            CartesianConfig one{2, 1, 2, 2, 8};
            one.tiling = tiling;
            const CartesianCost single = evaluate_cartesian(conv, one);
            for (const std::int64_t groups : {2, 3, 4, 16}) {
                const std::int64_t share = (conv.filters + groups - 1) / groups;
                CartesianConv group_share = conv;
                group_share.filters = share;
                CartesianConfig grouped = one;
                grouped.filter_groups = groups;
                const CartesianCost c = evaluate_cartesian(conv, grouped);
                const std::string what =
                    fmt::format("{} with {} groups, {} tiling", phase_name(phase), groups,
                                cartesian_tiling_name(tiling));
                EXPECT_DOUBLE_EQ(c.slowest_pe_cycles,
                                 evaluate_cartesian(group_share, one).slowest_pe_cycles)
                    << what;
                EXPECT_NEAR(c.used_products, single.used_products, 1e-9 * single.used_products)
                    << what;
                EXPECT_NEAR(c.issued_products, single.issued_products,
                            1e-9 * single.issued_products)
                    << what;
                // Groups past the last filter idle (4 filters in 3 groups: 2, 2 and none).
                const std::int64_t busy_groups = (conv.filters + share - 1) / share;
                if (tiling == CartesianTiling::planar) {
                    EXPECT_EQ(c.busy_pes, single.busy_pes * busy_groups) << what;
                }
            }
        }
    }
}

TEST(CartesianProduct, QueuedBanksStallNever) {
    // SCNN §IV's reading (CartesianBankStalls::none): the crossbar's queues absorb every
    // accumulator-bank conflict, so the slowest PE takes its product cycles.
    SmallConv cv;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 2, Phase::fw);
    CartesianConfig unbuffered{2, 2, 4, 4, 32};
    CartesianConfig queued = unbuffered;
    queued.bank_stalls = CartesianBankStalls::none;
    EXPECT_GT(conflict_stall_per_cycle(unbuffered), 0.0);
    EXPECT_EQ(conflict_stall_per_cycle(queued), 0.0);
    const CartesianCost a = evaluate_cartesian(conv, unbuffered);
    const CartesianCost b = evaluate_cartesian(conv, queued);
    EXPECT_DOUBLE_EQ(b.slowest_pe_cycles, b.slowest_pe_product_cycles);
    EXPECT_DOUBLE_EQ(a.slowest_pe_product_cycles, b.slowest_pe_product_cycles);
    EXPECT_DOUBLE_EQ(a.slowest_pe_cycles,
                     (1.0 + conflict_stall_per_cycle(unbuffered)) * b.slowest_pe_cycles);
}

// Random zeros (the header's "Random zeros"): a simulation that draws every element of
// x and w and counts each PE's nonzeros in its own share, against the evaluator.
double simulated_slowest_step(const SmallConv& cv, const CartesianConfig& config, int trials,
                              std::mt19937_64& rng) {
    // fw with one sample and one channel: A = x (h × w), B = w (k × r × s), one step.
    std::bernoulli_distribution input_nonzero(config.input_density);
    std::bernoulli_distribution filter_nonzero(config.filter_density);
    const auto vectors = [](std::int64_t nonzeros, std::int64_t width) {
        return (nonzeros + width - 1) / width;
    };
    const std::int64_t pes = config.tiles_h * config.tiles_w;
    double sum = 0;
    for (int t = 0; t < trials; ++t) {
        std::vector<std::vector<bool>> x(static_cast<std::size_t>(cv.h));
        for (auto& row : x)
            for (std::int64_t j = 0; j < cv.w; ++j) row.push_back(input_nonzero(rng));
        std::vector<bool> w;
        for (std::int64_t i = 0; i < cv.k * cv.r * cv.s; ++i) w.push_back(filter_nonzero(rng));
        std::int64_t slowest = 0;
        for (std::int64_t pe = 0; pe < pes; ++pe) {
            std::int64_t a = 0;
            std::int64_t b = 0;
            if (config.tiling == CartesianTiling::planar) {  // a tile each (exact division here)
                const std::int64_t th = cv.h / config.tiles_h;
                const std::int64_t tw = cv.w / config.tiles_w;
                const std::int64_t h0 = pe / config.tiles_w * th;
                const std::int64_t w0 = pe % config.tiles_w * tw;
                for (std::int64_t i = h0; i < h0 + th; ++i)
                    for (std::int64_t j = w0; j < w0 + tw; ++j) a += x[i][j];
                b = std::count(w.begin(), w.end(), true);
            } else {  // the whole plane each, k / pes filters each
                for (const auto& row : x) a += std::count(row.begin(), row.end(), true);
                const std::int64_t share = cv.k / pes * cv.r * cv.s;
                b = std::count(w.begin() + pe * share, w.begin() + (pe + 1) * share, true);
            }
            slowest = std::max(slowest,
                               vectors(a, config.input_vector) * vectors(b, config.filter_vector));
        }
        sum += static_cast<double>(slowest);
    }
    return sum / trials;
}

TEST(CartesianProduct, RandomZerosAgreeWithASimulationOfEachPesShare) {
    std::mt19937_64 rng(23);
    SmallConv cv;
    cv.c = 1;
    cv.batch = 1;
    cv.h = 8;
    cv.w = 6;
    cv.k = 8;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 1, Phase::fw);
    ASSERT_EQ(conv.repetitions, 1);
    for (const CartesianTiling tiling : {CartesianTiling::planar, CartesianTiling::split_filters})
        for (const auto& [input_density, filter_density] :
             {std::pair{0.3, 0.5}, std::pair{0.1, 0.9}, std::pair{0.7, 0.2}}) {
            CartesianConfig config{2, 2, 3, 4, 32};
            config.tiling = tiling;
            config.input_density = input_density;
            config.filter_density = filter_density;
            config.zeros = CartesianZeros::random;
            const double simulated = simulated_slowest_step(cv, config, 20000, rng);
            EXPECT_NEAR(evaluate_cartesian(conv, config).slowest_pe_product_cycles, simulated,
                        0.02 * simulated)
                << (tiling == CartesianTiling::planar ? "planar" : "split filters") << " at "
                << input_density << ", " << filter_density;
        }
}

TEST(CartesianProduct, RandomZerosChangeNothingForDenseOperands) {
    std::mt19937 rng(31);
    for (int i = 0; i < 40; ++i) {
        auto [cv, config] = random_case(rng, 3);
        config.tiling = i % 2 == 0 ? CartesianTiling::planar : CartesianTiling::split_filters;
        config.predictor = i % 3 == 0;
        for (const Phase phase : {Phase::fw, Phase::bw, Phase::wu}) {
            const CartesianConv conv =
                cartesian_conv_of(cv.layer(), cv.input(), cv.output(), cv.batch, phase);
            CartesianConfig random = config;
            random.zeros = CartesianZeros::random;
            EXPECT_DOUBLE_EQ(evaluate_cartesian(conv, random).slowest_pe_cycles,
                             evaluate_cartesian(conv, config).slowest_pe_cycles)
                << "case " << i << " " << phase_name(phase);
        }
    }
}

TEST(CartesianProduct, RandomZerosSlowTheSplitWeightGradientOfSparseErrors) {
    // ReSprop's weight gradient on GSCN: the PEs split dy (10 % dense) by filter, so the
    // PE that drew the most nonzeros sets each step; the totals do not move.
    SmallConv cv;
    cv.c = 4;
    cv.k = 64;
    cv.h = cv.w = 14;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 2, Phase::wu);
    CartesianConfig config{4, 4, 4, 4, 32};
    config.tiling = CartesianTiling::split_filters;
    config.filter_density = 0.1;
    CartesianConfig random = config;
    random.zeros = CartesianZeros::random;
    const CartesianCost e = evaluate_cartesian(conv, config);
    const CartesianCost r = evaluate_cartesian(conv, random);
    EXPECT_GT(r.slowest_pe_cycles, 1.1 * e.slowest_pe_cycles);
    EXPECT_DOUBLE_EQ(r.product_cycles, e.product_cycles);
    EXPECT_DOUBLE_EQ(r.issued_products, e.issued_products);
}

// An fc layer is a 1 × 1 convolution of a 1 × 1 plane whose channels are the
// flattened input: every product is used, and there are as many as MACs.
TEST(CartesianProduct, AFullyConnectedLayerIsAOneByOneConvolution) {
    const Layer fc{"fc", LayerType::fc, {"in"}, LinearAttributes{10, 1}, {}, {}};
    const TensorShape input{4, 3, 3};  // 36 features
    const std::int64_t batch = 2;
    for (Phase phase : {Phase::fw, Phase::bw, Phase::wu}) {
        const CartesianConv conv = cartesian_conv_of(fc, input, {10, 1, 1}, batch, phase);
        EXPECT_EQ(conv.h.a_extent * conv.w.a_extent * conv.h.b_extent * conv.w.b_extent, 1);
        EXPECT_EQ(conv.repetitions * conv.filters, batch * 36 * 10) << phase_name(phase);
        const CartesianCost c = evaluate_cartesian(conv, CartesianConfig{2, 2, 4, 4, 32});
        EXPECT_DOUBLE_EQ(c.issued_products, double(batch * 36 * 10)) << phase_name(phase);
        EXPECT_DOUBLE_EQ(c.unused_products, 0.0) << phase_name(phase);
    }
    const CartesianConv fw = cartesian_conv_of(fc, input, {10, 1, 1}, batch, Phase::fw);
    EXPECT_EQ(fw.repetitions, batch * 36);
    EXPECT_EQ(fw.filters, 10);
}

TEST(CartesianProduct, AMatmulIsAOneByOneConvolutionAtEveryPosition) {
    // A matmul applies its matrix at every position (an LSTM's input gates at every time
    // step): its used products are its N · positions · C · K MACs. In fw and bw every
    // product is used (a 1 × 1 kernel); in wu x's plane meets dy's, as large, and only
    // the pairs at the same position land in the 1 × 1 weight gradient.
    const Layer mm{"gates", LayerType::matmul, {"in"}, LinearAttributes{8, 1}, {}, {}};
    const TensorShape input{5, 20, 1};  // 5 features at 20 steps
    const std::int64_t batch = 3;
    const double macs = double(batch * 20 * 5 * 8);
    for (Phase phase : {Phase::fw, Phase::bw, Phase::wu}) {
        const CartesianConv conv = cartesian_conv_of(mm, input, {8, 20, 1}, batch, phase);
        const CartesianCost c = evaluate_cartesian(conv, CartesianConfig{1, 1, 4, 4, 32});
        EXPECT_DOUBLE_EQ(c.used_products, macs) << phase_name(phase);
        EXPECT_DOUBLE_EQ(c.issued_products, phase == Phase::wu ? 20 * macs : macs)
            << phase_name(phase);
    }
}

TEST(CartesianProduct, OtherLayersAreRejected) {
    const Layer matmul{"mm", LayerType::matmul, {"a", "b"}, std::monostate{}, {}, {}};
    EXPECT_THROW(cartesian_conv_of(matmul, {4, 1, 1}, {10, 1, 1}, 1, Phase::fw),
                 std::invalid_argument);
}

// The words the multipliers read (for cartesian/cartesian_energy.hpp): the tiled
// operand's nonzeros once per step, a filter vector of F slots per cycle.
TEST(CartesianProduct, OperandReadsFollowTheVectorsFetched) {
    SmallConv cv;
    const CartesianConv conv = cartesian_conv_of(cv.layer(), cv.input(), cv.output(), 2, Phase::fw);
    CartesianConfig config{2, 2, 4, 4, 32};
    for (double density : {1.0, 0.25}) {
        config.input_density = density;
        const CartesianCost c = evaluate_cartesian(conv, config);
        // Planar tiles cover the plane once: every position of every (sample, channel).
        EXPECT_DOUBLE_EQ(c.tiled_operand_reads,
                         density * double(conv.repetitions * conv.h.a_extent * conv.w.a_extent));
        EXPECT_DOUBLE_EQ(c.broadcast_operand_reads, c.product_cycles * 4);
    }
    config.tiling = CartesianTiling::split_filters;  // every PE reads the whole plane
    config.input_density = 1.0;
    const CartesianCost split = evaluate_cartesian(conv, config);
    EXPECT_DOUBLE_EQ(split.tiled_operand_reads,
                     double(split.busy_pes * conv.repetitions * conv.h.a_extent * conv.w.a_extent));
}

TEST(CartesianProduct, ConfigProblemsAreNamed) {
    EXPECT_EQ(cartesian_config_problem(CartesianConfig{}), "");
    CartesianConfig c;
    c.filter_vector = 0;
    EXPECT_NE(cartesian_config_problem(c).find("filter vector width F"), std::string::npos);
    c = CartesianConfig{};
    c.input_density = 1.5;
    EXPECT_NE(cartesian_config_problem(c).find("input density"), std::string::npos);
    c = CartesianConfig{};
    c.filter_density = 0.0;
    EXPECT_NE(cartesian_config_problem(c).find("filter density"), std::string::npos);
    c = CartesianConfig{};
    c.accumulator_banks = kMaxBanks + 1;
    EXPECT_NE(cartesian_config_problem(c).find("accumulator banks"), std::string::npos);
    c = CartesianConfig{};
    c.sample_tiles = 0;
    EXPECT_NE(cartesian_config_problem(c).find("sample tiles"), std::string::npos);
    c = CartesianConfig{};
    c.filter_groups = 0;
    EXPECT_NE(cartesian_config_problem(c).find("filter groups"), std::string::npos);
}

TEST(BankConflicts, SmallCasesByHand) {
    EXPECT_DOUBLE_EQ(expected_max_occupancy(0, 4), 0.0);
    EXPECT_DOUBLE_EQ(expected_max_occupancy(1, 4), 1.0);
    EXPECT_DOUBLE_EQ(expected_max_occupancy(5, 1), 5.0);
    EXPECT_NEAR(expected_max_occupancy(2, 2), 1.5, 1e-12);  // together with probability 1/2
    // 3 balls in 3 bins: all apart 6/27, all together 3/27, else max 2.
    EXPECT_NEAR(expected_max_occupancy(3, 3), (6.0 * 1 + 18.0 * 2 + 3.0 * 3) / 27.0, 1e-12);
    EXPECT_NEAR(probability_max_occupancy_at_most(4, 2, 1), 0.0, 1e-15);
    EXPECT_NEAR(probability_max_occupancy_at_most(4, 2, 2), 6.0 / 16.0, 1e-12);
}

TEST(BankConflicts, AgreesWithSampling) {
    std::mt19937_64 rng(7);
    for (auto [balls, banks] : {std::pair<int, int>{16, 32}, {16, 16}, {64, 128}, {9, 4}}) {
        std::uniform_int_distribution<int> bank(0, banks - 1);
        double sum = 0;
        const int samples = 200000;
        for (int t = 0; t < samples; ++t) {
            std::vector<int> count(static_cast<std::size_t>(banks), 0);
            int max = 0;
            for (int i = 0; i < balls; ++i)
                max = std::max(max, ++count[static_cast<std::size_t>(bank(rng))]);
            sum += max;
        }
        EXPECT_NEAR(expected_max_occupancy(balls, banks), sum / samples, 0.01)
            << balls << " balls, " << banks << " banks";
    }
}

TEST(BankConflicts, MoreBanksStallLess) {
    EXPECT_GT(expected_max_occupancy(16, 16), expected_max_occupancy(16, 32));
    EXPECT_GT(expected_max_occupancy(16, 32), expected_max_occupancy(16, 64));
}

}  // namespace
}  // namespace trainloop
