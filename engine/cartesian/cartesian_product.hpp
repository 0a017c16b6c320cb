// The Cartesian-product (outer-product) sparse convolution of SCNN (Parashar
// et al., "SCNN", ISCA 2017, §III-IV) and GSCN (Goli, ReSprop thesis, UBC
// 2020, ch. 6, Alg. 3-4): a dataflow class the loop-nest model
// (nest/nest_analysis.hpp) does not express. Each PE fetches a vector of F
// nonzero "filter" values and a vector of I nonzero "input" values and
// multiplies all F × I pairs in one cycle; each product's output coordinate
// is computed from the two operands' coordinates and the product is
// scattered through a crossbar into A accumulator banks. Unlike a loop nest,
// a product is issued before anyone knows whether it lands in the output:
// products whose coordinate falls outside the output plane, or between the
// outputs of a strided convolution, are computed and thrown away.
//
// The model, for one conv layer-phase (docs/cartesian_product.md):
//  - Operands. Every phase is a convolution of a planar-tiled operand A
//    (Alg. 3's "input") with a broadcast operand B (its "filter"), §6.2 and
//    Fig. 6.1: fw A = x, B = w; bw A = dy, B = w; wu A = x, B = dy (the
//    output gradient acts as K filters, the samples N as channels). Along
//    each spatial axis the product of A at a and B at b has the output
//    numerator n = sa·a + sb·b + off; it is used iff n ≡ 0 (mod div) and
//    0 ≤ n/div < out (CartesianAxis). A pair is used iff it is on both axes.
//  - Tiling (CartesianTiling). SCNN's planar tiling (§IV): the A plane is cut into
//    tiles_h × tiles_w tiles of ⌈H/tiles_h⌉ × ⌈W/tiles_w⌉ positions, one per
//    PE (edge tiles smaller, tiles past the plane empty), and every PE gets
//    all of B. A product landing in a neighbour's output tile (the halo) is
//    used: SCNN sends halos to the neighbours. GSCN's (§6.4) instead gives
//    every PE the whole plane and a share of the filters.
//  - Sparsity. Nonzeros are uniform and independent with densities d_A and
//    d_B, so the expected issued and used products are d_A·d_B times the
//    dense pair counts (linearity of expectation): the unused share does
//    not depend on density.
//  - Cycles. Per (sample, channel) a PE runs ⌈d_A·|tile|/I⌉ input vectors
//    against ⌈d_B·filters·|B|/F⌉ filter vectors (Alg. 3 lines 7-10, the
//    expectation inside the ceiling); the layer lasts as long as its
//    slowest PE (the inter-PE barrier SCNN reports as a loss).
//  - Random zeros (CartesianConfig::zeros = random). The PEs wait for each
//    other at every (sample, channel) step (DNNsim's SCNN, the simulator the
//    thesis extends for GSCN, §7.5.4: core/src/SCNN.cpp computeSCNNTile
//    takes the slowest PE's cycles per step). With independent zeros the
//    operand the PEs split (planar: A's tiles; split filters: B's filters)
//    holds Binomial counts, so a step lasts E[common vectors] · E[max over
//    PEs of their own vectors] (cartesian/random_vectors.hpp); the other operand
//    is the same on every PE. Dense operands give the expected-count figure.
//    With the predictor the slowest PE's predicted cycles are scaled by the
//    same ratio as without it (an approximation: the predictor keeps a
//    prefix of each PE's stream, whose nonzeros vary alike). Totals over all
//    PEs stay the expected counts.
//  - Sample tiles (thesis §6.5, Table 7.9). GSCN repeats the PE grid in T
//    tiles that share the filters and each take different samples of the
//    minibatch, so the slowest PE runs ⌈N/T⌉ of the N samples. Totals over
//    all PEs (products, product cycles) do not change with T.
//  - Bank conflicts (CartesianBankStalls). unbuffered: each cycle's F × I
//    products are hashed uniformly to A banks, a bank accepts one product per
//    cycle, and a cycle lasts as many cycles as its fullest bank (no
//    buffering between cycles: an upper bound on SCNN, whose crossbar
//    queues; cartesian/bank_conflicts.hpp). none: the queues absorb them all
//    (SCNN §IV: A = 2 × F × I banks suffice), a lower bound.
//  - Filter groups (CartesianArray::filter_groups, Eager Pruning §5.2's
//    SCNN). G copies of the grid take the same samples, group g the filters
//    [g·⌈K/G⌉, (g+1)·⌈K/G⌉); the tiling applies within a group to its share.
//  - Unused Cartesian products (Table 6.1's metric): cycles in which all
//    F × I products are unused, counted exactly for dense operands: input
//    vectors are I consecutive positions of the tile, row-major (the
//    thesis's W → H order, §6.5); filter vectors are F consecutive entries
//    of the B stream ordered position-major, filter fastest (Alg. 5).
//    With sparse operands a vector spans more positions; that is not
//    modelled (all_unused_cycles is the dense count).
//  - GSCN's predictor (thesis §6.5, Alg. 5), when CartesianConfig::predictor
//    is set. The thesis stores inputs width-major (W → H) and filters width
//    outermost (R → S → K), so along the filter stream the output's width
//    coordinate never increases where it is a − b (fw, wu). Per input
//    vector, once a filter vector's products all have a negative width
//    coordinate, the rest of the stream is skipped and the next input vector
//    starts; the prediction acts one cycle late, so that first all-negative
//    vector is still multiplied. So an input vector whose widest input is
//    a_w runs ⌈d_B·|kept prefix|/F⌉ + 1 filter vectors (at most the whole
//    stream), the prefix being the stream entries whose width b_w gives
//    a_w a non-negative coordinate. Where the coordinate grows along the
//    stream (bw: u·p + d·r − pad) nothing can be skipped. With sparse
//    operands the m-th nonzero of the tile sits at position ⌊m / d_A⌋ of
//    the width-major order (expected, as the cycles above). The predictor
//    only skips products, never a used one; issued products then count the
//    multiplied filter vectors. all_unused_cycles and dense_product_cycles
//    stay the no-predictor counts (Table 6.1 is SCNN's).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/cartesian_array.hpp"
#include "vocabulary/phase.hpp"
#include "workload/layer.hpp"
#include "workload/tensor_shape.hpp"

namespace trainloop {

// Which products count as unused. outside_output: outside the output plane
// or between strided outputs (the model). negative_only: only a negative
// output coordinate (the test GSCN's predictor applies, thesis §6.5), a
// variant for the comparison with Table 6.1.
enum class UnusedRule : std::uint8_t { outside_output, negative_only };

// One spatial axis of a Cartesian-product convolution.
struct CartesianAxis {
    std::int64_t a_extent = 1;    // positions of the tiled operand A
    std::int64_t b_extent = 1;    // positions of the broadcast operand B
    std::int64_t out_extent = 1;  // positions of the output
    std::int64_t a_scale = 1;     // n = a_scale·a + b_scale·b + offset
    std::int64_t b_scale = 1;     // never 0
    std::int64_t offset = 0;
    std::int64_t divisor = 1;  // used iff n ≡ 0 (mod divisor), 0 <= n/divisor < out_extent

    // Whether the product of A at `a` and B at `b` is used.
    bool used(std::int64_t a, std::int64_t b, UnusedRule rule) const;
    // The positions b of B whose product with A at `a` is used, ascending.
    std::vector<std::int64_t> used_partners(std::int64_t a, UnusedRule rule) const;
    // Σ over a in [a_begin, a_end) of used_partners(a).size(), without listing them.
    std::int64_t used_pairs(std::int64_t a_begin, std::int64_t a_end, UnusedRule rule) const;
};

// A conv layer-phase as a Cartesian-product convolution.
struct CartesianConv {
    CartesianAxis h;
    CartesianAxis w;
    // (sample, channel) pairs that each multiply an A plane by a B stream
    // (fw: N·C, bw: N·K, wu: C·N) and the filters in each B stream (fw and
    // wu: K/G, bw: C/G).
    std::int64_t repetitions = 1;
    std::int64_t filters = 1;
    std::int64_t samples = 1;  // N, a factor of `repetitions`
};

// The data spaces of `phase`'s tiled operand A and broadcast operand B (header:
// "Operands"): fw x and w, bw dy and w, wu x and dy (x sits on inputs, w on
// weights, dy on outputs: vocabulary/phase.hpp).
struct CartesianOperands {
    DataSpace tiled = DataSpace::inputs;
    DataSpace broadcast = DataSpace::weights;
};
CartesianOperands cartesian_operands(Phase phase);

// A profile's density as the evaluator takes it: 0 (a tensor known all-zero,
// no work) becomes the smallest positive density.
double cartesian_density(double density);

// A conv layer-phase, an fc one as a 1 × 1 convolution of a 1 × 1 plane whose
// channels are the flattened input, or a matmul one as a 1 × 1 convolution of its
// own plane (it applies its matrix at every position). Throws
// std::invalid_argument for any other layer.
CartesianConv cartesian_conv_of(const Layer& layer, const TensorShape& input,
                                const TensorShape& output, std::int64_t batch, Phase phase);

// Where the zeros fall. expected: every PE holds the expected count of its
// operand's nonzeros (d·positions), so PEs differ only by the size of their
// share. random: each element is nonzero independently, so PEs holding equal
// shares hold different counts, and the slowest PE of each (sample, channel)
// step holds more than the mean (cartesian/random_vectors.hpp; what a simulator
// driven by real tensors measures, thesis §7.5.4).
enum class CartesianZeros : std::uint8_t { expected, random };
inline constexpr std::array<std::string_view, 2> kCartesianZerosNames = {"expected", "random"};

// The spelling of `--zeros` and a sweep's `zeros:`.
constexpr std::string_view cartesian_zeros_name(CartesianZeros z) {
    return kCartesianZerosNames[static_cast<std::size_t>(z)];
}

constexpr std::optional<CartesianZeros> cartesian_zeros_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kCartesianZerosNames.size(); ++i) {
        if (kCartesianZerosNames[i] == name) return static_cast<CartesianZeros>(i);
    }
    return std::nullopt;
}

// One evaluation: the array (arch/cartesian_array.hpp) and what it runs on.
struct CartesianConfig : CartesianArray {
    double input_density = 1.0;   // d_A
    double filter_density = 1.0;  // d_B
    UnusedRule rule = UnusedRule::outside_output;
    CartesianZeros zeros = CartesianZeros::expected;
};

// Why `config` cannot be evaluated (a positive count, a density in (0, 1]),
// or empty.
std::string cartesian_config_problem(const CartesianConfig& config);

struct CartesianCost {
    double issued_products = 0;  // expected, all PEs
    double used_products = 0;
    double unused_products = 0;
    double unused_pct = 0;  // 100 · unused / issued
    // Cartesian-product cycles (F × I multiplies each), all PEs, and of the slowest PE;
    // with the predictor, those it leaves.
    double product_cycles = 0;
    double slowest_pe_product_cycles = 0;
    // Cartesian-product cycles the predictor skips, all PEs (0 without it).
    double skipped_product_cycles = 0;
    // Words the multipliers read from the PE buffers, all PEs: the tiled operand's
    // nonzeros once per (sample, channel) step (Alg. 3 line 7: an input vector is
    // held while the filter stream passes), and a filter vector of F slots per
    // Cartesian-product cycle (its last vector counted whole).
    double tiled_operand_reads = 0;
    double broadcast_operand_reads = 0;
    // Dense operands: cycles in which all F × I products are unused (Table 6.1).
    double all_unused_cycles = 0;
    double all_unused_pct = 0;  // 100 · all_unused_cycles / product_cycles (dense)
    double dense_product_cycles = 0;
    // Expected extra cycles per Cartesian product from accumulator-bank conflicts.
    double conflict_stall_per_cycle = 0;
    double slowest_pe_cycles = 0;  // (1 + stall) · slowest_pe_product_cycles
    std::int64_t busy_pes = 0;     // PEs with work: a part of the A plane and a sample
};

// Expected extra cycles per Cartesian product from accumulator-bank conflicts: the
// F × I products hashed to the banks, a cycle as long as its fullest bank (0 when the
// configuration's bank_stalls is none). A property of the configuration alone, the
// same for every layer.
// Precondition: cartesian_config_problem(config) is empty.
double conflict_stall_per_cycle(const CartesianConfig& config);

// Precondition: cartesian_config_problem(config) is empty.
CartesianCost evaluate_cartesian(const CartesianConv& conv, const CartesianConfig& config);

}  // namespace trainloop
