// The sparsity options shared by `eval` and `map`: which profile gives the
// densities, at which training iteration, and (eval) how load imbalance is
// estimated.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "density/density_schedule.hpp"
#include "density/sparsity_library.hpp"
#include "imbalance/load_imbalance.hpp"
#include "number_options.hpp"

namespace trainloop::cli {

struct SparsityOptions {
    std::string profile;  // empty: dense evaluation
    std::optional<std::int64_t> iteration;
    std::string imbalance = "closed-form";
    bool histogram = false;
    std::uint64_t seed = 1;

    std::int64_t iteration_or_final() const { return iteration.value_or(kFinalIteration); }
    ImbalanceOptions imbalance_options() const {
        ImbalanceOptions o;
        o.method = imbalance == "monte-carlo" ? ImbalanceMethod::monte_carlo
                                              : ImbalanceMethod::closed_form;
        o.seed = seed;
        o.histogram = histogram;
        return o;
    }
};

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
