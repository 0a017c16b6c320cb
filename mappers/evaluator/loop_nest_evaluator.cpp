#include "evaluator/loop_nest_evaluator.hpp"

#include <fmt/format.h>

#include "common/count_format.hpp"
#include "evaluator/point_record.hpp"

namespace trainloop {

std::string_view LoopNestEvaluator::title() const { return "the loop-nest evaluator"; }

std::string_view LoopNestEvaluator::help() const {
    return "search each problem's mappings (the mapper)";
}

std::string LoopNestEvaluator::identity(const RunSettings&) const {
    return {};  // the default: runs stored before evaluators had names keep their identity
}

EvaluatedRun LoopNestEvaluator::evaluate(const RunToEvaluate& run) const {
    const RunSubject& subject = run.subject;
    const RunSetup& setup = run.setup;
    auto searches = std::make_shared<const NetworkMapResult>(
        map_network(subject.model, subject.training, setup.plan, setup.options, run.progress));
    EvaluatedRun evaluated;
    evaluated.costs = problem_costs(*searches);
    evaluated.evaluations = searches->evaluations;
    evaluated.searches = searches;
    // The record's metrics are those the search kept with each candidate.
    evaluated.fill_record = [&subject, &setup, &settings = run.settings,
                             searches](PointRecord& record) {
        const PointContext context{subject.arch, subject.model, subject.training, setup.plan,
                                   settings.search.objective};
        if (setup.training_run) {
            // Reads the last sample's layers into its own copy of the searches.
            fill_training_run_results(record, context, *setup.training_run, *searches,
                                      settings.training_run->samples);
        } else {
            fill_point_results(record, context, *searches);
        }
    };
    return evaluated;
}

std::string LoopNestEvaluator::run_summary(const TrainingRunCost& cost, std::int64_t evaluations,
                                           const Architecture&, const RunSettings&) const {
    return fmt::format(
        "mapped {} distinct problems ({} sparse states, the rest dense), {} "
        "evaluations\n",
        cost.problems, cost.sparse_states, group_thousands(evaluations));
}

nlohmann::json LoopNestEvaluator::run_json(const Architecture&, const RunSettings&) const {
    return nlohmann::json::object();  // the search's settings are the CLI's (search_settings_json)
}

}  // namespace trainloop
