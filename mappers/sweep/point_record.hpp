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

namespace trainloop {

struct PointContext {
    const Architecture& arch;
    const ArchModel& model;
    const NetworkTraining& training;
    const NetworkMapPlan& plan;  // the plan `result` was mapped from
    Objective objective = Objective::edp;
};

// Fills `record.results`, `record.totals`, `record.evaluations`, and
// `record.failure` when a layer-phase has no valid mapping; the coordinates
// of `record` are the caller's.
void fill_point_results(PointRecord& record, const PointContext& context,
                        const NetworkMapResult& result);

ArchitectureRecord architecture_record(const Architecture& arch, const ArchModel& model,
                                       const std::string& yaml);

}  // namespace trainloop
