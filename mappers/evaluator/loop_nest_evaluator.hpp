// The loop-nest evaluator, the default: each distinct problem's mappings are
// searched (map_network, search/search.hpp) and the best one's evaluation
// (eval/evaluation.hpp) is its cost. Its points' records are point_record.hpp's.
#pragma once

#include "evaluator/evaluator.hpp"

namespace trainloop {

class LoopNestEvaluator final : public Evaluator {
  public:
    constexpr std::string_view name() const override { return "loop-nest"; }
    std::string_view title() const override;
    std::string_view help() const override;
    bool searches_mappings() const override { return true; }
    std::string_view why_nothing_is_searched() const override { return {}; }
    bool costs_one_iteration() const override { return true; }
    bool places_zeros() const override { return false; }
    bool computes_workload_spread() const override { return true; }
    PlanMapspaces mapspaces() const override { return PlanMapspaces::build; }
    std::optional<ArchitectureGap> unsupported(const Architecture&) const override {
        return std::nullopt;  // every architecture has a loop-nest mapspace
    }
    std::string identity(const RunSettings& settings) const override;
    EvaluatedRun evaluate(const RunToEvaluate& run) const override;
    std::string run_summary(const TrainingRunCost& cost, std::int64_t evaluations,
                            const Architecture& arch, const RunSettings& settings) const override;
    nlohmann::json run_json(const Architecture& arch, const RunSettings& settings) const override;
};

}  // namespace trainloop
