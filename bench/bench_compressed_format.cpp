// compressed_size() per format on the tiles an evaluation sees, and
// crossover_density() (bisection). The evaluator calls compressed_size()
// for every level and data space of every evaluation, so it must stay far
// below an evaluation's time (bench_evaluate) and allocate nothing.
// Run: build/bench/bench_compressed_format   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <string>

#include "problem/iteration_space.hpp"
#include "sparse/compressed_format.hpp"
#include "sparse/fibertree.hpp"
#include "support/allocation_counter.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

TensorTile make_tile(std::initializer_list<std::int64_t> extents) {
    TensorTile t;
    t.rank = std::uint8_t(extents.size());
    std::uint8_t a = 0;
    for (std::int64_t e : extents) t.extent[a++] = e;
    return t;
}

// Weights [g, k, c, r, s]: a GLB tile of 3×3 kernels (rows of 3, summed
// exactly), an FC tile (rows of 256 along c, normal approximation), and an
// RF-sized tile.
const TensorTile kTiles[] = {make_tile({1, 16, 16, 3, 3}), make_tile({1, 64, 256, 1, 1}),
                             make_tile({1, 4, 4, 1, 1})};
const char* const kTileNames[] = {"conv16x16x3x3", "fc64x256", "rf4x4"};

void BM_CompressedSize(benchmark::State& state) {
    const auto format = CompressedFormat(state.range(0));
    const TensorTile& tile = kTiles[state.range(1)];
    const DensityModel model = UniformModel{};
    double density = 0.1;
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        benchmark::DoNotOptimize(density);
        const CompressedSize s =
            compressed_size(format, tile, DataSpace::weights, density, model, 32);
        benchmark::DoNotOptimize(s);
        density = density < 0.9 ? density + 0.01 : 0.1;  // no result reuse across iterations
    }
    state.counters["allocs_per_call"] =
        double(bench::allocations_so_far() - before) / double(state.iterations());
    state.SetLabel(std::string(compressed_format_name(format)) + "/" + kTileNames[state.range(1)]);
}
BENCHMARK(BM_CompressedSize)->ArgsProduct({benchmark::CreateDenseRange(0, 6, 1), {0, 1, 2}});

void BM_CrossoverDensity(benchmark::State& state) {
    const auto format = CompressedFormat(state.range(0));
    const TensorTile& tile = kTiles[1];
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            crossover_density(format, tile, DataSpace::weights, UniformModel{}, 32));
    }
    state.SetLabel(std::string(compressed_format_name(format)) + "/" + kTileNames[1]);
}
BENCHMARK(BM_CrossoverDensity)->DenseRange(0, 6, 1)->Unit(benchmark::kMicrosecond);

// A fibertree tile as the evaluator computes it: its ranks from a mapping
// (fibertree_shape) and its size (fibertree_size), against the flat csr
// of the same tile in the same run. Weights K64 × C256 over four loops
// (K4 K16 at the outer level, C16 C16 inside), uniform density swept.
void BM_FibertreeSize(benchmark::State& state) {
    IterationSpace space;
    space.bounds.values.fill(1);
    space.bounds[Dim::K] = 64;
    space.bounds[Dim::C] = 256;
    const Projection w = projection_for(DataSpace::weights, space);
    Mapping m;
    m.num_levels = 2;
    m.levels[0].temporal.push_back({Dim::K, 4});
    m.levels[0].temporal.push_back({Dim::C, 16});
    m.levels[1].temporal.push_back({Dim::K, 16});
    m.levels[1].temporal.push_back({Dim::C, 16});
    RankFormats ranks;
    const int kind = int(state.range(0));
    if (kind == 1) {
        ranks.push_back(RankFormat::uop);
        ranks.push_back(RankFormat::cp);
    } else if (kind == 2) {
        for (int r = 0; r < 4; ++r) ranks.push_back(RankFormat::b);
    }
    const DensityModel model = UniformModel{};
    double density = 0.1;
    const std::int64_t before = bench::allocations_so_far();
    for (auto _ : state) {
        benchmark::DoNotOptimize(density);
        if (kind == 0) {
            const TensorTile tile = make_tile({1, 64, 256, 1, 1});
            benchmark::DoNotOptimize(compressed_size(CompressedFormat::csr, tile,
                                                     DataSpace::weights, density, model, 32));
        } else {
            const FiberTreeShape shape = fibertree_shape(w, space.bounds, m, 0, ranks.size());
            benchmark::DoNotOptimize(
                fibertree_size(ranks, shape, DataSpace::weights, density, model));
        }
        density = density < 0.9 ? density + 0.01 : 0.1;
    }
    state.counters["allocs_per_call"] =
        double(bench::allocations_so_far() - before) / double(state.iterations());
    const char* const names[] = {"flat csr", "fibertree [UOP, CP]", "fibertree [B, B, B, B]"};
    state.SetLabel(names[kind]);
}
BENCHMARK(BM_FibertreeSize)->DenseRange(0, 2, 1);

}  // namespace
}  // namespace trainloop
