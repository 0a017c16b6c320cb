// The sparsity options shared by `eval` and `map`: which profile gives the
// densities, at which training iteration, and (eval) how load imbalance is
// estimated. The options themselves: sparsity_command_options.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "density/density_schedule.hpp"
#include "density/sparsity_library.hpp"
#include "imbalance/load_imbalance.hpp"

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

}  // namespace trainloop::cli
