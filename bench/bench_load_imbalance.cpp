// The closed-form load-imbalance estimate per call (it runs in the mapper's
// inner loop beside evaluate(), ~700 ns), for each density model and scheme,
// on the golden ResNet-18 conv3_x mapping (C along x, K along y, 16×16), and
// one Monte-Carlo reference run for scale. Allocations per call are counted.
// Run: build/bench/bench_load_imbalance   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include "imbalance/expected_ceiling.hpp"
#include "imbalance/load_imbalance.hpp"
#include "nest/nest_analysis.hpp"
#include "support/allocation_counter.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

struct Setup {
    ArchModel arch = testing::three_level(16, 16, 65536, 512);
    PhaseProblem fw = make_phase_problem("conv3x", Phase::fw, testing::resnet18_conv3x());
    Mapping mapping = testing::timeloop_golden_mapping();
    NestAnalysis nest = analyze_nest(fw, mapping);
    PhaseDensities densities;
};

// range(0): the density model; range(1): the balancing scheme.
Setup setup(std::int64_t model, std::int64_t scheme) {
    Setup s;
    s.arch.compute_skip.insert(DataSpace::weights);
    s.arch.load_balancing.scheme = LoadBalancingScheme(scheme);
    s.arch.load_balancing.axis = ArrayAxis::y;
    OperandDensity& w = s.densities.spaces[DataSpace::weights];
    w.density = 0.1;
    switch (model) {
        case 0:
            w.model = UniformModel{};
            break;
        case 1:
            w.model = NMModel{1, 8, 'c'};
            w.density = 0.125;
            break;
        case 2:
            w.model = ClusteredModel{ClusterDistribution::beta, 0.6, ClusterUnit::filter};
            break;
        default:  // two condition operands: sparse weights and inputs
            s.arch.compute_skip.insert(DataSpace::inputs);
            s.densities.spaces[DataSpace::inputs].density = 0.5;
            break;
    }
    return s;
}

void BM_ClosedForm(benchmark::State& state) {
    const Setup s = setup(state.range(0), state.range(1));
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        const LoadImbalance r =
            estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities);
        benchmark::DoNotOptimize(r.cycles);
    }
    state.counters["allocs_per_call"] =
        double(bench::allocations_so_far() - before) / double(state.iterations());
}
// Models: 0 uniform, 1 n_m, 2 clustered (per filter), 3 two operands; schemes 0..3.
BENCHMARK(BM_ClosedForm)->ArgsProduct({{0, 1, 2, 3}, {0}})->ArgsProduct({{2}, {1, 2, 3}});

// Flexible allocation with the 16 columns split over 4 instances of the level
// that feeds the PEs (Eager Pruning's sub-systems, each with its own tree: C
// 4 across them and 4 within each), the busiest-instance form (range 0 = 1)
// against the same spread in one instance (range 0 = 0), side by side; the
// density model as range 1 (as BM_ClosedForm).
void BM_FlexibleInstances(benchmark::State& state) {
    Setup s = setup(state.range(1), std::int64_t(LoadBalancingScheme::flexible_allocation));
    if (state.range(0) == 1) {
        s.arch.levels[1].instances = 4;
        s.arch.levels[1].mesh_x = 4;
        s.mapping.level(0).spatial_x = testing::loops({{Dim::C, 4}});
        s.mapping.level(1).spatial_x = testing::loops({{Dim::C, 4}});
        s.nest = analyze_nest(s.fw, s.mapping);
    }
    for (auto _ : state) {
        const LoadImbalance r =
            estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities);
        benchmark::DoNotOptimize(r.cycles);
    }
    state.counters["cycles"] =
        estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities).cycles;
}
BENCHMARK(BM_FlexibleInstances)->ArgsProduct({{0, 1}, {0, 2}});

// The same with a new density every call, so the per-thread cache of small-
// count results never hits: the cost of a first sight of a (tile, spread).
void BM_ClosedFormUncached(benchmark::State& state) {
    Setup s = setup(state.range(0), 0);
    OperandDensity& w = s.densities.spaces[DataSpace::weights];
    const double base = w.density;
    std::int64_t i = 0;
    for (auto _ : state) {
        w.density = base * (1.0 + 1e-9 * double(++i % 100000));
        const LoadImbalance r =
            estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities);
        benchmark::DoNotOptimize(r.cycles);
    }
}
BENCHMARK(BM_ClosedFormUncached)->Arg(0)->Arg(2);

// Flexible allocation's expected cycles E[⌈W/c⌉] (expected_ceiling.hpp) for a
// heavily reused weight on 2,048 PEs (AlexNet conv1 fw on eager_pruning_2048):
// the term-by-term threshold sum, about 10^5 terms (arg 0: what every
// evaluation paid before), against the dispatch, which sums the few hundred
// lattice points instead (arg 1). Side by side in one run.
void BM_ExpectedCeiling(benchmark::State& state) {
    const CeilingWork w{.mean = 4.2e9, .sd = 8.1e6, .integral = true, .lattice = 774400};
    const bool by_thresholds = state.range(0) == 0;
    for (auto _ : state) {
        const double cycles =
            by_thresholds ? expected_ceiling_by_thresholds(w, 2048) : expected_ceiling(w, 2048);
        benchmark::DoNotOptimize(cycles);
    }
}
BENCHMARK(BM_ExpectedCeiling)->Arg(0)->Arg(1);

// The busiest of 4 instances' sums, E[⌈max/c⌉] (expected_max_ceiling), for
// BM_FlexibleInstances' sums (64 tiles of 36 weights at density 0.1, each used
// 49 times, 4 waves packed: mean 45,158 MACs, σ 1,411, on 64 PEs): the
// term-by-term threshold sum, about 400 terms (arg 0: what the first version
// of the instance rule paid), against the dispatch (arg 1), side by side.
void BM_ExpectedMaxCeiling(benchmark::State& state) {
    const CeilingWork w{.mean = 45158, .sd = 1411, .integral = true, .lattice = 49};
    const bool by_thresholds = state.range(0) == 0;
    for (auto _ : state) {
        const double cycles = by_thresholds
                                  ? expected_max_ceiling_by_thresholds(w, 64, 4, 1e18)
                                  : expected_max_ceiling(w, 64, 4, 45158 + 1.03 * 1411, 1e18);
        benchmark::DoNotOptimize(cycles);
    }
}
BENCHMARK(BM_ExpectedMaxCeiling)->Arg(0)->Arg(1);

// Half-tile pairing on K,N with tiles of a few weights (the shape of the
// example mapping resnet18_3x3_CK_fw: 18-weight tiles at density 0.21, 16
// PEs along the balancing axis): the exact small-count pairing path
// (sparse/small_count_pairing.hpp), cached (range 0) and with a new density
// every call (range 1: the cost of a first sight).
void BM_SmallCountPairing(benchmark::State& state) {
    Setup s;
    s.arch.compute_skip.insert(DataSpace::weights);
    s.arch.load_balancing = {LoadBalancingScheme::half_tile_pairing, ArrayAxis::y};
    s.mapping.level(0).temporal = testing::loops({{Dim::N, 16}, {Dim::K, 4}, {Dim::C, 8}});
    s.mapping.level(2).temporal =
        testing::loops({{Dim::K, 2}, {Dim::R, 3}, {Dim::S, 3}, {Dim::P, 7}, {Dim::Q, 7}});
    s.nest = analyze_nest(s.fw, s.mapping);
    OperandDensity& w = s.densities.spaces[DataSpace::weights];
    w.density = 0.21;
    std::int64_t i = 0;
    for (auto _ : state) {
        if (state.range(0) == 1) w.density = 0.21 * (1.0 + 1e-9 * double(++i % 100000));
        const LoadImbalance r =
            estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities);
        benchmark::DoNotOptimize(r.cycles);
    }
}
BENCHMARK(BM_SmallCountPairing)->Arg(0)->Arg(1);

void BM_MonteCarlo256Waves(benchmark::State& state) {
    const Setup s = setup(2, 0);
    ImbalanceOptions o;
    o.method = ImbalanceMethod::monte_carlo;
    for (auto _ : state) {
        const LoadImbalance r =
            estimate_load_imbalance(s.arch, s.fw, s.mapping, s.nest, s.densities, o);
        benchmark::DoNotOptimize(r.cycles);
    }
}
BENCHMARK(BM_MonteCarlo256Waves)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trainloop
