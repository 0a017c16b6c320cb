#include "evaluator/cartesian_evaluator.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "evaluator/cartesian_point_record.hpp"
#include "training_run/cartesian_costs.hpp"

namespace trainloop {

std::string_view CartesianEvaluator::title() const { return "the Cartesian-product evaluator"; }

std::string_view CartesianEvaluator::help() const {
    return "evaluate each conv and fc layer-phase on the architecture's Cartesian-product array "
           "(its `cartesian_product:` section: SCNN's and GSCN's dataflow, "
           "docs/cartesian_product.md), no search";
}

std::string_view CartesianEvaluator::why_nothing_is_searched() const {
    return "the Cartesian-product array has its own dataflow and nothing is searched";
}

std::optional<ArchitectureGap> CartesianEvaluator::unsupported(const Architecture& arch) const {
    if (arch.cartesian) return std::nullopt;
    return ArchitectureGap{"cartesian_product", "gscn_4x64", "Cartesian-product array"};
}

std::string CartesianEvaluator::identity(const RunSettings& settings) const {
    std::string lines = fmt::format("  evaluator: {}\n", name());
    // Written only when not the default, as the run's other settings.
    if (settings.cartesian_zeros == CartesianZeros::random) lines += "  zeros: random\n";
    return lines;
}

EvaluatedRun CartesianEvaluator::evaluate(const RunToEvaluate& run) const {
    const RunSubject& subject = run.subject;
    if (!subject.arch.cartesian || !run.setup.training_run) {
        throw std::logic_error("CartesianEvaluator::evaluate: no array, or not a training run");
    }
    const TrainingRunPlan& plan = *run.setup.training_run;
    // Every problem evaluated once by the dataflow's closed form.
    auto costs = std::make_shared<const std::vector<CartesianProblemCost>>(
        cartesian_problem_costs(plan, subject.training, *subject.arch.cartesian, subject.model,
                                run.batch, run.settings.cartesian_zeros));
    EvaluatedRun evaluated;
    evaluated.costs = integrated_costs(*costs);
    evaluated.fill_record = [&subject, &plan, &settings = run.settings,
                             costs](PointRecord& record) {
        fill_cartesian_run_results(record, subject.arch, subject.training, plan, *costs,
                                   settings.cartesian_zeros, settings.training_run->samples);
    };
    return evaluated;
}

std::string CartesianEvaluator::run_summary(const TrainingRunCost& cost, std::int64_t,
                                            const Architecture& arch,
                                            const RunSettings& settings) const {
    const CartesianArray& a = *arch.cartesian;
    return fmt::format(
        "evaluated {} distinct problems ({} sparse states, the rest dense) on the "
        "Cartesian-product array: {}{}×{} PEs, F×I = {}×{}, {} tiling{}, {} zeros (no "
        "search)\n",
        cost.problems, cost.sparse_states,
        fmt::format(
            "{}{}", a.sample_tiles > 1 ? fmt::format("{} tiles of ", a.sample_tiles) : "",
            a.filter_groups > 1 ? fmt::format("{} filter groups of ", a.filter_groups) : ""),
        a.tiles_h, a.tiles_w, a.filter_vector, a.input_vector, cartesian_tiling_name(a.tiling),
        a.predictor ? " with GSCN's predictor" : "",
        cartesian_zeros_name(settings.cartesian_zeros));
}

nlohmann::json CartesianEvaluator::run_json(const Architecture& arch,
                                            const RunSettings& settings) const {
    const CartesianArray& a = *arch.cartesian;
    nlohmann::json array = {{"pe_rows", a.tiles_h},
                            {"pe_columns", a.tiles_w},
                            {"filter_vector", a.filter_vector},
                            {"input_vector", a.input_vector},
                            {"accumulator_banks", a.accumulator_banks},
                            {"tiling", cartesian_tiling_name(a.tiling)},
                            {"predictor", a.predictor},
                            {"sample_tiles", a.sample_tiles},
                            {"zeros", cartesian_zeros_name(settings.cartesian_zeros)}};
    // Given where they differ from the defaults (a run without them reads as before).
    if (a.filter_groups != 1) array["filter_groups"] = a.filter_groups;
    if (a.bank_stalls != CartesianBankStalls::unbuffered)
        array["bank_stalls"] = cartesian_bank_stalls_name(a.bank_stalls);
    nlohmann::json keys;
    keys["cartesian_product"] = std::move(array);
    return keys;
}

}  // namespace trainloop
