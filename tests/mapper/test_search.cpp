// The mapspace and the search strategies: structural validity, optimality of
// exhaustive search, determinism across thread counts, the Pareto front, and
// the rejection histogram when nothing fits.
#include <gtest/gtest.h>

#include "bounds/lower_bound.hpp"
#include "eval/mapping_check.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::space_of;

const IterationSpace kSmall =
    space_of({{Dim::N, 2}, {Dim::K, 8}, {Dim::C, 4}, {Dim::P, 4}, {Dim::R, 3}});

ArchModel small_arch() { return testing::three_level(2, 2, 512, 32); }

TEST(Dataflow, NamedAndSplitAxesParse) {
    EXPECT_EQ(parse_dataflow("K,N"), (Dataflow{{Dim::K}, {Dim::N}}));
    EXPECT_EQ(parse_dataflow("KC,N"), (Dataflow{{Dim::K, Dim::C}, {Dim::N}}));
    EXPECT_EQ(parse_dataflow("any"), std::nullopt);
    EXPECT_EQ(to_string(*parse_dataflow("C,K")), "C,K");
    const SpecError e = testing::expect_spec_error([] { parse_dataflow("K;N"); });
    EXPECT_EQ(e.key_path(), "--dataflow");
    EXPECT_TRUE(testing::contains(e.expected(), "K,N"));
    testing::expect_spec_error([] { parse_dataflow("K,K"); });
    testing::expect_spec_error([] { parse_dataflow("Z,N"); });
}

TEST(Dataflow, ALongBadDataflowIsQuotedShort) {
    // (Found by fuzz_spec_yaml: a sweep's dataflow of 2,000 bytes was echoed whole.)
    const std::string text = "C" + std::string(3000, 'x');
    const SpecError e = testing::expect_spec_error([&] { parse_dataflow(text); });
    EXPECT_LT(e.message().size(), 120U) << e.message().substr(0, 200);
}

TEST(Mapspace, ANamedDataflowPutsOnlyItsDimensionsOnTheArray) {
    const Mapspace space = Mapspace::build(small_arch(), kSmall, {parse_dataflow("K,N"), true});
    ASSERT_FALSE(space.spatial_choices().empty());
    for (const SpatialChoice& c : space.spatial_choices()) {
        for (const Loop& l : c.x[1]) EXPECT_EQ(l.dim, Dim::K);
        for (const Loop& l : c.y[1]) EXPECT_EQ(l.dim, Dim::N);
    }
    // K ∈ {1, 2} on 2 columns, N ∈ {1, 2} on 2 rows.
    EXPECT_EQ(space.spatial_choices().size(), 4u);
    const MapspaceSize size = space.size();
    EXPECT_GT(size.tilings, 0);
    EXPECT_EQ(size.keeps, 1 * 8 * 8) << "DRAM keeps all; GLB and RF each keep any subset";
}

// A depthwise convolution's channels are its groups (K = C = 1 per group):
// K,N spreads them over the columns as it spreads a dense layer's output
// channels, instead of leaving 1 of 2 columns busy (Procrustes Fig. 11 maps
// output channels on one axis; MobileNet v2's 3×3 layers are depthwise).
TEST(Mapspace, ANamedDataflowSpreadsADepthwiseLayersGroupsLikeItsChannels) {
    const IterationSpace depthwise = space_of({{Dim::G, 8}, {Dim::N, 2}, {Dim::P, 4}, {Dim::R, 3}});
    const Mapspace space = Mapspace::build(small_arch(), depthwise, {parse_dataflow("K,N"), true});
    bool fills_columns = false;
    for (const SpatialChoice& c : space.spatial_choices()) {
        for (const Loop& l : c.x[1]) EXPECT_TRUE(l.dim == Dim::G || l.dim == Dim::K);
        for (const Loop& l : c.y[1]) EXPECT_EQ(l.dim, Dim::N);
        fills_columns = fills_columns || c.total[Dim::G] == 2;
    }
    EXPECT_TRUE(fills_columns);

    const DimBounds dw = depthwise.bounds;
    EXPECT_EQ(layer_dataflows(*parse_dataflow("K,N"), dw),
              (std::vector<Dataflow>{{{Dim::K, Dim::G}, {Dim::N}}}));
    EXPECT_EQ(layer_dataflows(*parse_dataflow("C,N"), dw),
              (std::vector<Dataflow>{{{Dim::C, Dim::G}, {Dim::N}}}));
    // C,K: the groups go with the output channels or with the input channels.
    EXPECT_EQ(layer_dataflows(*parse_dataflow("C,K"), dw),
              (std::vector<Dataflow>{{{Dim::C}, {Dim::K, Dim::G}}, {{Dim::C, Dim::G}, {Dim::K}}}));
    // No channel letter, G named, an ungrouped layer, an axis the user fixed: as named.
    EXPECT_EQ(layer_dataflows(*parse_dataflow("P,Q"), dw),
              (std::vector<Dataflow>{*parse_dataflow("P,Q")}));
    EXPECT_EQ(layer_dataflows(*parse_dataflow("G,N"), dw),
              (std::vector<Dataflow>{*parse_dataflow("G,N")}));
    EXPECT_EQ(layer_dataflows(*parse_dataflow("K,N"), kSmall.bounds),
              (std::vector<Dataflow>{*parse_dataflow("K,N")}));
    EXPECT_EQ(layer_dataflows(*parse_dataflow("K,N"), dw, /*fixed_x=*/true),
              (std::vector<Dataflow>{*parse_dataflow("K,N")}));
}

TEST(Mapspace, RandomPointsAndNeighboursAreStructurallyValid) {
    const ArchModel arch = small_arch();
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::mt19937_64 rng(3);
    MapPoint p = space.random_point(rng);
    for (int i = 0; i < 2000; ++i) {
        const Mapping m = space.to_mapping(p);
        EXPECT_EQ(check_mapping_structure(arch, kSmall, m), std::nullopt);
        p = i % 10 == 0 ? space.random_point(rng) : space.neighbor(p, rng);
    }
}

// An exchange moves one prime factor of a dimension from one level to another
// and one of another dimension back: two dimensions change at the same two
// levels, one growing where the other shrinks, and every dimension keeps its
// bound; a point whose factors all sit at one level has nothing to exchange.
TEST(Mapspace, AnExchangeMovesTwoDimensionsFactorsBetweenTwoLevelsInOppositeDirections) {
    const ArchModel arch = small_arch();
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::mt19937_64 rng(11);
    int exchanges = 0;
    for (int trial = 0; trial < 500; ++trial) {
        const MapPoint from = space.random_point(rng);
        const std::optional<MapPoint> to = space.exchange_factors(from, rng);
        if (!to) continue;
        ++exchanges;
        EXPECT_EQ(to->spatial, from.spatial);
        EXPECT_EQ(to->order, from.order);
        EXPECT_EQ(to->keep, from.keep);
        std::vector<Dim> changed_dims;
        std::vector<std::size_t> changed_levels;
        for (Dim d : kAllDims) {
            std::int64_t before = 1, after = 1;
            bool changed = false;
            for (std::size_t i = 0; i < space.num_levels(); ++i) {
                before *= from.factors[i][d];
                after *= to->factors[i][d];
                EXPECT_TRUE(space.factor_allowed(i, d, to->factors[i][d]));
                if (to->factors[i][d] == from.factors[i][d]) continue;
                changed = true;
                if (std::find(changed_levels.begin(), changed_levels.end(), i) ==
                    changed_levels.end())
                    changed_levels.push_back(i);
            }
            EXPECT_EQ(after, before) << dim_name(d);
            if (changed) changed_dims.push_back(d);
        }
        ASSERT_EQ(changed_dims.size(), 2u);
        ASSERT_EQ(changed_levels.size(), 2u);
        // One dimension grows at the level where the other shrinks.
        const std::size_t a = changed_levels[0], b = changed_levels[1];
        const Dim d = changed_dims[0], e = changed_dims[1];
        EXPECT_EQ(to->factors[a][d] > from.factors[a][d], to->factors[a][e] < from.factors[a][e]);
        EXPECT_EQ(to->factors[b][d] > from.factors[b][d], to->factors[b][e] < from.factors[b][e]);
        EXPECT_EQ(check_mapping_structure(arch, kSmall, space.to_mapping(*to)), std::nullopt);
    }
    EXPECT_GT(exchanges, 100);

    MapPoint all_outer = space.random_point(rng);
    for (Dim d : kAllDims) {
        std::int64_t product = 1;
        for (std::size_t i = 0; i < space.num_levels(); ++i) {
            product *= all_outer.factors[i][d];
            all_outer.factors[i][d] = 1;
        }
        all_outer.factors[0][d] = product;
    }
    EXPECT_EQ(space.exchange_factors(all_outer, rng), std::nullopt);
}

// The hill climb's moves: each is a structurally valid mapping, differs from
// the point it starts from, and keeps every dimension's bound (spatial ×
// temporal factors); among them are factor, order, keep and spatial moves.
TEST(Mapspace, SingleMovesAreValidDistinctAndCoverEveryKindOfMove) {
    const ArchModel arch = small_arch();
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        const MapPoint from = space.random_point(rng);
        bool factor = false, order = false, keep = false, spatial = false;
        for (const MapPoint& p : space.single_moves(from)) {
            EXPECT_EQ(check_mapping_structure(arch, kSmall, space.to_mapping(p)), std::nullopt);
            EXPECT_NE(space.to_mapping(p), space.to_mapping(from));
            for (Dim d : kAllDims) {
                std::int64_t product = space.spatial_choices()[p.spatial].total[d];
                for (std::size_t l = 0; l < space.num_levels(); ++l) product *= p.factors[l][d];
                EXPECT_EQ(product, kSmall.bounds[d]) << dim_name(d);
            }
            factor = factor || p.factors != from.factors;
            order = order || p.order != from.order;
            keep = keep || p.keep != from.keep;
            spatial = spatial || p.spatial != from.spatial;
        }
        EXPECT_TRUE(factor && order && keep && spatial) << "trial " << trial;
    }
}

// Another spatial choice keeps the tiling where it can: only the outermost
// level that can take a changed bound changes, and the rest is as it was.
TEST(Mapspace, AnotherSpatialChoiceRescalesOneLevelPerChangedDimension) {
    const ArchModel arch = small_arch();
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::mt19937_64 rng(11);
    const MapPoint from = space.random_point(rng);
    int moved = 0;
    for (std::uint32_t s = 0; s < space.spatial_choices().size(); ++s) {
        const auto p = space.with_spatial_choice(from, s);
        if (!p) continue;
        ++moved;
        EXPECT_EQ(p->order, from.order);
        EXPECT_EQ(p->keep, from.keep);
        for (Dim d : kAllDims) {
            int changed = 0;
            for (std::size_t l = 0; l < space.num_levels(); ++l) {
                changed += p->factors[l][d] != from.factors[l][d] ? 1 : 0;
            }
            EXPECT_LE(changed, 1) << dim_name(d);
            if (space.temporal_bound(s, d) == space.temporal_bound(from.spatial, d)) {
                EXPECT_EQ(changed, 0) << dim_name(d);
            }
        }
    }
    EXPECT_GT(moved, 1);
}

// The same with the change absorbed at the innermost level that can take
// it: the level changed is never outside the one the outermost rule picks.
TEST(Mapspace, AnotherSpatialChoiceCanRescaleTheInnermostLevelInstead) {
    const ArchModel arch = small_arch();
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::mt19937_64 rng(11);
    int differ = 0;
    for (int trial = 0; trial < 20; ++trial) {
        const MapPoint from = space.random_point(rng);
        for (std::uint32_t s = 0; s < space.spatial_choices().size(); ++s) {
            const auto outer = space.with_spatial_choice(from, s);
            const auto inner = space.with_spatial_choice(from, s, Mapspace::Absorb::innermost);
            ASSERT_EQ(outer.has_value(), inner.has_value());
            if (!inner) continue;
            EXPECT_EQ(check_mapping_structure(arch, kSmall, space.to_mapping(*inner)),
                      std::nullopt);
            for (Dim d : kAllDims) {
                std::size_t outer_level = 0, inner_level = 0;
                for (std::size_t l = 0; l < space.num_levels(); ++l) {
                    if (outer->factors[l][d] != from.factors[l][d]) outer_level = l;
                    if (inner->factors[l][d] != from.factors[l][d]) inner_level = l;
                }
                EXPECT_GE(inner_level, outer_level) << dim_name(d);
            }
            differ += inner->factors != outer->factors ? 1 : 0;
        }
    }
    EXPECT_GT(differ, 0);
}

SearchOptions options(SearchStrategy strategy, Objective objective, int threads,
                      std::int64_t budget) {
    SearchOptions o;
    o.strategy = strategy;
    o.objective = objective;
    o.threads = threads;
    o.budget.max_evaluations = budget;
    o.seed = 42;
    return o;
}

TEST(Search, ExhaustiveFindsAnOptimumNoOtherStrategyBeats) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    const SearchResult all =
        search(arch, fw, space, options(SearchStrategy::exhaustive, Objective::edp, 2, 0));
    ASSERT_TRUE(all.exhausted);
    ASSERT_TRUE(all.best);
    for (SearchStrategy s : {SearchStrategy::random, SearchStrategy::anneal}) {
        const SearchResult other = search(arch, fw, space, options(s, Objective::edp, 2, 4000));
        ASSERT_TRUE(other.best) << strategy_name(s);
        EXPECT_LE(all.best->edp(), other.best->edp()) << strategy_name(s);
    }
    // The best mapping evaluates to what the search reported.
    const Evaluation e = evaluate(arch, fw, all.best->mapping);
    EXPECT_EQ(e.cycles, all.best->cycles);
    EXPECT_DOUBLE_EQ(e.energy_pj, all.best->energy_pj);
}

TEST(Search, ResultsDoNotDependOnTheThreadCount) {
    const ArchModel arch = small_arch();
    const PhaseProblem wu = make_phase_problem("l", Phase::wu, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    for (SearchStrategy s :
         {SearchStrategy::random, SearchStrategy::anneal, SearchStrategy::exhaustive}) {
        std::vector<SearchResult> runs;
        for (int threads : {1, 2, 4}) {
            runs.push_back(search(arch, wu, space, options(s, Objective::pareto, threads, 3000)));
        }
        for (std::size_t i = 1; i < runs.size(); ++i) {
            SCOPED_TRACE(std::string(strategy_name(s)) + ", run " + std::to_string(i));
            ASSERT_TRUE(runs[0].best && runs[i].best);
            EXPECT_EQ(runs[i].best->mapping, runs[0].best->mapping);
            EXPECT_EQ(runs[i].evaluations, runs[0].evaluations);
            EXPECT_EQ(runs[i].rejected, runs[0].rejected);
            ASSERT_EQ(runs[i].pareto.size(), runs[0].pareto.size());
            for (std::size_t k = 0; k < runs[0].pareto.size(); ++k) {
                EXPECT_EQ(runs[i].pareto[k].mapping, runs[0].pareto[k].mapping);
            }
        }
    }
}

TEST(Search, ExhaustiveStopsExactlyAtItsEvaluationBudgetWhateverTheThreads) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    std::optional<Mapping> first;
    for (int threads : {1, 2, 4}) {
        const SearchResult r = search(
            arch, fw, space, options(SearchStrategy::exhaustive, Objective::edp, threads, 777));
        EXPECT_EQ(r.evaluations, 777) << threads << " threads";
        EXPECT_FALSE(r.exhausted);
        ASSERT_TRUE(r.best);
        if (!first) first = r.best->mapping;
        EXPECT_EQ(r.best->mapping, *first) << threads << " threads";
    }
}

// Without an evaluation budget, a time budget decides when to stop: the
// search runs until it (not until the default count, which this machine
// reaches in well under the budget), and stops soon after.
TEST(Search, ATimeBudgetAloneRunsUntilTheTimeIsUp) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true});
    SearchOptions o = options(SearchStrategy::random, Objective::edp, 2, 0);
    o.budget.max_seconds = 1.0;
    const SearchResult r = search(arch, fw, space, o);
    EXPECT_GE(r.seconds, 0.95);
    EXPECT_LT(r.seconds, 10.0);
}

TEST(Search, TheParetoFrontHoldsOnlyMutuallyNonDominatedMappings) {
    const ArchModel arch = small_arch();
    const PhaseProblem bw = make_phase_problem("l", Phase::bw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    const SearchResult r =
        search(arch, bw, space, options(SearchStrategy::random, Objective::pareto, 2, 5000));
    ASSERT_GE(r.pareto.size(), 1u);
    for (std::size_t i = 0; i < r.pareto.size(); ++i) {
        if (i > 0) {
            EXPECT_GT(r.pareto[i].energy_pj, r.pareto[i - 1].energy_pj);
            EXPECT_LT(r.pareto[i].cycles, r.pareto[i - 1].cycles) << "more energy must buy speed";
        }
    }
    ASSERT_TRUE(r.best);
    for (const Candidate& c : r.pareto) EXPECT_GE(c.edp(), r.best->edp());
}

TEST(Search, NothingFitsYieldsAHistogramOfReasons) {
    ArchModel arch = small_arch();
    arch.levels[2].capacity_words = 1;  // RF: one word
    arch.levels[1].capacity_words = 2;  // GLB: two words
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    for (SearchStrategy s : {SearchStrategy::random, SearchStrategy::exhaustive}) {
        const SearchResult r = search(arch, fw, space, options(s, Objective::energy, 2, 1000));
        EXPECT_FALSE(r.best) << strategy_name(s);
        EXPECT_GT(r.rejected[std::size_t(ViolationKind::capacity)], 0) << strategy_name(s);
        EXPECT_GT(r.rejected_capacity_by_level[1] + r.rejected_capacity_by_level[2], 0);
    }
}

TEST(Search, OffchipTrafficAndLatencyTiesGoToTheLowerEnergy) {
    Candidate best;
    best.energy_pj = 10;
    for (Objective o : {Objective::offchip, Objective::latency}) {
        EXPECT_TRUE(improves(o, 99, 50, 100, best));   // fewer words or cycles
        EXPECT_FALSE(improves(o, 101, 1, 100, best));  // more, with less energy
        EXPECT_TRUE(improves(o, 100, 9, 100, best));   // a tie: less energy wins
        EXPECT_FALSE(improves(o, 100, 11, 100, best));
        EXPECT_TRUE(improves(o, 100, 9, 200, std::nullopt));
    }
    EXPECT_FALSE(improves(Objective::energy, 100, 9, 100, best));  // the others keep the first
    EXPECT_FALSE(improves(Objective::edp, 100, 9, 100, best));
}

// The whole K,N mapspace of kSmall's `phase` on small_arch(), searched for `objective`.
SearchResult exhaustive_kn(Phase phase, Objective objective) {
    const ArchModel arch = small_arch();
    const PhaseProblem problem = make_phase_problem("l", phase, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    return search(arch, problem, space, options(SearchStrategy::exhaustive, objective, 2, 0));
}

// Of the mappings with the fewest cycles, the latency objective keeps the one
// with the least energy: the Pareto front's fastest point, found exhaustively.
TEST(Search, TheLatencyObjectiveKeepsTheLeastEnergyOfTheFastestMappings) {
    const SearchResult fastest = exhaustive_kn(Phase::fw, Objective::latency);
    const SearchResult front = exhaustive_kn(Phase::fw, Objective::pareto);
    ASSERT_TRUE(fastest.exhausted && fastest.best && !front.pareto.empty());
    const Candidate& front_fastest = front.pareto.back();  // by increasing energy
    EXPECT_EQ(fastest.best->cycles, front_fastest.cycles);
    EXPECT_DOUBLE_EQ(fastest.best->energy_pj, front_fastest.energy_pj);
}

TEST(Search, TheOffchipObjectiveFindsTheFewestOffchipWordsAndNoOtherStrategyBeatsIt) {
    const ArchModel arch = small_arch();
    const PhaseProblem bw = make_phase_problem("l", Phase::bw, kSmall);
    const Mapspace space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    const SearchResult fewest = exhaustive_kn(Phase::bw, Objective::offchip);
    const SearchResult edp_best = exhaustive_kn(Phase::bw, Objective::edp);
    ASSERT_TRUE(fewest.exhausted && fewest.best && edp_best.best);
    EXPECT_LE(fewest.best->offchip_words, edp_best.best->offchip_words);
    // Every tensor word crosses the outermost level at least once.
    double compulsory = 0;
    for (const DataSpace s : kAllDataSpaces) {
        compulsory += double(distinct_words(bw.projection(s), bw.space.bounds));
    }
    EXPECT_GE(fewest.best->offchip_words, compulsory);
    // What the search reports is what the mapping evaluates to.
    EXPECT_DOUBLE_EQ(offchip_words(evaluate(arch, bw, fewest.best->mapping)),
                     fewest.best->offchip_words);
    // Among the mappings that move as few words, the lower energy was kept.
    if (edp_best.best->offchip_words == fewest.best->offchip_words) {
        EXPECT_LE(fewest.best->energy_pj, edp_best.best->energy_pj);
    }
    for (SearchStrategy s : {SearchStrategy::random, SearchStrategy::anneal}) {
        const SearchResult other = search(arch, bw, space, options(s, Objective::offchip, 2, 4000));
        ASSERT_TRUE(other.best) << strategy_name(s);
        EXPECT_LE(fewest.best->offchip_words, other.best->offchip_words) << strategy_name(s);
    }
    EXPECT_EQ(objective_from_name("offchip"), Objective::offchip);
}

TEST(Search, ObjectivesRankByWhatTheyName) {
    EXPECT_EQ(objective_value(Objective::energy, 10, 5.0, 7.0), 5.0);
    EXPECT_EQ(objective_value(Objective::latency, 10, 5.0, 7.0), 10.0);
    EXPECT_EQ(objective_value(Objective::edp, 10, 5.0, 7.0), 50.0);
    EXPECT_EQ(objective_value(Objective::offchip, 10, 5.0, 7.0), 7.0);
    EXPECT_EQ(objective_from_name("edp"), Objective::edp);
    EXPECT_EQ(strategy_from_name("anneal"), SearchStrategy::anneal);
    EXPECT_EQ(strategy_from_name("genetic"), std::nullopt);
}

}  // namespace
}  // namespace trainloop
