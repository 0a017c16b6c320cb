// Helpers shared by the canned queries (store/queries/*.cpp): argument
// checks that list what the database holds, the WHERE clause of a point
// selection, the specs' names by id, and the training-step totals by point.
// Internal to store/.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "store/canned_queries.hpp"
#include "store/sqlite_database.hpp"

namespace trainloop::query_detail {

// Phases sort in training order, not alphabetically: an ORDER BY expression.
std::string phase_order(const std::string& column);

// A SpecError about the argument `key`, located at the database file.
[[noreturn]] void fail_arg(const Database& db, const std::string& key, const std::string& message,
                           const std::string& expected, const std::string& hint = {});

std::vector<std::string> distinct_values(Database& db, const std::string& sql);

// Fails unless `value` is among the values `sql` lists.
void require_known(Database& db, const std::string& key, const std::string& what,
                   const std::string& value, const std::string& sql);

// Fails when the query `query` lacks its required argument `key`.
void require(const Database& db, const std::optional<std::string>& value, const std::string& key,
             const std::string& query);

void check_phase(const Database& db, const std::string& phase, bool step_allowed);

// The SQL expression of a ranking (edp, energy, latency) over table alias `t`.
std::string metric_expression(const Database& db, const std::string& by, const std::string& t);

double as_double(const QueryValue& v);

// WHERE conditions on points (alias p) and their bound values, built from
// the arguments a query accepts.
struct PointFilter {
    std::vector<std::string> conditions = {"p.status = 'done'"};
    std::vector<QueryValue> values;

    void add(const std::string& condition, QueryValue value);
    std::string where() const;
    void bind(Statement& s, int first = 1) const;
};

PointFilter point_filter(Database& db, const QueryArgs& a);

// Names (and areas) of the specs by id: small tables, read whole, so the
// big scans join nothing.
struct SpecNames {
    std::unordered_map<std::int64_t, std::string> arch;
    std::unordered_map<std::int64_t, double> area;
    std::unordered_map<std::int64_t, double> clock_ghz;
    std::unordered_map<std::int64_t, std::string> network;
    std::unordered_map<std::int64_t, std::string> sparsity;
    // Position of each id in name order (then id order), for cheap sorting.
    std::unordered_map<std::int64_t, int> arch_rank;
    std::unordered_map<std::int64_t, int> network_rank;
    std::unordered_map<std::int64_t, int> sparsity_rank;
};

SpecNames load_spec_names(Database& db);

struct StepTotal {
    bool present = false;
    std::int64_t cycles = 0;
    double energy_pj = 0;
};

// Training-step totals indexed by point id (ids are dense: rows are only
// ever appended or replaced), from a range scan of phase_totals_by_phase.
std::vector<StepTotal> load_step_totals(Database& db);

inline constexpr std::array<std::string_view, 4> kPhaseNames = {"fw", "bw", "wu", "step"};

// The index of a phase name in kPhaseNames (3, step, for anything else).
int phase_index(std::string_view phase);

}  // namespace trainloop::query_detail
