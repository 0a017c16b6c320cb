// The command-line options that fill SparsityOptions (sparsity_options.hpp),
// for the commands that build their options.
#pragma once

#include <CLI/CLI.hpp>

#include "number_options.hpp"
#include "sparsity_options.hpp"

namespace trainloop::cli {

// --sparsity and --iteration (both commands).
inline void add_sparsity_profile_options(CLI::App* command, SparsityOptions& o) {
    command->add_option("--sparsity,-s", o.profile,
                        "Sparsity profile: a shipped name (procrustes, dense) or a profile YAML "
                        "file (docs/sparsity_format.md); absent: dense");
    command
        ->add_option("--iteration", o.iteration,
                     "Training iteration at which the profile's density schedules are read "
                     "(default: after every schedule)")
        ->transform(count_from(0));
}

// --imbalance, --imbalance-histogram, --seed (eval).
inline void add_imbalance_options(CLI::App* command, SparsityOptions& o) {
    command
        ->add_option("--imbalance", o.imbalance,
                     "Load-imbalance estimate: closed-form (fast, the mapper's) or monte-carlo "
                     "(the sampled reference)")
        ->default_val("closed-form")
        ->check(CLI::IsMember({"closed-form", "monte-carlo"}));
    command->add_flag("--imbalance-histogram", o.histogram,
                      "Print the per-wave overhead histogram (Procrustes figs. 5 and 13)");
    command->add_option("--seed", o.seed, "Seed of the Monte-Carlo estimate")
        ->default_val(1)
        ->transform(unsigned_integer());
}

}  // namespace trainloop::cli
