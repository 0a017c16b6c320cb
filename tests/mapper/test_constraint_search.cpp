// User constraints in the mapspace and the searches: every point the
// mapspace samples or moves to, and every mapping exhaustive, random and
// annealing searches return, honours each kind of constraint; the mapspace
// size reflects them; a constraint that leaves no mapping says which and why;
// results stay independent of the thread count.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "constraints/constraint_check.hpp"
#include "constraints/constraints_parser.hpp"
#include "eval/mapping_check.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::space_of;

const IterationSpace kSmall =
    space_of({{Dim::N, 2}, {Dim::K, 8}, {Dim::C, 4}, {Dim::P, 4}, {Dim::R, 3}});

// The levels of testing::three_level (DRAM, GLB, RF on a 2×2 array).
std::vector<StorageLevel> three_levels() {
    std::vector<StorageLevel> levels(3);
    for (std::size_t i = 0; i < 3; ++i) {
        levels[i].name = std::array<const char*, 3>{"DRAM", "GLB", "RF"}[i];
        levels[i].data_spaces = DataSpaceSet::all();
    }
    return levels;
}

MappingConstraints constraints_of(const std::string& body) {
    PeArray array;
    array.rows = 2;
    array.columns = 2;
    return parse_constraints_file(
               SpecNode::load_string("mapping_constraints: t\n" + body, "c.yaml"), three_levels(),
               array)
        .constraints;
}

ArchModel small_arch() { return testing::three_level(2, 2, 512, 32); }

SearchOptions options(SearchStrategy strategy, int threads, std::int64_t budget) {
    SearchOptions o;
    o.strategy = strategy;
    o.objective = Objective::pareto;  // every mapping of the front is checked too
    o.threads = threads;
    o.budget.max_evaluations = budget;
    o.seed = 7;
    return o;
}

struct Kind {
    const char* name;
    const char* yaml;
};

// One entry per kind of constraint, and all of them together.
const std::vector<Kind> kKinds = {
    {"spatial dimensions and factors", "spatial: {x: [C], y: {dims: [K], factors: {K: 2}}}\n"},
    {"spatial on one axis", "spatial: {y: {dims: [N], factors: {N: 2}}}\n"},
    {"factor bounds",
     "levels: {RF: {factors: {K: {min: 2, max: 4}, R: 3}}, GLB: {factors: {C: 1, P: {max: 2}}}}\n"},
    {"full loop order", "levels: {GLB: {order: [K, C, N]}, DRAM: {order: [P, K, C, N, R]}}\n"},
    {"partial loop order",
     "levels: {DRAM: {partial_order: [P, K]}, GLB: {partial_order: [C, N]}}\n"},
    {"keep and bypass",
     "levels: {RF: {bypass: [weights], keep: [outputs]}, GLB: {keep: [inputs]}}\n"},
    {"all together",
     "spatial: {x: [K], y: {dims: [N], factors: {N: 2}}}\n"
     "levels: {RF: {bypass: [weights], factors: {R: 3}}, GLB: {partial_order: [C, P]}}\n"},
    {"a dimension across both axes", "spatial: {x: [K, C], y: [C]}\n"},
};

TEST(ConstraintSearch, EveryPointSampledOrMovedToHonoursEachKind) {
    const ArchModel arch = small_arch();
    const double unconstrained = Mapspace::build(arch, kSmall, {std::nullopt, true}).size().total();
    for (const Kind& kind : kKinds) {
        const MappingConstraints c = constraints_of(kind.yaml);
        const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true, c});
        ASSERT_FALSE(space.spatial_choices().empty()) << kind.name;
        EXPECT_LT(space.size().total(), unconstrained) << kind.name << ": the size reflects it";
        std::mt19937_64 rng(11);
        MapPoint p = space.random_point(rng);
        for (int i = 0; i < 3000; ++i) {
            const Mapping m = space.to_mapping(p);
            ASSERT_EQ(check_mapping_structure(arch, kSmall, m), std::nullopt) << kind.name;
            const auto violation = find_constraint_violation(c, kSmall, m);
            ASSERT_EQ(violation, std::nullopt) << kind.name << ": " << *violation;
            p = i % 10 == 0 ? space.random_point(rng) : space.neighbor(p, rng);
        }
    }
}

TEST(ConstraintSearch, EveryMappingEachSearchReturnsHonoursEachKind) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    for (const Kind& kind : kKinds) {
        const MappingConstraints c = constraints_of(kind.yaml);
        const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true, c});
        for (SearchStrategy s :
             {SearchStrategy::exhaustive, SearchStrategy::random, SearchStrategy::anneal}) {
            const SearchResult r = search(arch, fw, space, options(s, 2, 3000));
            ASSERT_TRUE(r.best) << kind.name << " " << strategy_name(s);
            EXPECT_GT(r.pareto.size(), 0u);
            for (const Candidate& candidate : r.pareto) {
                const auto violation = find_constraint_violation(c, kSmall, candidate.mapping);
                EXPECT_EQ(violation, std::nullopt)
                    << kind.name << " " << strategy_name(s) << ": " << *violation;
            }
            EXPECT_EQ(find_constraint_violation(c, kSmall, r.best->mapping), std::nullopt);
        }
    }
}

TEST(ConstraintSearch, ExhaustiveFindsTheConstrainedOptimum) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    // Without bypass exploration, to keep the whole mapspace small.
    const MappingConstraints c = constraints_of(
        "spatial: {x: [K], y: {dims: [N], factors: {N: 2}}}\n"
        "levels: {RF: {factors: {R: 3}}, GLB: {partial_order: [C, P]}}\n");
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, false, c});
    SearchOptions all = options(SearchStrategy::exhaustive, 2, 0);
    all.objective = Objective::edp;
    const SearchResult best = search(arch, fw, space, all);
    ASSERT_TRUE(best.exhausted);
    ASSERT_TRUE(best.best);
    EXPECT_EQ(find_constraint_violation(c, kSmall, best.best->mapping), std::nullopt);
    for (SearchStrategy s : {SearchStrategy::random, SearchStrategy::anneal}) {
        SearchOptions o = options(s, 2, 4000);
        o.objective = Objective::edp;
        const SearchResult other = search(arch, fw, space, o);
        ASSERT_TRUE(other.best);
        EXPECT_LE(best.best->edp(), other.best->edp() * (1 + 1e-12)) << strategy_name(s);
    }
    // The constrained optimum can only be worse than the unconstrained one.
    const Mapspace free_space = Mapspace::build(arch, kSmall, {parse_dataflow("K,N"), false});
    const SearchResult free = search(arch, fw, free_space, all);
    ASSERT_TRUE(free.best);
    EXPECT_LE(free.best->edp(), best.best->edp() * (1 + 1e-12));
}

TEST(ConstraintSearch, ADimensionAcrossBothAxesSplitsItsFactorBetweenThem) {
    // C = 4 is the only dimension allowed on the 2×2 array, on both axes:
    // only C2 × C2 fills it, which one axis per dimension could not do.
    const ArchModel arch = small_arch();
    const MappingConstraints c = constraints_of("spatial: {x: [C], y: [C]}\n");
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, false, c});
    bool split = false;
    for (const SpatialChoice& choice : space.spatial_choices()) {
        EXPECT_EQ(kSmall.bounds[Dim::C] % choice.total[Dim::C], 0);
        std::int64_t on_x = 1, on_y = 1;
        for (std::size_t i = 0; i < arch.num_levels; ++i) {
            on_x *= choice.x[i].factor_of(Dim::C);
            on_y *= choice.y[i].factor_of(Dim::C);
        }
        split = split || (on_x == 2 && on_y == 2);
    }
    EXPECT_TRUE(split);
    SearchOptions o = options(SearchStrategy::exhaustive, 2, 0);
    o.objective = Objective::latency;
    const SearchResult r = search(arch, make_phase_problem("l", Phase::fw, kSmall), space, o);
    ASSERT_TRUE(r.best);
    EXPECT_DOUBLE_EQ(r.best->utilization, 1.0);
    EXPECT_EQ(r.best->cycles, kSmall.macs() / 4);
    EXPECT_EQ(find_constraint_violation(c, kSmall, r.best->mapping), std::nullopt);
}

TEST(ConstraintSearch, ResultsDoNotDependOnTheThreadCount) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const MappingConstraints c = constraints_of(kKinds.back().yaml);
    const Mapspace space = Mapspace::build(arch, kSmall, {std::nullopt, true, c});
    for (SearchStrategy s :
         {SearchStrategy::exhaustive, SearchStrategy::random, SearchStrategy::anneal}) {
        const SearchResult one = search(arch, fw, space, options(s, 1, 2000));
        for (int threads : {2, 4}) {
            const SearchResult other = search(arch, fw, space, options(s, threads, 2000));
            ASSERT_TRUE(one.best && other.best);
            EXPECT_EQ(one.best->mapping, other.best->mapping)
                << strategy_name(s) << " with " << threads << " threads";
            EXPECT_EQ(one.evaluations, other.evaluations);
            EXPECT_EQ(one.pareto.size(), other.pareto.size());
        }
    }
}

TEST(ConstraintSearch, TheSizePerAxisCountsOnlyWhatTheConstraintsAllow) {
    const ArchModel arch = small_arch();
    const MapspaceSize free = Mapspace::build(arch, kSmall, {std::nullopt, true}).size();
    EXPECT_EQ(free.keeps, 1 * 8 * 8);
    EXPECT_EQ(free.orders, 120.0 * 120.0) << "5 dimensions > 1 at DRAM and GLB: 5!²";

    const MapspaceSize keeps =
        Mapspace::build(arch, kSmall, {std::nullopt, true, constraints_of(kKinds[5].yaml)}).size();
    EXPECT_EQ(keeps.keeps, 1 * 4 * 2) << "GLB must keep inputs (4 of 8), RF two fixed (2 of 8)";

    const MapspaceSize orders =
        Mapspace::build(arch, kSmall, {std::nullopt, true, constraints_of(kKinds[4].yaml)}).size();
    EXPECT_EQ(orders.orders, (120.0 / 2) * (120.0 / 2)) << "two loops in a fixed relative order";

    const MapspaceSize full =
        Mapspace::build(arch, kSmall, {std::nullopt, true, constraints_of(kKinds[3].yaml)}).size();
    EXPECT_EQ(full.orders, 1.0) << "a full order at DRAM and GLB leaves one order each";

    const MapspaceSize spatial =
        Mapspace::build(arch, kSmall, {std::nullopt, true, constraints_of(kKinds[0].yaml)}).size();
    EXPECT_EQ(spatial.spatial, 2.0) << "K fixed to 2 on y; C 1 or 2 on x";
}

TEST(ConstraintSearch, RequiredBypassesHoldWithoutBypassExploration) {
    const Mapspace space = Mapspace::build(
        small_arch(), kSmall,
        {std::nullopt, false, constraints_of("levels: {RF: {bypass: [weights]}}\n")});
    ASSERT_EQ(space.keep_choices(2).size(), 1u);
    EXPECT_EQ(space.keep_choices(2)[0], (DataSpaceSet{{false, true, true}}));
    EXPECT_EQ(space.keep_choices(1)[0], DataSpaceSet::all());
}

TEST(ConstraintSearch, AConstraintThatLeavesNoMappingSaysWhichAndWhy) {
    const ArchModel arch = small_arch();
    const PhaseProblem fw = make_phase_problem("l", Phase::fw, kSmall);
    const Mapspace factors = Mapspace::build(
        arch, kSmall, {std::nullopt, true, constraints_of("levels: {RF: {factors: {K: 3}}}\n")});
    EXPECT_TRUE(factors.spatial_choices().empty());
    ASSERT_TRUE(factors.empty_reason());
    EXPECT_TRUE(contains(factors.empty_reason()->text, "the factor bounds leave K no split"));
    EXPECT_TRUE(contains(factors.empty_reason()->text, "K = 3 at RF, set at c.yaml:2:"));
    EXPECT_TRUE(contains(factors.empty_reason()->text, "levels.RF.factors.K"));
    EXPECT_EQ(factors.empty_reason()->origin.key, "levels.RF.factors.K");
    EXPECT_EQ(factors.empty_reason()->origin.where.line, 2);
    const SearchResult r = search(arch, fw, factors, options(SearchStrategy::anneal, 1, 100));
    EXPECT_FALSE(r.best);
    EXPECT_EQ(r.evaluations, 0);

    const IterationSpace odd = space_of({{Dim::N, 3}, {Dim::K, 8}});
    const Mapspace spatial = Mapspace::build(
        arch, odd,
        {std::nullopt, true, constraints_of("spatial: {y: {dims: [N], factors: {N: 2}}}\n")});
    ASSERT_TRUE(spatial.empty_reason());
    EXPECT_TRUE(contains(spatial.empty_reason()->text, "the spatial factor N2 across y"));
    EXPECT_TRUE(contains(spatial.empty_reason()->text, "N = 3 in this problem"));
    EXPECT_EQ(spatial.empty_reason()->origin.key, "spatial.y");

    // Factors above a dimension apply as the whole of it: R: 3 on R = 1 leaves mappings.
    const Mapspace fc = Mapspace::build(
        arch, odd, {std::nullopt, true, constraints_of("levels: {RF: {factors: {R: 3}}}\n")});
    EXPECT_FALSE(fc.spatial_choices().empty());
    EXPECT_FALSE(fc.empty_reason());
}

TEST(ConstraintSearch, ANamedDataflowMustAgreeWithTheSpatialConstraints) {
    const MappingConstraints c = constraints_of("spatial: {x: [C]}\n");
    const SpecError e = testing::expect_spec_error([&] {
        Mapspace::build(small_arch(), kSmall, {parse_dataflow("K,N"), true, c});
    });
    EXPECT_TRUE(contains(e.message(),
                         "--dataflow K,N conflicts with the spatial constraint "
                         "across x, which allows C"));
    EXPECT_EQ(e.key_path(), "spatial.x");
    EXPECT_EQ(e.where().file, "c.yaml");
    // An agreeing dataflow is fine.
    EXPECT_NO_THROW(Mapspace::build(small_arch(), kSmall, {parse_dataflow("C,N"), true, c}));
}

}  // namespace
}  // namespace trainloop
