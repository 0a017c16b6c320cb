#include "store/query_table.hpp"

#include <fmt/format.h>

#include "common/spec_error.hpp"

namespace trainloop {

QueryTable collect_rows(Statement& statement) {
    QueryTable table;
    for (int c = 0; c < statement.column_count(); ++c) {
        table.columns.push_back(statement.column_name(c));
    }
    while (statement.step()) {
        std::vector<QueryValue> row;
        for (int c = 0; c < statement.column_count(); ++c) {
            switch (statement.column_type(c)) {
                case SQLITE_INTEGER:
                    row.emplace_back(statement.int64(c));
                    break;
                case SQLITE_FLOAT:
                    row.emplace_back(statement.real(c));
                    break;
                case SQLITE_NULL:
                    row.emplace_back(std::monostate{});
                    break;
                default:
                    row.emplace_back(statement.text(c));
                    break;
            }
        }
        table.rows.push_back(std::move(row));
    }
    statement.reset();
    return table;
}

QueryTable run_read_only_sql(Database& db, const std::string& sql) {
    Statement statement = db.prepare(sql);
    if (!statement.read_only()) {
        const std::size_t start = sql.find_first_not_of(" \t\r\n");
        const std::size_t end = sql.find_first_of(" \t\r\n(", start);
        const std::string verb = start == std::string::npos ? sql : sql.substr(start, end - start);
        throw SpecError({db.path().string(), 0, 0}, "--sql",
                        fmt::format("`{}` would change the database; --sql is read-only", verb),
                        "a read-only statement (SELECT, WITH ... SELECT, EXPLAIN, PRAGMA reads)",
                        "results are written only by `trainloop sweep`, `map --db` and `db merge`");
    }
    return collect_rows(statement);
}

}  // namespace trainloop
