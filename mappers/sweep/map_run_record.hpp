// `trainloop map ... --db FILE`: one map run written to the results store
// as a sweep of one point. The sweep's text is the run's description and its
// hash the run's identity (run/run_identity.hpp), so running the same command
// again rewrites the same point instead of adding a copy, and a run that
// differs in any input (constraints, patience, time budget included) is a
// point of its own; the specs are stored with their texts.
#pragma once

#include <cstdint>
#include <string>

#include "evaluator/evaluator.hpp"
#include "network/network_mapper.hpp"
#include "run/run_settings.hpp"
#include "store/results_store.hpp"

namespace trainloop {

// The run's inputs as the user named them.
struct MapRunInputs {
    std::string arch_file;  // resolved path
    std::string workload;   // as given: a shipped name or a file
    std::int64_t batch = 0;
    std::string sparsity;  // the profile as given (name or file); empty: dense
    RunSettings settings;
};

// Precondition: `result` has no failure.
void write_map_run(ResultsStore& store, const MapRunInputs& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result);

// `trainloop train-cost ... --db FILE` (run.settings.training_run set):
// the run as a one-point sweep, stored as a sweep's `iterations:` point is
// (its totals and samples in training_runs, its last sample's layers in
// results), filled by `evaluated` (what `evaluator` made of the run: with
// the loop-nest search, its searches of the plan's problems; with the
// Cartesian-product array, cartesian_point_record.hpp). Precondition:
// evaluated.costs is set (every problem has a cost).
void write_train_cost_run(ResultsStore& store, const MapRunInputs& run, const Evaluator& evaluator,
                          const Architecture& arch, const ArchModel& model, const Network& network,
                          const EvaluatedRun& evaluated);

}  // namespace trainloop
