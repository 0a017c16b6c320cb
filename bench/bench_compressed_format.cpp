// compressed_size() per format on the tiles an evaluation sees, and
// crossover_density() (bisection). The evaluator calls compressed_size()
// for every level and data space of every evaluation, so it must stay far
// below an evaluation's time (bench_evaluate) and allocate nothing.
// Run: build/bench/bench_compressed_format   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <string>

#include "sparse/compressed_format.hpp"
#include "support/allocation_counter.hpp"

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

}  // namespace
}  // namespace trainloop
