// Pareto membership flags of the results database (docs/results_db.md):
//   results.pareto_arch   on the (energy, cycles) front of the results of one
//                         architecture for one layer's phase (same network,
//                         batch, sparsity profile): across dataflows,
//                         objectives and the searches' own fronts;
//   results.pareto_layer  on the (energy, cycles, area) front of one layer's
//                         phase (same network and batch) across every
//                         architecture, dataflow and sparsity profile;
//   points.pareto_step    on the (step energy, step cycles, area) front of a
//                         whole training step (same network and batch).
// A member is one no other row beats in every metric while being strictly
// better in one; identical rows are all members. Pure over the database's
// contents: the same rows give the same flags, whatever order they were
// written in.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "store/sqlite_database.hpp"

namespace trainloop {

// A row's metrics, all to be minimized.
using ParetoMetrics = std::array<double, 3>;

// Membership flags for `rows`, which must be sorted lexicographically by
// their metrics (then any dominator of a row comes before it).
std::vector<bool> pareto_members(const std::vector<ParetoMetrics>& sorted_rows);

// Rewrites the three flags (only the rows whose flag changes are written).
// Call inside a transaction.
void update_pareto_flags(Database& db);

}  // namespace trainloop
