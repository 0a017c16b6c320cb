// The Cartesian-product evaluator: each distinct problem of a training run
// on the architecture's `cartesian_product:` array, by its dataflow's closed
// form (training_run/cartesian_costs.hpp, docs/cartesian_product.md), with
// nothing searched. Its points' records are cartesian_point_record.hpp's.
#pragma once

#include "evaluator/evaluator.hpp"

namespace trainloop {

class CartesianEvaluator final : public Evaluator {
  public:
    constexpr std::string_view name() const override { return "cartesian"; }
    std::string_view title() const override;
    std::string_view help() const override;
    bool searches_mappings() const override { return false; }
    std::string_view why_nothing_is_searched() const override;
    // It costs whole runs: one iteration is `iterations: [1]`.
    bool costs_one_iteration() const override { return false; }
    bool places_zeros() const override { return true; }
    bool computes_workload_spread() const override { return false; }
    // Building them took 83 % of such a run's instructions (LeNet, callgrind).
    PlanMapspaces mapspaces() const override { return PlanMapspaces::none; }
    std::optional<ArchitectureGap> unsupported(const Architecture& arch) const override;
    std::string identity(const RunSettings& settings) const override;
    EvaluatedRun evaluate(const RunToEvaluate& run) const override;
    std::string run_summary(const TrainingRunCost& cost, std::int64_t evaluations,
                            const Architecture& arch, const RunSettings& settings) const override;
    nlohmann::json run_json(const Architecture& arch, const RunSettings& settings) const override;
};

}  // namespace trainloop
