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

const IterationSpace kConv3x = testing::resnet18_conv3x();

ArchModel baseline() { return testing::three_level(16, 16, 65536, 512); }

// conv3_x's forward phase on Timeloop's golden mapping: what every
// single-evaluation benchmark below evaluates.
const PhaseProblem kConv3xFw = make_phase_problem("conv3x", Phase::fw, kConv3x);
const Mapping kGoldenMapping = testing::timeloop_golden_mapping();

// Runs `evaluate_once` once per iteration and reports the heap allocations
// per evaluation (the hot path should make none).
template <typename EvaluateOnce>
void measure_one_evaluation(benchmark::State& state, EvaluateOnce&& evaluate_once) {
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        const Evaluation e = evaluate_once();
        benchmark::DoNotOptimize(e.energy_pj);
        benchmark::DoNotOptimize(e.cycles);
    }
    state.counters["allocs_per_eval"] =
        double(bench::allocations_so_far() - before) / double(state.iterations());
}

void BM_EvaluateOne(benchmark::State& state) {
    const ArchModel arch = baseline();
    measure_one_evaluation(state, [&] { return evaluate(arch, kConv3xFw, kGoldenMapping); });
}
BENCHMARK(BM_EvaluateOne);

// The same evaluation with the DRAM's bandwidth limited each way and on one
// shared bus (all three bind or not: the latency step checks each): the
// limits must not cost the hot path an allocation.
void BM_EvaluateOneBandwidthLimited(benchmark::State& state) {
    ArchModel arch = baseline();
    arch.levels[0].read_bandwidth = 16;
    arch.levels[0].write_bandwidth = 16;
    arch.levels[0].shared_bandwidth = 16;
    measure_one_evaluation(state, [&] { return evaluate(arch, kConv3xFw, kGoldenMapping); });
}
BENCHMARK(BM_EvaluateOneBandwidthLimited);

// The same evaluation on a sparse architecture (Procrustes-like: weights in
// CSB at the GLB, MACs skip zero weights and inputs, half-tile pairing along
// y) with ResNet-18 densities (weights 1/11.7, inputs 0.5): the closed-form
// load imbalance and the format sizes on top of the dense evaluation.
void BM_EvaluateOneSparse(benchmark::State& state) {
    ArchModel arch = baseline();
    arch.levels[1].set_format(DataSpace::weights, CompressedFormat::csb);
    arch.compute_skip.insert(DataSpace::weights);
    arch.compute_skip.insert(DataSpace::inputs);
    arch.load_balancing = {LoadBalancingScheme::half_tile_pairing, ArrayAxis::y};
    arch.has_sparse_features = true;
    PhaseDensities densities;
    densities.spaces[DataSpace::weights].density = 1.0 / 11.7;
    densities.spaces[DataSpace::inputs].density = 0.5;
    measure_one_evaluation(state,
                           [&] { return evaluate(arch, kConv3xFw, kGoldenMapping, densities); });
}
BENCHMARK(BM_EvaluateOneSparse);

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
    state.counters["allocs_per_eval"] = double(bench::allocations_so_far() - before) / evaluations;
    state.counters["ns_per_eval"] =
        benchmark::Counter(evaluations, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EvaluateRandomBatch)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trainloop
