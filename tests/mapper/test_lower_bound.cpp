// The cost lower bound (eval/lower_bound.hpp): no mapping the evaluator
// accepts is below it, on hand-built and shipped architectures, over random
// points of the mapspace and the mapper's best; and it counts the strided
// window's touched elements, not its bounding box.
#include <gtest/gtest.h>

#include <random>

#include "arch/arch_model.hpp"
#include "constraints/architecture_spec.hpp"
#include "eval/evaluation.hpp"
#include "eval/lower_bound.hpp"
#include "mapspace/mapspace.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using testing::space_of;

ArchModel shipped(const std::string& name) {
    return build_arch_model(
        load_architecture_spec(std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/" + name + ".yaml")
            .arch);
}

std::vector<IterationSpace> layers() {
    IterationSpace stem = space_of({{Dim::N, 4},
                                    {Dim::K, 64},
                                    {Dim::C, 3},
                                    {Dim::P, 56},
                                    {Dim::Q, 56},
                                    {Dim::R, 7},
                                    {Dim::S, 7}});
    stem.stride = {2, 2};
    IterationSpace downsample =
        space_of({{Dim::N, 4}, {Dim::K, 128}, {Dim::C, 64}, {Dim::P, 28}, {Dim::Q, 28}});
    downsample.stride = {2, 2};  // 1×1 stride 2: half the input rows are never read
    return {testing::resnet18_conv3x(), stem, downsample,
            space_of({{Dim::N, 16}, {Dim::K, 1000}, {Dim::C, 512}}),
            space_of(
                {{Dim::G, 32}, {Dim::N, 4}, {Dim::P, 14}, {Dim::Q, 14}, {Dim::R, 3}, {Dim::S, 3}})};
}

TEST(LowerBound, DistinctWordsCountAStridedWindowsTouchedElements) {
    IterationSpace s = space_of({{Dim::C, 2}, {Dim::P, 4}, {Dim::Q, 3}});
    s.stride = {2, 2};
    const Projection inputs = projection_for(DataSpace::inputs, s);
    // Rows 0, 2, 4, 6 of the bounding box's 7; columns 0, 2, 4 of its 5.
    EXPECT_EQ(distinct_words(inputs, s.bounds), 2 * 4 * 3);
    EXPECT_EQ(footprint(inputs, s.bounds), 2 * 7 * 5);
    IterationSpace window = space_of({{Dim::P, 4}, {Dim::R, 3}});  // stride 1: all 6 rows
    EXPECT_EQ(distinct_words(projection_for(DataSpace::inputs, window), window.bounds), 6);
    IterationSpace dilated = space_of({{Dim::P, 2}, {Dim::R, 2}});
    dilated.dilation = {3, 1};  // rows 0, 1, 3, 4
    EXPECT_EQ(distinct_words(projection_for(DataSpace::inputs, dilated), dilated.bounds), 4);
}

TEST(LowerBound, IsTheCompulsoryWorkOfAHandBuiltArchitecture) {
    const ArchModel arch = testing::three_level(4, 4, 4096, 256);  // DRAM 200 pJ/word, MAC 1 pJ
    const IterationSpace s = space_of({{Dim::N, 2}, {Dim::K, 8}, {Dim::C, 5}});
    const CostLowerBound b = cost_lower_bound(arch, make_phase_problem("fc", Phase::fw, s));
    EXPECT_EQ(b.cycles, 5);  // ⌈80 MACs / 16 units⌉
    // 80 MACs × 1 pJ + (40 weights + 10 inputs + 16 outputs) × 200 pJ; no leakage.
    EXPECT_DOUBLE_EQ(b.energy_pj, 80.0 + 66.0 * 200.0);
    EXPECT_DOUBLE_EQ(b.offchip_words, 66.0);
}

// Property: on every layer, phase and architecture, random points of the
// mapspace that the evaluator accepts, and the mapper's best, are at or above
// the bound in cycles and in energy.
TEST(LowerBound, NoEvaluatedMappingIsBelowIt) {
    const std::vector<ArchModel> archs = {shipped("procrustes_baseline_16x16"),
                                          shipped("procrustes_baseline_32x32"),
                                          testing::three_level(4, 4, 4096, 256)};
    std::mt19937_64 rng(13);
    for (std::size_t a = 0; a < archs.size(); ++a) {
        const ArchModel& arch = archs[a];
        for (const IterationSpace& space : layers()) {
            const Mapspace mapspace = Mapspace::build(arch, space, {});
            for (Phase phase : kAllPhases) {
                const PhaseProblem problem = make_phase_problem("layer", phase, space);
                const CostLowerBound bound = cost_lower_bound(arch, problem);
                int valid = 0;
                for (int n = 0; n < 400; ++n) {
                    const Evaluation e =
                        evaluate(arch, problem, mapspace.to_mapping(mapspace.random_point(rng)));
                    if (!e.valid()) continue;
                    ++valid;
                    EXPECT_GE(e.cycles, bound.cycles) << "arch " << a << " " << to_string(space);
                    EXPECT_GE(e.energy_pj, bound.energy_pj * (1 - 1e-12))
                        << "arch " << a << " " << to_string(space);
                    EXPECT_GE(offchip_words(e), bound.offchip_words)
                        << "arch " << a << " " << to_string(space);
                }
                SearchOptions options;
                options.budget.max_evaluations = 2000;
                options.threads = 1;
                const SearchResult best = search(arch, problem, mapspace, options);
                ASSERT_TRUE(best.best) << to_string(space);
                EXPECT_GE(best.best->cycles, bound.cycles);
                EXPECT_GE(best.best->energy_pj, bound.energy_pj * (1 - 1e-12));
                EXPECT_GE(best.best->offchip_words, bound.offchip_words);
                EXPECT_GT(valid, 0) << "arch " << a << " " << to_string(space);
                // Not vacuous: the bound is a sizeable part of what the mapper finds.
                EXPECT_GT(bound.energy_pj, 0.02 * best.best->energy_pj) << to_string(space);
            }
        }
    }
}

}  // namespace
}  // namespace trainloop
