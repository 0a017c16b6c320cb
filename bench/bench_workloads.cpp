// Parse + build + derive all training phases of every shipped network.
// Run: build/bench/bench_workloads   (record results in bench/RESULTS.md)
#include <benchmark/benchmark.h>

#include "common/spec_node.hpp"
#include "problem/training_problems.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

// From file on disk to phase problems, as `trainloop workload show` does.
void BM_LoadAndDerive(benchmark::State& state, const std::string& name) {
    std::int64_t problems = 0;
    for (auto _ : state) {
        const Network network = load_network(name);
        const NetworkTraining training = derive_training_problems(network, kDefaultBatch);
        for (const auto& layer : training.layers) problems += std::ssize(layer.phases);
        benchmark::DoNotOptimize(training.forward_macs());
    }
    state.counters["phase_problems"] =
        benchmark::Counter(double(problems) / double(state.iterations()));
}

// Only the graph checks + shape propagation + phase derivation, on a parsed spec.
void BM_BuildAndDerive(benchmark::State& state, const std::string& name) {
    const NetworkSpec spec = load_network_spec(resolve_network(name));
    for (auto _ : state) {
        const Network network = Network::build(spec);
        benchmark::DoNotOptimize(derive_training_problems(network, kDefaultBatch).forward_macs());
    }
}

void BM_AllShippedNetworks(benchmark::State& state) {
    const std::vector<std::string> names = shipped_network_names();
    for (auto _ : state) {
        for (const std::string& name : names) {
            const Network network = load_network(name);
            benchmark::DoNotOptimize(
                derive_training_problems(network, kDefaultBatch).forward_macs());
        }
    }
    state.counters["networks"] = double(names.size());
}

const bool registered = [] {
    for (const std::string& name : shipped_network_names()) {
        benchmark::RegisterBenchmark(("LoadAndDerive/" + name).c_str(), BM_LoadAndDerive, name)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("BuildAndDerive/" + name).c_str(), BM_BuildAndDerive, name)
            ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark("AllShippedNetworks", BM_AllShippedNetworks)
        ->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace
}  // namespace trainloop
