// The options `map` and `train-cost` share: what to map (architecture,
// workload, batch, phases) and how to search (dataflow, objective, strategy,
// budgets, seed, threads, bypass, constraints), registered in one place so
// the two commands take the same flags with the same defaults and the same
// strict number checks (number_options.hpp), and turned into the run's
// settings (run/run_settings.hpp) in one place, the value `sweep` builds
// from a sweep file.
#pragma once

#include <CLI/CLI.hpp>
#include <limits>

#include "common/file_text.hpp"
#include "map_options.hpp"
#include "number_options.hpp"
#include "run/run_settings.hpp"

namespace trainloop::cli {

inline void add_mapping_search_options(CLI::App* command, MapOptions& o) {
    command
        ->add_option("--arch,-a", o.arch,
                     "Shipped architecture name (arch_specs/) or architecture YAML file")
        ->required();
    command->add_option("--workload,-w", o.workload, "Shipped network name or network YAML file")
        ->required();
    command->add_option("--batch,-b", o.batch, "Minibatch size N")
        ->default_val(kDefaultBatch)
        ->transform(count_from(1));
    command->add_option("--phase,-p", o.phase, "Training phase(s) to map")
        ->default_val("all")
        ->check(CLI::IsMember({"fw", "bw", "wu", "all"}));
    command
        ->add_option("--dataflow,-d", o.dataflow,
                     "Dimensions across the PE array's columns and rows, X,Y: C,K K,N P,Q C,N (two "
                     "letters split an axis, e.g. KC,N; K and C are a layer's channels, so a "
                     "grouped or depthwise layer's groups G join their axis unless G is named), or "
                     "`any` to let the mapper choose")
        ->default_val("any");
    command
        ->add_option("--objective", o.objective,
                     "What the best mapping minimizes: energy, latency (cycles; ties to the lower "
                     "energy), edp (energy × "
                     "cycles), pareto (keep the energy-cycles front), offchip (words moved to "
                     "and from the outermost level, metadata included; ties to the lower energy)")
        ->default_val("edp")
        ->check(CLI::IsMember(objective_names()));
    command->add_option("--search", o.search, "Search strategy")
        ->default_val("anneal")
        ->check(CLI::IsMember(strategy_names()));
    command
        ->add_option("--budget", o.budget,
                     "Evaluations per distinct layer-phase problem (0: no limit; exhaustive: the "
                     "whole mapspace); anneal's chains then each end with a hill climb, at most a "
                     "quarter more (it stops at a local optimum). Absent: random and "
                     "anneal search in rounds of fresh chains, each three times the one before, "
                     "until two rounds agree "
                     "within 0.5 % (converged), at most 400000 evaluations, about half a second "
                     "per problem on one core")
        ->default_str("until converged")
        ->each([&o](const std::string&) { o.fixed_budget = true; })
        ->transform(count_from(0));
    command
        ->add_option("--time-budget", o.time_budget,
                     "Seconds for the whole network, shared out over the problems still to search "
                     "(0: none; results then depend on the machine)")
        ->default_val(0)
        ->transform(finite_number_in(0, 1e9));
    command
        ->add_option("--patience", o.patience,
                     "Stop a search after this many evaluations without improvement (0: never)")
        ->default_val(0)
        ->transform(count_from(0));
    command
        ->add_option("--threads,-j", o.threads,
                     "Worker threads (0: all cores; more than the machine has are capped)")
        ->default_val(0)
        ->transform(integer_in(0, std::numeric_limits<int>::max()));
    command->add_option("--seed", o.seed, "Random seed (same seed, same result)")
        ->default_val(1)
        ->transform(unsigned_integer());
    command->add_flag("--no-bypass", o.no_bypass,
                      "Every level keeps every tensor it may hold (do not explore bypass; a "
                      "constraint's required bypasses still apply)");
    command->add_flag(
        "--imperfect-factors", o.imperfect_factors,
        "Also spread N, K, C or G over the array by a factor that does not divide it (K = 1000 "
        "on all 32 columns in 32 steps, the last one padded), and tile them in time by any "
        "size, the outermost level taking the remainder (K = 106 as 9 x 6 in a buffer, two "
        "outer steps, the second partial), as Timeloop's imperfect factorization does; "
        "docs/nest_analysis.md, \"Imperfect factors\"");
    command
        ->add_flag("--imperfect-windows", o.imperfect_windows,
                   "With --imperfect-factors, pad the sliding-window dimensions P, Q, R, S too "
                   "(13 x 13 output positions on a row of 32 PEs as 13 x 14 in 7 steps rather than "
                   "13 in whole factors); the inputs the padded window reaches past the "
                   "plane's edge are counted as moved, so their traffic is an upper bound")
        ->needs("--imperfect-factors");
    command
        ->add_option("--constraints", o.constraints,
                     "Mapping constraints YAML (fixed spatial dimensions and factors, factor "
                     "bounds, loop orders, keep/bypass; docs/mapping_constraints.md). They add to "
                     "the architecture's `constraints:` and override its entries one by one")
        ->check(CLI::ExistingFile);
}

// The run's settings from the shared options (run/run_settings.hpp): the
// same value a sweep point is mapped with. Throws SpecError for a dataflow
// that cannot be read.
inline RunSettings run_settings(const MapOptions& o) {
    RunSettings settings;
    settings.dataflow = parse_dataflow(o.dataflow);
    settings.bypass = !o.no_bypass;
    settings.imperfect_factors = o.imperfect_factors;
    settings.imperfect_windows = o.imperfect_windows;
    if (!o.constraints.empty()) {
        settings.constraints_file =
            ConstraintsFileInput{o.constraints, read_file_text(o.constraints)};
    }
    settings.search.objective = *objective_from_name(o.objective);
    settings.search.strategy = *strategy_from_name(o.search);
    settings.search.budget = o.budget;
    settings.search.stop_when_converged = !o.fixed_budget;
    settings.search.patience = o.patience;
    settings.search.time_budget_seconds = o.time_budget;
    settings.search.seed = o.seed;
    settings.phases = selected_phases(o.phase);
    settings.iteration = o.sparsity.iteration_or_final();
    return settings;
}

// --budget 0 without an end: refused before anything is read.
inline void check_search_ends(const MapOptions& o) {
    if (o.budget == 0 && o.search != "exhaustive" && o.time_budget <= 0) {
        throw SpecError({}, "--budget",
                        "--budget 0 (no limit) never ends a random or anneal search",
                        "a positive number of evaluations per distinct problem",
                        "--budget 0 goes with --search exhaustive or --time-budget SECONDS");
    }
}

}  // namespace trainloop::cli
