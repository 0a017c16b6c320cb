// What `trainloop train-cost` prints (train_cost_command.hpp has the JSON
// layout): the samples table and the run's totals beside dense training.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "arch/architecture.hpp"
#include "evaluator/evaluators.hpp"
#include "map_options.hpp"
#include "mapspace/dataflow.hpp"
#include "run/run_settings.hpp"
#include "training_run/training_run.hpp"
#include "workload/network.hpp"

namespace trainloop::cli {

struct TrainCostOptions {
    MapOptions map;  // --sparsity is required; --iteration and --export do not apply
    std::int64_t iterations = 0;
    std::int64_t samples = 16;
    const Evaluator* evaluator = &default_evaluator();  // --evaluator
    std::optional<CartesianZeros> zeros;  // --zeros (with an evaluator that places_zeros() only)
};

struct TrainCostRun {
    const TrainCostOptions& options;
    const RunSettings& settings;
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
