// Invariants of the evaluator over random valid mappings, and the closed-form
// delta rule against a brute-force walk over every tile step.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <tuple>

#include "eval/evaluation.hpp"
#include "support/eval_fixtures.hpp"
#include "support/flat_loops.hpp"
#include "support/random_mapping.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

using testing::space_of;

struct Case {
    const char* name;
    IterationSpace space;
};

std::vector<Case> cases() {
    IterationSpace strided = space_of({{Dim::N, 2},
                                       {Dim::K, 4},
                                       {Dim::C, 6},
                                       {Dim::P, 4},
                                       {Dim::Q, 3},
                                       {Dim::R, 3},
                                       {Dim::S, 3}});
    strided.shape = conv_shape({2, 2});
    IterationSpace dilated = space_of({{Dim::K, 2}, {Dim::C, 2}, {Dim::P, 6}, {Dim::R, 3}});
    dilated.shape = conv_shape({1, 1}, {2, 1});
    // Windows with holes: a 1×1 stride-2 layer (the ResNet shortcut) and a
    // dilation larger than the output tile; in bw the output dx is indexed
    // through such a window.
    IterationSpace gapped =
        space_of({{Dim::N, 2}, {Dim::K, 4}, {Dim::C, 4}, {Dim::P, 4}, {Dim::Q, 3}});
    gapped.shape = conv_shape({2, 2});
    IterationSpace dilated_gaps = space_of({{Dim::K, 2}, {Dim::C, 2}, {Dim::P, 3}, {Dim::R, 2}});
    dilated_gaps.shape = conv_shape({1, 1}, {3, 1});
    return {
        {"conv", space_of({{Dim::N, 4},
                           {Dim::K, 8},
                           {Dim::C, 4},
                           {Dim::P, 6},
                           {Dim::Q, 4},
                           {Dim::R, 3},
                           {Dim::S, 3}})},
        {"strided", strided},
        {"dilated", dilated},
        {"strided_1x1", gapped},
        {"dilated_with_holes", dilated_gaps},
        {"depthwise",
         space_of({{Dim::G, 8}, {Dim::N, 2}, {Dim::P, 4}, {Dim::Q, 4}, {Dim::R, 3}, {Dim::S, 3}})},
        {"fc", space_of({{Dim::N, 8}, {Dim::K, 12}, {Dim::C, 16}})}};
}

constexpr int kMappingsPerCase = 300;

// Calls `check` on valid random mappings of every case and phase.
template <typename Check>
void for_random_valid_mappings(Check check) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);
    std::mt19937_64 rng(2026);
    for (const Case& c : cases()) {
        int valid = 0;
        for (int n = 0; n < kMappingsPerCase; ++n) {
            const Mapping m = testing::random_mapping(arch, c.space, rng);
            for (Phase phase : kAllPhases) {
                const PhaseProblem problem = make_phase_problem(c.name, phase, c.space);
                const Evaluation e = evaluate(arch, problem, m);
                if (!e.valid()) continue;
                ++valid;
                check(arch, problem, m, e);
            }
        }
        EXPECT_GT(valid, kMappingsPerCase / 3) << c.name << ": too few valid mappings drawn";
    }
}

TEST(EvaluatorProperties, MacsEqualTheProblemsAndLatencyIsAtLeastMacsOverUnits) {
    for_random_valid_mappings(
        [](const ArchModel& arch, const PhaseProblem& p, const Mapping&, const Evaluation& e) {
            EXPECT_EQ(e.nest.macs, p.macs());
            EXPECT_GE(double(e.cycles) * double(arch.num_macs()), double(p.macs()));
            EXPECT_LE(e.utilization, 1.0);
        });
}

TEST(EvaluatorProperties, DramMovesEachTensorAtLeastOnce) {
    for_random_valid_mappings(
        [](const ArchModel&, const PhaseProblem& p, const Mapping&, const Evaluation& e) {
            DimBounds whole;
            whole.values.fill(1);
            for (DataSpace s : kAllDataSpaces) {
                const Projection proj = projection_for(s, p.space);
                const SpaceAccesses& dram = e.nest.levels[0].space(s);
                EXPECT_EQ(dram.tile, footprint(proj, p.space.bounds));
                // Words some MAC touches (the box less a window's holes).
                const std::int64_t size = touched_words(proj, p.space.bounds, whole);
                if (s == p.output()) {
                    EXPECT_GE(dram.updates, size) << data_space_name(s);
                } else {
                    EXPECT_GE(dram.reads, size) << data_space_name(s);
                }
            }
        });
}

TEST(EvaluatorProperties, EveryAccessCountIsNonNegative) {
    for_random_valid_mappings(
        [](const ArchModel&, const PhaseProblem& p, const Mapping&, const Evaluation& e) {
            for (std::size_t level = 0; level < e.nest.num_levels; ++level) {
                for (DataSpace s : kAllDataSpaces) {
                    const SpaceAccesses& a = e.nest.levels[level].space(s);
                    const std::string where = p.layer + " " + std::string(phase_name(p.phase)) +
                                              " level " + std::to_string(level) + " " +
                                              std::string(data_space_name(s));
                    EXPECT_GE(a.reads, 0) << where;
                    EXPECT_GE(a.fills, 0) << where;
                    EXPECT_GE(a.updates, 0) << where;
                    EXPECT_GE(a.drains, 0) << where;
                    EXPECT_LE(a.written, a.partition) << where;
                }
            }
            EXPECT_GT(e.cycles, 0);
        });
}

TEST(EvaluatorProperties, TouchedWordsCountTheDistinctWindowPositions) {
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> extent(1, 7), coef(1, 4);
    for (int n = 0; n < 2000; ++n) {
        IterationSpace sp = space_of({{Dim::P, extent(rng)}, {Dim::R, extent(rng)}});
        const std::int64_t stride = coef(rng);
        const std::int64_t dilation = coef(rng);
        sp.shape = conv_shape({stride, 1}, {dilation, 1});
        const Projection proj = projection_for(DataSpace::inputs, sp);
        std::set<std::int64_t> rows;
        for (std::int64_t p = 0; p < sp.bounds[Dim::P]; ++p) {
            for (std::int64_t r = 0; r < sp.bounds[Dim::R]; ++r) {
                rows.insert(p * stride + r * dilation);
            }
        }
        DimBounds ones_box;
        ones_box.values.fill(1);
        const std::int64_t touched = touched_words(proj, sp.bounds, ones_box);
        EXPECT_EQ(touched, std::int64_t(rows.size()))
            << "P=" << sp.bounds[Dim::P] << " R=" << sp.bounds[Dim::R] << " stride=" << stride
            << " dilation=" << dilation;
        EXPECT_LE(touched, footprint(proj, sp.bounds));
    }
}

TEST(EvaluatorProperties, EnergyBreakdownsSumToTheTotal) {
    for_random_valid_mappings(
        [](const ArchModel&, const PhaseProblem&, const Mapping&, const Evaluation& e) {
            const EnergyBreakdown& b = e.energy;
            double by_component = 0;
            for (std::size_t c = 0; c < b.num_components(); ++c) by_component += b.component_pj(c);
            EXPECT_EQ(by_component, e.energy_pj) << "the component breakdown defines the total";
            double by_space = 0;
            for (std::size_t s = 0; s <= kNoSpace; ++s) by_space += b.space_pj(s);
            double by_action = 0;
            for (std::size_t a = 0; a < kNumEnergyActions; ++a) {
                by_action += b.action_pj(EnergyAction(a));
            }
            EXPECT_NEAR(by_space, e.energy_pj, e.energy_pj * 1e-12);
            EXPECT_NEAR(by_action, e.energy_pj, e.energy_pj * 1e-12);
        });
}

TEST(EvaluatorProperties, ThePhasesOfALayerShareMacsAndUtilizationForOneMapping) {
    const ArchModel arch = testing::three_level(4, 4, 1 << 20, 1 << 16);  // everything fits
    std::mt19937_64 rng(7);
    for (const Case& c : cases()) {
        for (int n = 0; n < 50; ++n) {
            const Mapping m = testing::random_mapping(arch, c.space, rng);
            std::vector<Evaluation> phases;
            for (Phase phase : kAllPhases) {
                phases.push_back(evaluate(arch, make_phase_problem(c.name, phase, c.space), m));
            }
            ASSERT_TRUE(phases[0].valid() && phases[1].valid() && phases[2].valid());
            EXPECT_EQ(phases[0].nest.macs, phases[1].nest.macs);
            EXPECT_EQ(phases[0].nest.macs, phases[2].nest.macs);
            EXPECT_EQ(phases[0].compute_cycles, phases[2].compute_cycles);
        }
    }
}

// Swapping two adjacent temporal loops that both do not index a tensor
// cannot change anything about that tensor.
TEST(EvaluatorProperties, ReorderingLoopsIrrelevantToATensorLeavesItsCountsAlone) {
    int swaps = 0;
    for_random_valid_mappings([&swaps](const ArchModel& arch, const PhaseProblem& p,
                                       const Mapping& m, const Evaluation& e) {
        for (DataSpace s : kAllDataSpaces) {
            const DimSet relevant = projection_for(s, p.space).relevant;
            for (std::size_t i = 0; i < m.num_levels; ++i) {
                const LoopList& loops = m.level(i).temporal;
                for (std::size_t j = 0; j + 1 < loops.size(); ++j) {
                    if (relevant.contains(loops[j].dim) || relevant.contains(loops[j + 1].dim)) {
                        continue;
                    }
                    Mapping swapped = m;
                    LoopList reordered;
                    for (std::size_t k = 0; k < loops.size(); ++k) {
                        reordered.push_back(k == j       ? loops[j + 1]
                                            : k == j + 1 ? loops[j]
                                                         : loops[k]);
                    }
                    swapped.level(i).temporal = reordered;
                    const Evaluation f = evaluate(arch, p, swapped);
                    ASSERT_TRUE(f.valid());
                    for (std::size_t l = 0; l < m.num_levels; ++l) {
                        const SpaceAccesses& a = e.nest.levels[l].space(s);
                        const SpaceAccesses& b = f.nest.levels[l].space(s);
                        EXPECT_EQ(std::tie(a.tile, a.reads, a.fills, a.updates, a.drains),
                                  std::tie(b.tile, b.reads, b.fills, b.updates, b.drains));
                    }
                    ++swaps;
                }
            }
        }
    });
    EXPECT_GT(swaps, 100) << "the property was exercised too rarely";
}

// Weights have no sliding window, so the classic reuse formula holds: a tile
// is refetched once per iteration of every loop above it down to the
// innermost loop that indexes it; loops inside that one reuse it.
TEST(EvaluatorProperties, WeightFillsFollowTheInnermostRelevantLoopFormula) {
    for_random_valid_mappings(
        [](const ArchModel&, const PhaseProblem& p, const Mapping& m, const Evaluation& e) {
            const DimSet relevant = projection_for(DataSpace::weights, p.space).relevant;
            for (std::size_t i = 1; i < m.num_levels; ++i) {
                const SpaceAccesses& w = e.nest.levels[i].space(DataSpace::weights);
                if (!w.kept || p.output() == DataSpace::weights) continue;
                std::int64_t refetches = 1;
                std::int64_t running = 1;
                for (std::size_t l = 0; l < i; ++l) {
                    for (const Loop& loop : m.level(l).temporal) {
                        running *= loop.factor;
                        if (relevant.contains(loop.dim)) refetches = running;
                    }
                }
                EXPECT_EQ(w.fills, w.tile * refetches);
            }
        });
}

// The reference: walk every step of the temporal loops above a level, build
// the set of input words the tile covers, and count the new ones.
std::int64_t brute_force_input_fills(const IterationSpace& sp, const Mapping& m,
                                     std::size_t level) {
    const ConvWindow window = *conv_window(sp.shape);
    using L = testing::FlatLoop;
    const auto [nest, tile] = testing::flat_loops(m, level);
    std::vector<L> above;
    for (const L& l : nest) {
        if (l.temporal && l.level < level) above.push_back(l);
    }
    using Word = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
    std::set<Word> previous;
    std::int64_t fills = 0;
    std::vector<std::int64_t> index(above.size(), 0);
    while (true) {
        DimBounds origin{};
        for (std::size_t j = 0; j < above.size(); ++j)
            origin[above[j].d] += index[j] * above[j].step;
        std::set<Word> current;
        for (std::int64_t n = 0; n < tile[Dim::N]; ++n)
            for (std::int64_t g = 0; g < tile[Dim::G]; ++g)
                for (std::int64_t c = 0; c < tile[Dim::C]; ++c)
                    for (std::int64_t p = 0; p < tile[Dim::P]; ++p)
                        for (std::int64_t r = 0; r < tile[Dim::R]; ++r)
                            for (std::int64_t q = 0; q < tile[Dim::Q]; ++q)
                                for (std::int64_t s = 0; s < tile[Dim::S]; ++s) {
                                    current.insert({origin[Dim::N] + n, origin[Dim::G] + g,
                                                    origin[Dim::C] + c,
                                                    (origin[Dim::P] + p) * window.stride.h +
                                                        (origin[Dim::R] + r) * window.dilation.h,
                                                    (origin[Dim::Q] + q) * window.stride.w +
                                                        (origin[Dim::S] + s) * window.dilation.w});
                                }
        for (const Word& w : current) fills += previous.count(w) ? 0 : 1;
        previous = std::move(current);
        std::size_t j = above.size();
        while (j > 0 && ++index[j - 1] == above[j - 1].f) index[--j] = 0;
        if (j == 0) break;
    }
    return fills;
}

TEST(EvaluatorProperties, ClosedFormInputFillsMatchABruteForceWalk) {
    // The brute force counts exact words; the model counts the bounding box of
    // the window (Timeloop's convention). They agree whenever the window has
    // no holes: stride ≤ dilation·(R'−1)+1 along each axis, true for these.
    const ArchModel arch = testing::three_level(2, 2, 1 << 20, 1 << 16);
    std::mt19937_64 rng(11);
    IterationSpace sp = space_of({{Dim::N, 2},
                                  {Dim::C, 2},
                                  {Dim::K, 2},
                                  {Dim::P, 6},
                                  {Dim::Q, 4},
                                  {Dim::R, 3},
                                  {Dim::S, 2}});
    int checked = 0;
    for (int n = 0; n < 200; ++n) {
        const Mapping m = testing::random_mapping(arch, sp, rng);
        const Evaluation e = evaluate(arch, make_phase_problem("l", Phase::fw, sp), m);
        ASSERT_TRUE(e.valid());
        for (std::size_t level = 1; level < 3; ++level) {
            const SpaceAccesses& x = e.nest.levels[level].space(DataSpace::inputs);
            if (!x.kept) continue;
            EXPECT_EQ(x.fills, brute_force_input_fills(sp, m, level)) << "level " << level;
            ++checked;
        }
    }
    EXPECT_GT(checked, 150);
}

}  // namespace
}  // namespace trainloop
