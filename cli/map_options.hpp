// `trainloop map`'s options, as parsed (add_map_command), and the phases
// they select.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "problem/training_problems.hpp"
#include "search/search.hpp"
#include "sparsity_options.hpp"
#include "vocabulary/phase.hpp"
#include "workload/network_library.hpp"

namespace trainloop::cli {

struct MapOptions {
    std::string arch;
    std::string workload;
    std::int64_t batch = kDefaultBatch;
    std::string phase = "all";
    std::string dataflow = "any";
    std::string objective = "edp";
    std::string search = "anneal";
    std::int64_t budget = kConvergingBudget;
    bool fixed_budget = false;  // --budget given: spend exactly that many
    double time_budget = 0;
    std::int64_t patience = 0;
    int threads = 0;
    std::uint64_t seed = 1;
    bool no_bypass = false;
    bool imperfect_factors = false;
    bool imperfect_windows = false;
    std::string constraints;  // a constraints file; empty: the architecture's only
    std::string format = "text";
    std::vector<std::string> export_to;  // {"timeloop", DIR}
    bool force = false;
    bool quiet = false;
    SparsityOptions sparsity;
    std::string db;  // also write the results to this database
};

// `all` or one phase name (CLI11 checked it).
inline std::vector<Phase> selected_phases(const std::string& name) {
    if (name == "all") return {kAllPhases.begin(), kAllPhases.end()};
    return {*phase_from_name(name)};
}

}  // namespace trainloop::cli
