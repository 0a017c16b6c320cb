// What `trainloop train-cost` prints (train_cost_command.hpp has the JSON
// layout): the samples table and the run's totals beside dense training.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "arch/architecture.hpp"
#include "map_options.hpp"
#include "mapspace/dataflow.hpp"
#include "training_run/training_run.hpp"
#include "workload/network.hpp"

namespace trainloop::cli {

// Which model costs each of the run's problems (`--evaluator`).
enum class RunEvaluator {
    loop_nest,  // search each problem's loop-nest mappings (the mapper)
    cartesian,  // the architecture's Cartesian-product array (training_run/cartesian_costs.hpp)
};

inline constexpr std::array kRunEvaluators{RunEvaluator::loop_nest, RunEvaluator::cartesian};

// The option's spelling, also the JSON's "evaluator".
constexpr std::string_view run_evaluator_name(RunEvaluator e) {
    switch (e) {
        case RunEvaluator::loop_nest:
            return "loop-nest";
        case RunEvaluator::cartesian:
            return "cartesian";
    }
    return "";
}

struct TrainCostOptions {
    MapOptions map;  // --sparsity is required; --iteration and --export do not apply
    std::int64_t iterations = 0;
    std::int64_t samples = 16;
    RunEvaluator evaluator = RunEvaluator::loop_nest;
};

struct TrainCostRun {
    const TrainCostOptions& options;
    const Architecture& arch;
    const Network& network;
    const TrainingRunPlan& plan;
    const TrainingRunCost& cost;
    std::int64_t evaluations = 0;
    std::optional<Dataflow> dataflow;
};

std::string train_cost_to_text(const TrainCostRun& run);
nlohmann::json train_cost_to_json(const TrainCostRun& run);

}  // namespace trainloop::cli
