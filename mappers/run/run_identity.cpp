#include "run/run_identity.hpp"

#include <fmt/format.h>

#include "common/yaml_text.hpp"
#include "store/content_hash.hpp"

namespace trainloop {

std::string phases_text(const std::vector<Phase>& phases) {
    std::string text;
    for (Phase p : phases) {
        if (!text.empty()) text += ',';
        text += phase_name(p);
    }
    return text;
}

RunIdentity map_run_identity(const SpecText& arch, const SpecText& network, std::int64_t batch,
                             const SpecText& sparsity, const RunSettings& settings,
                             std::string_view evaluator_lines) {
    const std::optional<TrainingRunLength>& length = settings.training_run;
    const SearchSettings& search = settings.search;
    const std::string constraints =
        settings.constraints_file
            ? fmt::format("{{file: {}, hash: {}}}", yaml_scalar(settings.constraints_file->file),
                          content_hash(settings.constraints_file->text))
            : std::string("none");
    RunIdentity id;
    const std::string command = length ? "train-cost" : "map";
    id.description =
        fmt::format("# trainloop {0} --db\n{0}:\n", command) +
        fmt::format(
            "  arch: {}\n  workload: {}\n  batch: {}\n  phases: [{}]\n"
            "  dataflow: {}\n  objective: {}\n  search: {}\n  budget: {}\n  patience: {}\n"
            "  time_budget: {}\n  seed: {}\n  bypass: {}\n  constraints: {}\n  sparsity: {}\n"
            "  iteration: {}\n",
            yaml_scalar(arch.name), yaml_scalar(network.name), batch, phases_text(settings.phases),
            yaml_scalar(settings.dataflow ? to_string(*settings.dataflow) : "any"),
            objective_name(search.objective), strategy_name(search.strategy), search.budget,
            search.patience, search.time_budget_seconds, search.seed,
            settings.bypass ? "true" : "false", constraints, yaml_scalar(sparsity.name),
            settings.iteration == kFinalIteration ? std::string("final")
                                                  : std::to_string(settings.iteration));
    if (search.stop_when_converged) id.description += "  until_converged: true\n";
    // Written only when set, so the runs stored before the option keep their identity.
    if (settings.imperfect_factors) id.description += "  imperfect_factors: true\n";
    if (settings.imperfect_windows) id.description += "  imperfect_windows: true\n";
    if (length) {
        id.description +=
            fmt::format("  iterations: {}\n  samples: {}\n", length->iterations, length->samples);
        id.description += evaluator_lines;
    }
    std::string hashed = id.description + content_hash(arch.yaml) + content_hash(network.yaml) +
                         content_hash(sparsity.yaml);
    if (settings.constraints_file) hashed += content_hash(settings.constraints_file->text);
    id.hash = content_hash(hashed);
    return id;
}

}  // namespace trainloop
