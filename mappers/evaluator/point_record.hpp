// From a whole-network mapping to the record the results store writes: per
// layer-phase the best mapping (and, for the pareto objective, the other
// members of its search's front) in the one-line text form with the search's
// metrics (sparse ones included: effectual MACs, load imbalance), re-evaluated
// the way the search evaluated it (dense, or with the problem's densities)
// for its energy breakdown by component; per phase and per training step the
// totals. Used by `trainloop sweep` and `trainloop map --db`.
#pragma once

#include "network/network_mapper.hpp"
#include "run/run_identity.hpp"
#include "store/store_records.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

struct PointContext {
    const Architecture& arch;
    const ArchModel& model;
    const NetworkTraining& training;
    const NetworkMapPlan& plan;  // the plan `result` was mapped from (ignored for a training run)
    Objective objective = Objective::edp;
};

// Fills `record.results`, `record.totals`, `record.evaluations`, and
// `record.failure` when a layer-phase has no valid mapping; the coordinates
// of `record` are the caller's.
void fill_point_results(PointRecord& record, const PointContext& context,
                        const NetworkMapResult& result);

// A training run's totals and samples as stored; `samples` as requested.
TrainingRunRecord training_run_record(const TrainingRunCost& cost, std::int64_t samples);

// A whole training run's point (a sweep's `iterations:` point, `train-cost
// --db`): `result` holds the searches of `run`'s problems
// (map_network over as_network_plan(run)). The layer results are those of
// the run's last sample (the state training ends in) and `record.iteration`
// its iteration; when every search found a mapping, `record.training_run`
// holds the run's totals and samples (`samples` as requested). Throws
// std::overflow_error when the run's cycles do not fit in 64 bits.
void fill_training_run_results(PointRecord& record, const PointContext& context,
                               const TrainingRunPlan& run, NetworkMapResult result,
                               std::int64_t samples);

ArchitectureRecord architecture_record(const Architecture& arch, const ArchModel& model,
                                       const std::string& yaml);

}  // namespace trainloop
