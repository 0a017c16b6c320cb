// The Cartesian-product evaluator (eval/cartesian_product.hpp) per layer-phase
// and over a whole network: what `trainloop cartesian` and `train-cost
// --evaluator cartesian` spend per distinct problem. ResNet-18 at minibatch 64;
// GSCN's array (arch_specs/gscn_4x64.yaml: split filters, predictor, 4 sample
// tiles) and SCNN's (planar 8 × 8, no predictor), F = I = 4, 32 banks.
// Run: build/bench/bench_cartesian   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "eval/cartesian_product.hpp"
#include "problem/training_problems.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

constexpr std::int64_t kBatch = 64;

CartesianConfig array(bool gscn) {
    CartesianConfig c;
    c.tiles_h = 8;
    c.tiles_w = 8;
    c.filter_vector = 4;
    c.input_vector = 4;
    c.accumulator_banks = 32;
    c.tiling = gscn ? CartesianTiling::split_filters : CartesianTiling::planar;
    c.predictor = gscn;
    c.sample_tiles = gscn ? 4 : 1;
    return c;
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

// range(0): the phase; range(1): 1 GSCN, 0 SCNN. layer1.0.conv1: 64 → 64
// channels, 56 × 56, 3 × 3.
void BM_CartesianLayerPhase(benchmark::State& state) {
    static const std::vector<LayerPhase> all = resnet18();
    const Phase phase = kAllPhases[static_cast<std::size_t>(state.range(0))];
    const CartesianConv& conv = find(all, "layer1.0.conv1", phase).conv;
    const CartesianConfig config = array(state.range(1) == 1);
    for (auto _ : state) {
        const CartesianCost cost = evaluate_cartesian(conv, config);
        benchmark::DoNotOptimize(cost.slowest_pe_cycles);
    }
    state.SetLabel(std::string(phase_name(phase)) + (state.range(1) == 1 ? " GSCN" : " SCNN"));
}
BENCHMARK(BM_CartesianLayerPhase)->ArgsProduct({{0, 1, 2}, {1, 0}})->Unit(benchmark::kMillisecond);

// Every layer-phase of ResNet-18 once (21 layers, 62 layer-phases): one
// training step's distinct problems.
void BM_CartesianResNet18Step(benchmark::State& state) {
    static const std::vector<LayerPhase> all = resnet18();
    const CartesianConfig config = array(state.range(0) == 1);
    for (auto _ : state) {
        double cycles = 0;
        for (const LayerPhase& lp : all)
            cycles += evaluate_cartesian(lp.conv, config).slowest_pe_cycles;
        benchmark::DoNotOptimize(cycles);
    }
    state.SetLabel(state.range(0) == 1 ? "GSCN" : "SCNN");
}
BENCHMARK(BM_CartesianResNet18Step)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace trainloop
