#include "run/run_setup.hpp"

#include <stdexcept>

#include "common/spec_node.hpp"
#include "constraints/constraints_parser.hpp"
#include "eval/on_chip_weights.hpp"

namespace trainloop {

MappingConstraints merged_constraints(const Architecture& arch,
                                      const MappingConstraints& arch_constraints,
                                      const std::optional<ConstraintsFileInput>& file) {
    if (!file) return arch_constraints;
    // Parsed from the text that identifies the run, not read again from disk.
    const ConstraintsFile parsed = parse_constraints_file(
        SpecNode::load_string(file->text, file->file), arch.levels, arch.pe_array);
    MappingConstraints merged = merge_constraints(arch_constraints, parsed.constraints);
    check_constraints_consistent(merged);
    return merged;
}

NetworkMapOptions network_map_options(const SearchSettings& search, int threads) {
    NetworkMapOptions options;
    options.search.objective = search.objective;
    options.search.strategy = search.strategy;
    options.search.budget.max_evaluations = search.budget;
    options.search.budget.patience = search.patience;
    options.search.budget.stop_when_converged = search.stop_when_converged;
    options.search.seed = search.seed;
    options.search.threads = threads;
    options.time_budget_seconds = search.time_budget_seconds;
    return options;
}

RunSetup set_up_run(const RunSubject& subject, const RunSettings& settings, int threads,
                    PlanMapspaces mapspaces) {
    check_weights_fit_on_chip(subject.arch, subject.training);
    RunSetup setup;
    setup.constraints =
        merged_constraints(subject.arch, subject.arch_constraints, settings.constraints_file);
    setup.mapspace = {settings.dataflow, settings.bypass, setup.constraints,
                      settings.imperfect_factors, settings.imperfect_windows};
    check_dataflow_against_constraints(setup.mapspace);
    if (settings.training_run) {
        if (subject.sparsity == nullptr) {
            throw std::invalid_argument("set_up_run: a training run needs a sparsity profile");
        }
        setup.training_run =
            plan_training_run(subject.model, subject.training, settings.phases, setup.mapspace,
                              *subject.sparsity, subject.network, settings.training_run->iterations,
                              settings.training_run->samples, mapspaces);
        setup.plan = as_network_plan(*setup.training_run);
    } else {
        setup.plan =
            plan_network_mapping(subject.model, subject.training, settings.phases, setup.mapspace,
                                 subject.sparsity, subject.network, settings.iteration);
    }
    setup.options = network_map_options(settings.search, threads);
    setup.options.architecture_constraints = subject.arch_constraints;
    return setup;
}

}  // namespace trainloop
