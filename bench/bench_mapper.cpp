// Mapper quality and speed, on the Procrustes 16×16 baseline:
// - small layers, every phase: exhaustive optimum vs simulated annealing and
//   random sampling at the same budget (EDP ratio, seconds), one thread;
// - quality against evaluations on real layers, fixed budgets and the default
//   search (until converged), and the default search's thread scaling;
// - evaluations per second with 1 and 2 threads (random search).
// Run: build/bench/bench_mapper   (record the table in bench/RESULTS.md)
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <iostream>
#include <limits>

#include "arch/architecture_parser.hpp"
#include "search/search.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using testing::space_of;

const Architecture& baseline() {
    static const Architecture arch =
        load_architecture(std::filesystem::path(TRAINLOOP_DEFAULT_DATA_DIR) /
                          "arch_specs/procrustes_baseline_16x16.yaml");
    return arch;
}

struct SmallLayer {
    const char* name;
    IterationSpace space;
};

// Small enough for exhaustive search (every tiling × every loop order) to
// finish in seconds to a minute on one core.
std::vector<SmallLayer> small_layers() {
    return {{"fc C32 K16 N8", space_of({{Dim::N, 8}, {Dim::K, 16}, {Dim::C, 32}})},
            {"conv 1x1 C8 K16 P4 Q4 N4",
             space_of({{Dim::N, 4}, {Dim::K, 16}, {Dim::C, 8}, {Dim::P, 4}, {Dim::Q, 4}})},
            {"conv 1-D R3 C4 K8 P8 N2",
             space_of({{Dim::N, 2}, {Dim::K, 8}, {Dim::C, 4}, {Dim::P, 8}, {Dim::R, 3}})}};
}

SearchOptions options(SearchStrategy s, std::int64_t budget, int threads) {
    SearchOptions o;
    o.strategy = s;
    o.objective = Objective::edp;
    o.budget.max_evaluations = budget;
    o.threads = threads;
    o.seed = 7;
    return o;
}

// Prints the quality table once (not a timed benchmark: it reports seconds itself).
void BM_SlowQualityTable(benchmark::State& state) {
    const ArchModel arch = build_arch_model(baseline());
    const std::int64_t budget = state.range(0);
    for (auto _ : state) {
        std::cout << fmt::format(
            "\n| layer | phase | exhaustive EDP | evaluations | s | anneal/exh. | s | random/exh. "
            "| s |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const SmallLayer& layer : small_layers()) {
            const Mapspace space =
                Mapspace::build(arch, layer.space, {parse_dataflow("K,N"), false});
            for (Phase phase : kAllPhases) {
                const PhaseProblem p = make_phase_problem(layer.name, phase, layer.space);
                const SearchResult ex =
                    search(arch, p, space, options(SearchStrategy::exhaustive, 0, 1));
                const SearchResult sa =
                    search(arch, p, space, options(SearchStrategy::anneal, budget, 1));
                const SearchResult rnd =
                    search(arch, p, space, options(SearchStrategy::random, budget, 1));
                if (!ex.best || !sa.best || !rnd.best) continue;
                std::cout << fmt::format(
                    "| {} | {} | {:.4g} | {} | {:.2f} | {:.4f} | {:.2f} | {:.4f} | {:.2f} |\n",
                    layer.name, phase_name(phase), ex.best->edp(), ex.evaluations, ex.seconds,
                    sa.best->edp() / ex.best->edp(), sa.seconds, rnd.best->edp() / ex.best->edp(),
                    rnd.seconds);
            }
        }
    }
}
BENCHMARK(BM_SlowQualityTable)->Arg(20'000)->Iterations(1)->Unit(benchmark::kSecond);

// Large spaces (real ResNet-18 layers, any dataflow): annealing vs random
// sampling at equal budgets — the measurement behind choosing annealing.
void BM_SlowGuidedVsRandom(benchmark::State& state) {
    const ArchModel arch = build_arch_model(baseline());
    const std::pair<const char*, IterationSpace> layers[] = {
        {"resnet18 conv3_x 3x3", testing::resnet18_conv3x()},
        {"resnet18 fc", space_of({{Dim::N, 16}, {Dim::K, 1000}, {Dim::C, 512}})}};
    for (auto _ : state) {
        std::cout << "\n| layer | phase | budget | random EDP / anneal EDP (mean of 4 seeds) "
                     "|\n|---|---|---:|---:|\n";
        for (const auto& [name, space_bounds] : layers) {
            const Mapspace space = Mapspace::build(arch, space_bounds, {std::nullopt, true});
            for (Phase phase : kAllPhases) {
                const PhaseProblem p = make_phase_problem(name, phase, space_bounds);
                for (std::int64_t budget : {2'000, 20'000}) {
                    double ratio = 0;
                    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
                        SearchOptions sa = options(SearchStrategy::anneal, budget, 2);
                        SearchOptions rnd = options(SearchStrategy::random, budget, 2);
                        sa.seed = rnd.seed = seed;
                        const SearchResult a = search(arch, p, space, sa);
                        const SearchResult r = search(arch, p, space, rnd);
                        if (a.best && r.best) ratio += r.best->edp() / a.best->edp() / 4;
                    }
                    std::cout << fmt::format("| {} | {} | {} | {:.3f} |\n", name, phase_name(phase),
                                             budget, ratio);
                }
            }
        }
    }
}
BENCHMARK(BM_SlowGuidedVsRandom)->Iterations(1)->Unit(benchmark::kSecond);

// Quality against evaluations: EDP of fixed-budget annealing at budgets from
// 2,000 to 2,000,000 and of the default search (rounds until two agree), as
// a ratio to the best of them all, with evaluations and seconds, one thread.
void BM_SlowQualityCurve(benchmark::State& state) {
    const ArchModel arch = build_arch_model(baseline());
    const std::pair<const char*, IterationSpace> layers[] = {
        {"resnet18 conv3_x 3x3", testing::resnet18_conv3x()},
        {"resnet18 fc", space_of({{Dim::N, 16}, {Dim::K, 1000}, {Dim::C, 512}})}};
    const std::int64_t budgets[] = {2'000, 20'000, 200'000, 2'000'000};
    for (auto _ : state) {
        std::cout << "\n| layer | phase | search | evaluations | s | EDP / best |\n"
                     "|---|---|---|---:|---:|---:|\n";
        for (const auto& [name, space_bounds] : layers) {
            const Mapspace space = Mapspace::build(arch, space_bounds, {std::nullopt, true});
            for (Phase phase : kAllPhases) {
                const PhaseProblem p = make_phase_problem(name, phase, space_bounds);
                std::vector<std::pair<std::string, SearchResult>> runs;
                for (std::int64_t budget : budgets) {
                    runs.emplace_back(
                        fmt::format("anneal, budget {}", budget),
                        search(arch, p, space, options(SearchStrategy::anneal, budget, 1)));
                }
                SearchOptions converging = options(SearchStrategy::anneal, kConvergingBudget, 1);
                converging.budget.stop_when_converged = true;
                runs.emplace_back("default (until converged)", search(arch, p, space, converging));
                double best = std::numeric_limits<double>::infinity();
                for (const auto& [_, r] : runs) best = std::min(best, r.best->edp());
                for (const auto& [label, r] : runs) {
                    std::cout << fmt::format("| {} | {} | {} | {} | {:.2f} | {:.4f} |\n", name,
                                             phase_name(phase), label, r.evaluations, r.seconds,
                                             r.best->edp() / best);
                }
            }
        }
    }
}
BENCHMARK(BM_SlowQualityCurve)->Iterations(1)->Unit(benchmark::kSecond);

// The default search's wall time with 1 and 2 threads (same result).
void BM_DefaultSearchThreads(benchmark::State& state) {
    const ArchModel arch = build_arch_model(baseline());
    const IterationSpace conv3x = testing::resnet18_conv3x();
    const Mapspace space = Mapspace::build(arch, conv3x, {std::nullopt, true});
    const PhaseProblem p = make_phase_problem("conv3x", Phase::fw, conv3x);
    SearchOptions o = options(SearchStrategy::anneal, kConvergingBudget, int(state.range(0)));
    o.budget.stop_when_converged = true;
    std::int64_t evaluations = 0;
    for (auto _ : state) evaluations += search(arch, p, space, o).evaluations;
    state.counters["evals_per_s"] =
        benchmark::Counter(double(evaluations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DefaultSearchThreads)->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->UseRealTime();

void BM_EvaluationsPerSecond(benchmark::State& state) {
    const ArchModel arch = build_arch_model(baseline());
    const IterationSpace conv3x = testing::resnet18_conv3x();
    const Mapspace space = Mapspace::build(arch, conv3x, {std::nullopt, true});
    const PhaseProblem p = make_phase_problem("conv3x", Phase::fw, conv3x);
    std::int64_t evaluations = 0;
    for (auto _ : state) {
        evaluations +=
            search(arch, p, space, options(SearchStrategy::random, 200'000, int(state.range(0))))
                .evaluations;
    }
    state.counters["evals_per_s"] =
        benchmark::Counter(double(evaluations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EvaluationsPerSecond)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace trainloop
