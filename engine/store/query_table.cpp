#include "store/query_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "common/spec_error.hpp"

namespace trainloop {

namespace {

std::string blob_literal(std::string_view bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out = "x'";
    out.reserve(bytes.size() * 2 + 3);
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    return out + "'";
}

}  // namespace

QueryTable collect_rows(Statement& statement, std::int64_t max_bytes) {
    QueryTable table;
    for (int c = 0; c < statement.column_count(); ++c) {
        table.columns.push_back(statement.column_name(c));
    }
    std::int64_t bytes = 0;
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
                case SQLITE_BLOB:
                    row.emplace_back(blob_literal(statement.text_view(c)));
                    break;
                default:
                    row.emplace_back(statement.text(c));
                    break;
            }
            const auto* text = std::get_if<std::string>(&row.back());
            bytes += 16 + (text != nullptr ? std::int64_t(text->size()) : 0);
        }
        table.rows.push_back(std::move(row));
        if (max_bytes > 0 && bytes > max_bytes) {
            statement.reset();
            throw SpecError({}, "--sql",
                            fmt::format("the result passed the memory limit of {} MiB after {} "
                                        "rows",
                                        max_bytes >> 20, table.rows.size()),
                            "a statement whose result fits the limit",
                            "select fewer rows or columns (LIMIT), or raise --memory-limit");
        }
    }
    statement.reset();
    return table;
}

namespace {

QueryTable run_statement(Database& db, const std::string& sql, const SqlLimits& limits) {
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
    return collect_rows(statement, limits.bytes);
}

// SQL functions that reach past the database: `fts3_tokenizer` returns (and,
// with two arguments, takes) a pointer into the process; `load_extension`
// loads a shared library. Refused when the statement is prepared, whatever
// this SQLite's build and settings allow.
constexpr std::array<std::string_view, 2> kRefusedFunctions = {"fts3_tokenizer", "load_extension"};

// The authorizer: `data` is a std::string that receives what it refused.
// Besides those functions, a pragma that would trust the schema again.
int refuse_dangerous_functions(void* data, int action, const char* arg1, const char* arg2,
                               const char* /*database*/, const char* /*trigger*/) {
    const auto lower = [](const char* text) {
        std::string out(text);
        std::transform(out.begin(), out.end(), out.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        return out;
    };
    std::string refused;
    if (action == SQLITE_FUNCTION && arg2 != nullptr) {
        const std::string name = lower(arg2);
        if (std::find(kRefusedFunctions.begin(), kRefusedFunctions.end(), name) !=
            kRefusedFunctions.end()) {
            refused = name + "()";
        }
    } else if (action == SQLITE_PRAGMA && arg1 != nullptr && arg2 != nullptr &&
               lower(arg1) == "trusted_schema") {
        refused = "PRAGMA trusted_schema = ...";
    }
    if (refused.empty()) return SQLITE_OK;
    *static_cast<std::string*>(data) = refused;
    return SQLITE_DENY;
}

// The connection a user's statement runs on trusts nothing it reads: no
// FTS3 tokenizer pointers, no extension loading, defensive mode (no writes
// to the schema or sqlite_dbpage, even through a pragma), and an untrusted
// schema (views and triggers run only innocuous functions).
void harden(Database& db, std::string& refused) {
    for (const auto& [option, value] :
         {std::pair{SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0},
          std::pair{SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0},
          std::pair{SQLITE_DBCONFIG_DEFENSIVE, 1}, std::pair{SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0}}) {
        int now = -1;
        if (sqlite3_db_config(db.handle(), option, value, &now) != SQLITE_OK || now != value) {
            throw std::logic_error(
                fmt::format("SQLite refused database option {} = {}", option, value));
        }
    }
    sqlite3_set_authorizer(db.handle(), refuse_dangerous_functions, &refused);
}

}  // namespace

QueryTable run_read_only_sql(Database& db, const std::string& sql, const SqlLimits& limits) {
    std::string refused;  // a function the authorizer refused
    harden(db, refused);
    // The time limit: SQLite calls the handler every few thousand virtual
    // machine steps; a nonzero return interrupts the statement.
    struct Deadline {
        std::chrono::steady_clock::time_point at;
        bool passed = false;
    } deadline{std::chrono::steady_clock::now() +
                   std::chrono::microseconds(std::int64_t(limits.seconds * 1e6)),
               false};
    sqlite3_progress_handler(
        db.handle(), 10'000,
        [](void* data) {
            auto* d = static_cast<Deadline*>(data);
            d->passed = d->passed || std::chrono::steady_clock::now() > d->at;
            return d->passed ? 1 : 0;
        },
        &deadline);
    // The memory limit: SQLite's heap (process-wide, restored after) and the
    // largest single value.
    const sqlite3_int64 heap_before = sqlite3_hard_heap_limit64(limits.bytes);
    sqlite3_limit(db.handle(), SQLITE_LIMIT_LENGTH,
                  int(std::min<std::int64_t>(limits.bytes, 1'000'000'000)));
    struct Restore {
        Database& db;
        sqlite3_int64 heap;
        ~Restore() {
            sqlite3_set_authorizer(db.handle(), nullptr, nullptr);
            sqlite3_progress_handler(db.handle(), 0, nullptr, nullptr);
            sqlite3_hard_heap_limit64(heap);
        }
    } restore{db, heap_before};
    // What the authorizer refused fails the statement's preparation.
    const auto fail_refused = [&] {
        throw SpecError({db.path().string(), 0, 0}, "--sql",
                        fmt::format("`{}` is not available to --sql: it reaches past the "
                                    "database (a pointer into the process, a shared library, "
                                    "or functions run by the schema)",
                                    refused),
                        "a statement over the schema of docs/results_db.md");
    };
    try {
        return run_statement(db, sql, limits);
    } catch (const SpecError& e) {
        if (!refused.empty()) fail_refused();
        // Every error here is about the user's statement on this database:
        // keyed `--sql`, located at the file.
        if (!e.key_path().empty() && !e.where().file.empty()) throw;
        throw SpecError(
            e.where().file.empty() ? SourceLocation{db.path().string(), 0, 0} : e.where(), "--sql",
            e.message(), e.expected(), e.hint());
    } catch (const std::logic_error&) {
        // Statement failures our own SQL never has: a runtime error of the
        // user's statement (integer overflow, an ATTACH refused on a
        // read-only connection, ...), or a limit.
        const int code = sqlite3_errcode(db.handle()) & 0xff;
        const std::string file = db.path().string();
        if (!refused.empty()) fail_refused();
        if (deadline.passed || code == SQLITE_INTERRUPT) {
            throw SpecError(
                {file, 0, 0}, "--sql",
                fmt::format("the statement ran past the time limit of {:g} s", limits.seconds),
                "a statement that finishes within the limit",
                "narrow it (WHERE, LIMIT), or raise --time-limit");
        }
        if (code == SQLITE_NOMEM || code == SQLITE_TOOBIG) {
            throw SpecError({file, 0, 0}, "--sql",
                            fmt::format("the statement passed the memory limit of {} MiB ({})",
                                        limits.bytes >> 20, sqlite3_errmsg(db.handle())),
                            "a statement that fits the limit",
                            "narrow it (WHERE, LIMIT), or raise --memory-limit");
        }
        throw SpecError({file, 0, 0}, "--sql",
                        fmt::format("the statement failed: {}", sqlite3_errmsg(db.handle())),
                        "a valid read-only statement over the schema of docs/results_db.md");
    }
}

}  // namespace trainloop
