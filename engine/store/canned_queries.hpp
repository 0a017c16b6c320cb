// The canned queries of `trainloop query` over the results database
// (docs/results_db.md has their columns). Each is one or two indexed SQL
// statements plus a little arithmetic, so it answers in well under 100 ms on
// a 10-million-result database (bench/bench_results_db.cpp).
//
//   summary            what the database holds: points done/failed and
//                      layer-phases mapped, in total and per architecture,
//                      network, sparsity profile, dataflow and phase, with the
//                      lowest training-step cycles and energy in each group.
//                      No timestamps or run counts: a resumed sweep and an
//                      uninterrupted one give the same summary.
//   best               the best mapping per layer and phase for an
//                      architecture, network and dataflow (lowest EDP, energy
//                      or cycles among the matching points).
//   pareto             the front for one layer's phase (--layer, --phase), a
//                      phase (--phase) or a whole training step (neither).
//   compare-dataflows  per architecture, sparsity profile, batch and phase
//                      (--phase: one of them, or step): each dataflow's best
//                      point, and its EDP over the best dataflow's.
//   compare-archs      per network, batch and phase (--phase: one): each
//                      architecture's best point, with speed-up and energy
//                      ratio against the baseline architecture's best.
// Unknown names (architecture, network, sparsity profile, dataflow, phase)
// are SpecErrors that list the names the database holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/query_table.hpp"

namespace trainloop {

struct QueryArgs {
    std::optional<std::string> arch;
    std::optional<std::string> network;
    std::optional<std::string> dataflow;
    std::optional<std::string> sparsity;
    std::optional<std::int64_t> batch;
    std::optional<std::string> layer;
    std::optional<std::string> phase;
    std::optional<std::string> baseline;
    std::string by = "edp";  // best: edp | energy | latency | offchip
};

// The one table of canned queries: `trainloop query`'s choices, its --help
// and the dispatch all read it, so a new query is one entry here (and one
// file under store/queries/).
struct CannedQuery {
    std::string_view name;
    std::string_view arguments;  // for --help, e.g. "(--network)"; may be empty
    QueryTable (*run)(Database& db, const QueryArgs& args);
};
const std::vector<CannedQuery>& canned_queries();

// The canned query names, in the order `--help` lists them.
const std::vector<std::string>& canned_query_names();
// "summary | best (--arch --network --dataflow) | ...", for --help.
std::string canned_query_usage();

// Throws SpecError for an unknown name or missing/invalid arguments.
QueryTable run_canned_query(Database& db, const std::string& name, const QueryArgs& args);

QueryTable query_summary(Database& db);
QueryTable query_best(Database& db, const QueryArgs& args);
QueryTable query_pareto(Database& db, const QueryArgs& args);
QueryTable query_compare_dataflows(Database& db, const QueryArgs& args);
QueryTable query_compare_archs(Database& db, const QueryArgs& args);

}  // namespace trainloop
