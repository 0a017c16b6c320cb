// QueryTable: the answer of a query on the results database — named columns
// and rows of SQL values — and running one SQL statement into it. Rendering
// (table, CSV, JSON) is the CLI's job.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "store/sqlite_database.hpp"

namespace trainloop {

// NULL, INTEGER, REAL or TEXT, as SQLite returns it.
using QueryValue = std::variant<std::monostate, std::int64_t, double, std::string>;

struct QueryTable {
    std::vector<std::string> columns;
    std::vector<std::vector<QueryValue>> rows;
};

// Steps `statement` to the end, collecting every row. A BLOB becomes its
// SQL literal text (x'0a1b...'). With `max_bytes`, collecting more than that
// many bytes of values is a SpecError.
QueryTable collect_rows(Statement& statement, std::int64_t max_bytes = 0);

// What a user's statement may use: wall-clock seconds and bytes of memory
// (SQLite's heap and the collected rows, each).
struct SqlLimits {
    double seconds = 60;
    std::int64_t bytes = std::int64_t{256} << 20;
};

// A user's SQL on a read-only connection: a statement that would write is
// refused (SpecError naming the statement's first word) before it runs; one
// that fails while running, or passes a limit, is a SpecError saying which.
QueryTable run_read_only_sql(Database& db, const std::string& sql, const SqlLimits& limits = {});

}  // namespace trainloop
