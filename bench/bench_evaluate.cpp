// One evaluation of a ResNet-18 3×3 layer (conv3_x, batch 16) on a 16×16
// array with a 3-level hierarchy, and a batch of 10^5 random valid mappings.
// A counting global operator new (support/) shows heap allocations per evaluation.
// Run: build/bench/bench_evaluate   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <random>

#include "eval/evaluation.hpp"
#include "support/allocation_counter.hpp"
#include "support/eval_fixtures.hpp"
#include "support/random_mapping.hpp"

namespace trainloop {
namespace {

using testing::loops;
using testing::space_of;

const IterationSpace kConv3x = space_of({{Dim::N, 16}, {Dim::K, 128}, {Dim::C, 128}, {Dim::P, 28},
                                         {Dim::Q, 28}, {Dim::R, 3}, {Dim::S, 3}});

ArchModel baseline() { return testing::three_level(16, 16, 65536, 512); }

Mapping conv3x_mapping() {
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(0).temporal = loops({{Dim::N, 16}, {Dim::K, 4}, {Dim::C, 4}});
    m.level(1).temporal = loops({{Dim::P, 4}, {Dim::Q, 4}});
    m.level(1).spatial_x = loops({{Dim::C, 16}});
    m.level(1).spatial_y = loops({{Dim::K, 16}});
    m.level(2).temporal =
        loops({{Dim::K, 2}, {Dim::C, 2}, {Dim::R, 3}, {Dim::S, 3}, {Dim::P, 7}, {Dim::Q, 7}});
    return m;
}

void BM_EvaluateOne(benchmark::State& state) {
    const ArchModel arch = baseline();
    const PhaseProblem fw = make_phase_problem("conv3x", Phase::fw, kConv3x);
    const Mapping mapping = conv3x_mapping();
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        const Evaluation e = evaluate(arch, fw, mapping);
        benchmark::DoNotOptimize(e.energy_pj);
    }
    state.counters["allocs_per_eval"] =
        double(bench::allocations_so_far() - before) / double(state.iterations());
}
BENCHMARK(BM_EvaluateOne);

// 10^5 distinct valid mappings (drawn at random, invalid draws discarded),
// each evaluated in turn for fw, bw and wu; the mappings (~3 KB each) stream
// from memory, so this also measures the cost of not being in cache.
void BM_EvaluateRandomBatch(benchmark::State& state) {
    const ArchModel arch = baseline();
    const std::size_t count = std::size_t(state.range(0));
    const PhaseProblem problems[] = {make_phase_problem("conv3x", Phase::fw, kConv3x),
                                     make_phase_problem("conv3x", Phase::bw, kConv3x),
                                     make_phase_problem("conv3x", Phase::wu, kConv3x)};
    std::mt19937_64 rng(1);
    std::vector<Mapping> mappings;
    mappings.reserve(count);
    while (mappings.size() < count) {
        const Mapping m = testing::random_mapping(arch, kConv3x, rng);
        if (evaluate(arch, problems[0], m).valid()) mappings.push_back(m);
    }
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        for (std::size_t i = 0; i < count; ++i) {
            const Evaluation e = evaluate(arch, problems[i % 3], mappings[i]);
            benchmark::DoNotOptimize(e.energy_pj);
        }
    }
    const double evaluations = double(state.iterations()) * double(count);
    state.counters["allocs_per_eval"] =
        double(bench::allocations_so_far() - before) / evaluations;
    state.counters["ns_per_eval"] = benchmark::Counter(
        evaluations, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EvaluateRandomBatch)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trainloop
