// Imperfect factors by padding (nest/padding.hpp): a mapping of the padded
// problem evaluated on the real one. Checked against a brute-force walk of
// every instance's tiles that counts only the real words: exact for a
// tensor every padded dimension indexes (to the rounding of a per-instance
// average), an upper bound for the others and for a machine that skips
// padded tiles; the
// MACs are the problem's, time and utilization the padded nest's; and the
// structural check accepts padding only where the header allows it. The
// sliding-window dimensions' padding bounds the inputs from above.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include "eval/evaluation.hpp"
#include "eval/mapping_check.hpp"
#include "nest/padding.hpp"
#include "support/eval_fixtures.hpp"
#include "support/flat_loops.hpp"
#include "support/random_mapping.hpp"
#include "vocabulary/einsum.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

DimSet used_dims(const ProblemShape& shape) {
    DimSet used;
    for (Dim d : kAllDims) {
        if (shape.uses(d)) used.insert(d);
    }
    return used;
}

using testing::space_of;
using Word = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;

// The word of data space `s` (fw: weights g,k,c,r,s; inputs n,g,c,h,w) an
// iteration point touches, or nullopt when the point lies in the padding.
std::optional<Word> real_word(DataSpace s, const IterationSpace& real, const DimBounds& at) {
    for (Dim d : kAllDims) {
        if (at[d] >= real.bounds[d]) return std::nullopt;
    }
    if (s == DataSpace::weights)
        return Word{at[Dim::G], at[Dim::K], at[Dim::C], at[Dim::R], at[Dim::S]};
    const ConvWindow window = *conv_window(real.shape);
    return Word{at[Dim::N], at[Dim::G], at[Dim::C],
                at[Dim::P] * window.stride.h + at[Dim::R] * window.dilation.h,
                at[Dim::Q] * window.stride.w + at[Dim::S] * window.dilation.w};
}

// How a tile wholly in the padding is walked: as the padded nest runs it
// (its slots replace the previous tile's words), or skipped (the level keeps
// what it held: a machine that clips padded iterations).
enum class PaddedTiles { replace, skip };

// Fills of `s` at `level`, summed over every instance of the level: each
// instance walks the temporal loops above it (its spatial offsets fixed) and
// fetches the real words of each tile the previous tile did not hold.
std::int64_t brute_force_real_fills(const IterationSpace& real, const Mapping& m, DataSpace s,
                                    std::size_t level, PaddedTiles padded) {
    using L = testing::FlatLoop;
    const auto [nest, tile] = testing::flat_loops(m, level);
    std::vector<L> temporal;
    std::vector<L> spatial;
    for (const L& l : nest) {
        if (l.level < level) (l.temporal ? temporal : spatial).push_back(l);
    }
    std::int64_t fills = 0;
    std::vector<std::int64_t> where(spatial.size(), 0);
    do {
        std::set<Word> previous;
        std::vector<std::int64_t> index(temporal.size(), 0);
        do {
            DimBounds origin{};
            testing::add_offsets(origin, spatial, where);
            testing::add_offsets(origin, temporal, index);
            std::set<Word> current;
            DimBounds offset{};
            std::function<void(std::size_t)> walk = [&](std::size_t k) {
                if (k == kNumDims) {
                    DimBounds at;
                    for (Dim d : kAllDims) at[d] = origin[d] + offset[d];
                    if (auto w = real_word(s, real, at)) current.insert(*w);
                    return;
                }
                const Dim d = kAllDims[k];
                for (offset[d] = 0; offset[d] < tile[d]; ++offset[d]) walk(k + 1);
            };
            walk(0);
            if (current.empty() && padded == PaddedTiles::skip) continue;
            for (const Word& w : current) fills += previous.count(w) ? 0 : 1;
            previous = std::move(current);
        } while (testing::next_iteration(index, temporal));
    } while (testing::next_iteration(where, spatial));
    return fills;
}

struct PaddedCase {
    const char* name;
    IterationSpace real;
    IterationSpace padded;  // the same layer with its padded extents
};

std::vector<PaddedCase> padded_cases() {
    const std::initializer_list<std::pair<Dim, std::int64_t>> conv = {
        {Dim::N, 3}, {Dim::K, 3}, {Dim::C, 5}, {Dim::P, 4}, {Dim::Q, 2}, {Dim::R, 3}};
    IterationSpace real = space_of(conv);
    // Inputs are indexed by both padded dimensions (N, C): exact.
    IterationSpace n_and_c = real;
    n_and_c.bounds[Dim::N] = 4;
    n_and_c.bounds[Dim::C] = 6;
    // K does not index the inputs: an upper bound for them, exact for weights.
    IterationSpace k_only = real;
    k_only.bounds[Dim::K] = 4;
    // R indexes the weights through a one-term axis (exact) and the inputs
    // through their window (an upper bound).
    IterationSpace r_only = real;
    r_only.bounds[Dim::R] = 4;
    // P and Q stretch the inputs' window past its edge and do not index the
    // weights: an upper bound for both.
    IterationSpace p_and_q = real;
    p_and_q.bounds[Dim::P] = 7;
    p_and_q.bounds[Dim::Q] = 3;
    return {{"padded_N_and_C", real, n_and_c},
            {"padded_K", real, k_only},
            {"padded_R", real, r_only},
            {"padded_P_and_Q", real, p_and_q}};
}

// Whether every dimension `padded` pads indexes `s` through a one-term axis
// (the header's exact case).
bool one_term_in_every_padded(const Projection& proj, const IterationSpace& real,
                              const IterationSpace& padded) {
    for (Dim d : kAllDims) {
        if (padded.bounds[d] == real.bounds[d]) continue;
        const int axis = proj.axis_of[d];
        if (axis < 0 || proj.axes[std::size_t(axis)].num_terms != 1) return false;
    }
    return true;
}

TEST(PaddedNest, RealWordsOfTensorsThePaddingIndexesAreExactOthersBounded) {
    const ArchModel arch = testing::three_level(2, 2, 1 << 20, 1 << 16);
    std::mt19937_64 rng(7);
    for (const PaddedCase& c : padded_cases()) {
        const PhaseProblem problem = make_phase_problem(c.name, Phase::fw, c.real);
        int exact = 0;
        int bounded = 0;
        for (int n = 0; n < 60; ++n) {
            const Mapping m = testing::random_mapping(arch, c.padded, rng);
            const Evaluation e = evaluate(arch, problem, m);
            ASSERT_TRUE(e.valid()) << c.name;
            for (DataSpace s : {DataSpace::weights, DataSpace::inputs}) {
                const bool exact_case =
                    one_term_in_every_padded(problem.projection(s), c.real, c.padded);
                for (std::size_t level = 1; level < 3; ++level) {
                    const SpaceAccesses& a = e.nest.levels[level].space(s);
                    if (!a.kept) continue;
                    // Counts are per instance, each rounded to the nearest word.
                    const std::int64_t instances = e.nest.levels[level].utilized_instances;
                    const double model = double(a.fills * instances);
                    const double rounding = double(instances) / 2;
                    const double real =
                        double(brute_force_real_fills(c.real, m, s, level, PaddedTiles::replace));
                    const double clipped =
                        double(brute_force_real_fills(c.real, m, s, level, PaddedTiles::skip));
                    const std::string what = std::string(c.name) + " " +
                                             std::string(data_space_name(s)) + " level " +
                                             std::to_string(level);
                    if (exact_case) {
                        EXPECT_NEAR(model, real, rounding) << what;
                        ++exact;
                    } else {
                        ++bounded;  // counted as the padded nest moves it
                    }
                    // A machine that skips padded tiles moves no more.
                    EXPECT_GE(model, clipped - rounding) << what;
                }
            }
        }
        const std::string name = c.name;
        if (name != "padded_P_and_Q") {
            EXPECT_GT(exact, 30) << name;
        }
        if (name != "padded_N_and_C") {
            EXPECT_GT(bounded, 30) << name;
        }
    }
}

// The backward phases pad windows the same way: their operands among the
// weights and inputs (bw reads the weights, wu the inputs) move no fewer
// words than a machine that skips padded tiles, and the MACs and time are
// the problem's and a remainder tile's.
TEST(PaddedNest, TheBackwardPhasesPadWindowsToo) {
    const ArchModel arch = testing::three_level(2, 2, 1 << 20, 1 << 16);
    std::mt19937_64 rng(11);
    for (const PaddedCase& c : padded_cases()) {
        for (Phase phase : {Phase::bw, Phase::wu}) {
            const PhaseProblem problem = make_phase_problem(c.name, phase, c.real);
            const DataSpace operand = phase == Phase::bw ? DataSpace::weights : DataSpace::inputs;
            for (int n = 0; n < 30; ++n) {
                const Mapping m = testing::random_mapping(arch, c.padded, rng);
                const Evaluation e = evaluate(arch, problem, m);
                ASSERT_TRUE(e.valid()) << c.name;
                EXPECT_EQ(e.nest.macs, c.real.macs()) << c.name;
                EXPECT_GE(e.nest.compute_cycles * arch.num_macs(), c.real.macs()) << c.name;
                for (std::size_t level = 1; level < 3; ++level) {
                    const SpaceAccesses& a = e.nest.levels[level].space(operand);
                    if (!a.kept) continue;
                    const std::int64_t instances = e.nest.levels[level].utilized_instances;
                    EXPECT_GE(double(a.fills * instances),
                              double(brute_force_real_fills(c.real, m, operand, level,
                                                            PaddedTiles::skip)) -
                                  double(instances) / 2)
                        << c.name << " " << phase_name(phase) << " level " << level;
                }
            }
        }
    }
}

TEST(PaddedNest, MacsAreTheProblemsTimeAndUtilizationThePaddedNests) {
    // K = 1000 across all 16 columns in 63 steps (1,008 = 16 · 63): the last
    // step leaves 8 columns idle.
    const IterationSpace fc = space_of({{Dim::N, 4}, {Dim::K, 1000}, {Dim::C, 8}});
    const ArchModel arch = testing::two_level(1, 16, 1 << 16);
    Mapping m;
    m.num_levels = 2;
    m.level(0).temporal = testing::loops({{Dim::K, 63}, {Dim::C, 8}, {Dim::N, 4}});
    m.level(0).spatial_x = testing::loops({{Dim::K, 16}});
    m.level(0).keep = DataSpaceSet::all();
    m.level(1).keep = DataSpaceSet::all();
    const Evaluation e = evaluate(arch, make_phase_problem("fc", Phase::fw, fc), m);
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.nest.macs, 4 * 1000 * 8);
    EXPECT_EQ(e.counts.macs_performed, 4.0 * 1000 * 8);
    EXPECT_EQ(e.nest.compute_cycles, 4 * 8 * 63);
    EXPECT_DOUBLE_EQ(e.utilization, 1000.0 / 1008.0);
    // Each weight leaves DRAM once, each output is updated once per C step
    // (only the real ones); the inputs stream past every column in each of
    // the 63 steps, as in the padded nest.
    const LevelAccesses& dram = e.nest.levels[0];
    EXPECT_EQ(dram.space(DataSpace::weights).reads, 1000 * 8);
    EXPECT_EQ(dram.space(DataSpace::outputs).updates, 8 * 4 * 1000);
    EXPECT_EQ(dram.space(DataSpace::inputs).reads, 4 * 8 * 63);
    // The tile each PE holds, and the DRAM tile, are clipped to the layer.
    EXPECT_EQ(e.nest.tile_box[0][Dim::K], 1000);
    EXPECT_EQ(dram.space(DataSpace::weights).tile, 1000 * 8);
}

IterationSpace conv_space() {
    return space_of({{Dim::N, 3}, {Dim::K, 4}, {Dim::C, 5}, {Dim::P, 6}, {Dim::R, 3}});
}

Mapping one_level(const LoopList& temporal) {
    Mapping m;
    m.num_levels = 1;
    m.level(0).temporal = temporal;
    m.level(0).keep = DataSpaceSet::all();
    return m;
}

TEST(PaddedNest, TheStructuralCheckAllowsPaddingByLessThanTheBound) {
    const ArchModel arch = testing::two_level(1, 1, 1 << 16);
    ArchModel one = arch;
    one.num_levels = 1;
    const IterationSpace sp = conv_space();
    // The paddable dimensions are those every tensor indexes through a
    // one-term axis, whatever the layer: a 3×3 conv, a 1×1 one, a fc layer,
    // and an einsum whose third window position takes the N slot (a 3-D
    // convolution), whose N is then a window dimension.
    IterationSpace conv3d = sp;
    conv3d.shape = parse_einsum("O[k,x,y,z] += W[k,c,a,b,e] * I[c,x+a,y+b,z*2+e]", {}, "einsum");
    ASSERT_EQ(conv3d.shape.dim_name(Dim::N), "z");
    for (const IterationSpace& space :
         {sp, space_of({{Dim::N, 2}, {Dim::K, 4}, {Dim::C, 3}, {Dim::P, 5}}),
          space_of({{Dim::N, 2}, {Dim::K, 4}, {Dim::C, 3}}), conv3d}) {
        DimSet one_term;
        for (Dim d : kAllDims) {
            bool everywhere = true;
            for (DataSpace s : kAllDataSpaces) {
                const Projection proj = projection_for(s, space);
                const int axis = proj.axis_of[d];
                everywhere =
                    everywhere && (axis < 0 || proj.axes[std::size_t(axis)].num_terms == 1);
            }
            if (everywhere && space.shape.uses(d)) one_term.insert(d);
        }
        EXPECT_EQ(one_term_dims(space.shape), one_term) << to_string(space);
        EXPECT_EQ(window_dims(space.shape), one_term.complement() & used_dims(space.shape));
    }
    EXPECT_EQ(one_term_dims(sp.shape), (DimSet{Dim::N, Dim::K, Dim::C, Dim::G}));
    EXPECT_FALSE(one_term_dims(conv3d.shape).contains(Dim::N));
    const auto check = [&](const LoopList& loops) {
        return check_mapping_structure(one, sp, one_level(loops));
    };
    // N = 3 padded to 5, C = 5 to 9: allowed.
    EXPECT_EQ(
        check(testing::loops({{Dim::N, 5}, {Dim::K, 4}, {Dim::C, 9}, {Dim::P, 6}, {Dim::R, 3}})),
        std::nullopt);
    // N padded to 6 = 2·3: taken for a mistake.
    const auto twice =
        check(testing::loops({{Dim::N, 6}, {Dim::K, 4}, {Dim::C, 5}, {Dim::P, 6}, {Dim::R, 3}}));
    ASSERT_TRUE(twice.has_value());
    EXPECT_EQ(twice->kind, ViolationKind::factor_product);
    EXPECT_EQ(twice->dim, Dim::N);
    // P = 6 padded to 7 and R = 3 to 4 (sliding-window dimensions): allowed,
    // the inputs then counted as an upper bound; P padded to 12: a mistake.
    EXPECT_EQ(
        check(testing::loops({{Dim::N, 3}, {Dim::K, 4}, {Dim::C, 5}, {Dim::P, 7}, {Dim::R, 4}})),
        std::nullopt);
    const auto window =
        check(testing::loops({{Dim::N, 3}, {Dim::K, 4}, {Dim::C, 5}, {Dim::P, 12}, {Dim::R, 3}}));
    ASSERT_TRUE(window.has_value());
    EXPECT_EQ(window->dim, Dim::P);
    // Fewer than the bound: still an error.
    const auto short_k =
        check(testing::loops({{Dim::N, 3}, {Dim::K, 3}, {Dim::C, 5}, {Dim::P, 6}, {Dim::R, 3}}));
    ASSERT_TRUE(short_k.has_value());
    EXPECT_EQ(short_k->dim, Dim::K);
}

}  // namespace
}  // namespace trainloop
