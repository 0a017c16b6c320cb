// The Cartesian-product evaluator (cartesian/cartesian_product.hpp) per layer-phase
// and over a whole network: what `trainloop cartesian` and `train-cost
// --evaluator cartesian` spend per distinct problem. ResNet-18 at minibatch 64;
// GSCN's array (arch_specs/gscn_4x64.yaml: split filters, predictor, 4 sample
// tiles), SCNN's (planar 8 × 8, no predictor) and Eager Pruning's SCNN
// (arch_specs/eager_pruning_scnn_baseline.yaml: 32 filter groups of planar
// 2 × 2 PEs, bank stalls absorbed), F = I = 4, 32 banks.
// Run: build/bench/bench_cartesian   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "cartesian/cartesian_product.hpp"
#include "problem/training_problems.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

constexpr std::int64_t kBatch = 64;

enum ArrayKind : std::int64_t { kScnn = 0, kGscn = 1, kEagerPruningScnn = 2 };

CartesianConfig array(std::int64_t kind) {
    const bool gscn = kind == kGscn;
    CartesianConfig c;
    c.tiles_h = kind == kEagerPruningScnn ? 2 : 8;
    c.tiles_w = c.tiles_h;
    c.filter_vector = 4;
    c.input_vector = 4;
    c.accumulator_banks = 32;
    c.tiling = gscn ? CartesianTiling::split_filters : CartesianTiling::planar;
    c.predictor = gscn;
    c.sample_tiles = gscn ? 4 : 1;
    if (kind == kEagerPruningScnn) {
        c.filter_groups = 32;
        c.bank_stalls = CartesianBankStalls::none;
    }
    return c;
}

const char* array_name(std::int64_t kind) {
    return kind == kGscn ? "GSCN" : kind == kScnn ? "SCNN" : "EP's SCNN";
}

// Every conv and fc layer-phase of ResNet-18 as the evaluator takes it.
struct LayerPhase {
    std::string layer;
    Phase phase;
    CartesianConv conv;
};

std::vector<LayerPhase> resnet18() {
    const Network network = load_network("resnet18");  // the training's layers point into it
    const NetworkTraining training = derive_training_problems(network, kBatch);
    std::vector<LayerPhase> out;
    for (const LayerTraining& lt : training.layers) {
        const AnalyzedLayer& al = *lt.layer;
        for (const PhaseProblem& pp : lt.phases)
            out.push_back({al.layer.name, pp.phase,
                           cartesian_conv_of(al.layer, al.input_shapes.at(0), al.output_shape,
                                             kBatch, pp.phase)});
    }
    return out;
}

const LayerPhase& find(const std::vector<LayerPhase>& all, const std::string& layer, Phase phase) {
    for (const LayerPhase& lp : all)
        if (lp.layer == layer && lp.phase == phase) return lp;
    throw std::logic_error("no layer-phase " + layer);
}

// range(0): the phase; range(1): the ArrayKind. layer1.0.conv1: 64 → 64
// channels, 56 × 56, 3 × 3.
void BM_CartesianLayerPhase(benchmark::State& state) {
    static const std::vector<LayerPhase> all = resnet18();
    const Phase phase = kAllPhases[static_cast<std::size_t>(state.range(0))];
    const CartesianConv& conv = find(all, "layer1.0.conv1", phase).conv;
    const CartesianConfig config = array(state.range(1));
    for (auto _ : state) {
        const CartesianCost cost = evaluate_cartesian(conv, config);
        benchmark::DoNotOptimize(cost.slowest_pe_cycles);
    }
    state.SetLabel(std::string(phase_name(phase)) + " " + array_name(state.range(1)));
}
BENCHMARK(BM_CartesianLayerPhase)
    ->ArgsProduct({{0, 1, 2}, {kGscn, kScnn, kEagerPruningScnn}})
    ->Unit(benchmark::kMillisecond);

// Every layer-phase of ResNet-18 once (21 layers, 62 layer-phases): one
// training step's distinct problems. range(0): the ArrayKind.
void BM_CartesianResNet18Step(benchmark::State& state) {
    static const std::vector<LayerPhase> all = resnet18();
    const CartesianConfig config = array(state.range(0));
    for (auto _ : state) {
        double cycles = 0;
        for (const LayerPhase& lp : all)
            cycles += evaluate_cartesian(lp.conv, config).slowest_pe_cycles;
        benchmark::DoNotOptimize(cycles);
    }
    state.SetLabel(array_name(state.range(0)));
}
BENCHMARK(BM_CartesianResNet18Step)
    ->Arg(kGscn)
    ->Arg(kScnn)
    ->Arg(kEagerPruningScnn)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trainloop
