// `trainloop map ... --db FILE`: one map run written to the results store
// as a sweep of one point. The sweep's text is a description of the run
// (arch file, network, batch, phases, dataflow, objective, search, budget,
// seed, bypass, sparsity profile and iteration), so running the same command
// again rewrites the same point instead of adding a copy; the specs are
// stored with their texts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "density/density_schedule.hpp"
#include "network/network_mapper.hpp"
#include "store/results_store.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

struct MapRunDescription {
    std::string arch_file;
    std::string workload;  // as given: a shipped name or a file
    std::int64_t batch = 0;
    std::vector<Phase> phases;
    std::string dataflow;
    Objective objective = Objective::edp;
    SearchStrategy search = SearchStrategy::anneal;
    std::int64_t budget = 0;
    std::uint64_t seed = 1;
    bool bypass = true;
    std::string sparsity;  // the profile as given (name or file); empty: dense
    std::int64_t iteration = kFinalIteration;
};

// A `train-cost --db` run: the run's length and samples (requested).
struct TrainCostDescription {
    std::int64_t iterations = 0;
    std::int64_t samples = 0;
};

// Precondition: `result` has no failure.
void write_map_run(ResultsStore& store, const MapRunDescription& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result);

// `trainloop train-cost ... --db FILE`: the run as a one-point sweep, stored
// as a sweep's `iterations:` point is (its totals and samples in
// training_runs, its last sample's layers in results). `result` holds the
// searches of `plan`'s problems (map_network over as_network_plan(plan)).
// Precondition: `result` has no failure.
void write_train_cost_run(ResultsStore& store, const MapRunDescription& run,
                          const TrainCostDescription& length, const Architecture& arch,
                          const ArchModel& model, const Network& network,
                          const NetworkTraining& training, const TrainingRunPlan& plan,
                          NetworkMapResult result, const TrainingRunCost& cost);

}  // namespace trainloop
