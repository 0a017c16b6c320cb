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

// Steps `statement` to the end, collecting every row.
QueryTable collect_rows(Statement& statement);

// A user's SQL on a read-only connection: a statement that would write is
// refused (SpecError naming the statement's first word) before it runs.
QueryTable run_read_only_sql(Database& db, const std::string& sql);

}  // namespace trainloop
