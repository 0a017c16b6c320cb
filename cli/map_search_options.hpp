// The options `map` and `train-cost` share: what to map (architecture,
// workload, batch, phases) and how to search (dataflow, objective, strategy,
// budgets, seed, threads, bypass, constraints), registered in one place so
// the two commands take the same flags with the same defaults.
#pragma once

#include <CLI/CLI.hpp>

#include "map_options.hpp"

namespace trainloop::cli {

inline void add_mapping_search_options(CLI::App* command, MapOptions& o) {
    command->add_option("--arch,-a", o.arch, "Architecture YAML file")
        ->required()
        ->check(CLI::ExistingFile);
    command->add_option("--workload,-w", o.workload, "Shipped network name or network YAML file")
        ->required();
    command->add_option("--batch,-b", o.batch, "Minibatch size N")
        ->default_val(kDefaultBatch)
        ->check(CLI::PositiveNumber);
    command->add_option("--phase,-p", o.phase, "Training phase(s) to map")
        ->default_val("all")
        ->check(CLI::IsMember({"fw", "bw", "wu", "all"}));
    command
        ->add_option("--dataflow,-d", o.dataflow,
                     "Dimensions across the PE array's columns and rows, X,Y: C,K K,N P,Q C,N (two "
                     "letters split an axis, e.g. KC,N), or `any` to let the mapper choose")
        ->default_val("any");
    command->add_option("--objective", o.objective, "What the best mapping minimizes")
        ->default_val("edp")
        ->check(CLI::IsMember(objective_names()));
    command->add_option("--search", o.search, "Search strategy")
        ->default_val("anneal")
        ->check(CLI::IsMember(strategy_names()));
    command
        ->add_option("--budget", o.budget,
                     "Evaluations per distinct layer-phase problem (0: no limit; exhaustive: the "
                     "whole mapspace)")
        ->default_val(SearchBudget{}.max_evaluations)
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option("--time-budget", o.time_budget,
                     "Seconds for the whole network, shared out over the problems still to search "
                     "(0: none; results then depend on the machine)")
        ->default_val(0)
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option("--patience", o.patience,
                     "Stop a search after this many evaluations without improvement (0: never)")
        ->default_val(0)
        ->check(CLI::NonNegativeNumber);
    command->add_option("--threads,-j", o.threads, "Worker threads (0: all cores)")
        ->default_val(0)
        ->check(CLI::NonNegativeNumber);
    command->add_option("--seed", o.seed, "Random seed (same seed, same result)")->default_val(1);
    command->add_flag("--no-bypass", o.no_bypass,
                      "Every level keeps every tensor it may hold (do not explore bypass; a "
                      "constraint's required bypasses still apply)");
    command
        ->add_option("--constraints", o.constraints,
                     "Mapping constraints YAML (fixed spatial dimensions and factors, factor "
                     "bounds, loop orders, keep/bypass; docs/mapping_constraints.md). They add to "
                     "the architecture's `constraints:` and override its entries one by one")
        ->check(CLI::ExistingFile);
}

}  // namespace trainloop::cli
