#include "store/sqlite_database.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

const std::string kCheckHint = "`trainloop db check FILE` runs SQLite's integrity check";

}  // namespace

Database::Database(const std::filesystem::path& path, OpenMode mode) : path_(path), mode_(mode) {
    std::error_code ec;
    if (mode != OpenMode::create && !std::filesystem::exists(path, ec)) {
        throw SpecError({path.string(), 0, 0}, "", "no such results database",
                        "an existing database file",
                        "a sweep (`trainloop sweep ... --db FILE`) or `trainloop map ... --db "
                        "FILE` creates one");
    }
    if (std::filesystem::is_directory(path, ec)) {
        throw SpecError({path.string(), 0, 0}, "", "is a directory, not a database file",
                        "a database file");
    }
    const int flags = mode == OpenMode::read_only    ? SQLITE_OPEN_READONLY
                      : mode == OpenMode::read_write ? SQLITE_OPEN_READWRITE
                                                     : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw SpecError({path.string(), 0, 0}, "",
                        fmt::format("cannot open the results database: {}", message),
                        "a readable (and, to write, writable) SQLite file");
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

Database::~Database() {
    if (db_ != nullptr) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept
    : db_(other.db_),
      path_(std::move(other.path_)),
      mode_(other.mode_),
      busy_timeout_ms_(other.busy_timeout_ms_) {
    other.db_ = nullptr;
}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        if (db_ != nullptr) sqlite3_close_v2(db_);
        db_ = other.db_;
        path_ = std::move(other.path_);
        mode_ = other.mode_;
        busy_timeout_ms_ = other.busy_timeout_ms_;
        other.db_ = nullptr;
    }
    return *this;
}

void Database::fail(int code, std::string_view doing) const {
    const std::string file = path_.string();
    const std::string detail = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(code);
    switch (code & 0xff) {
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
            throw SpecError({file, 0, 0}, "",
                            fmt::format("the database is locked by another process ({:g} s "
                                        "waited while {})",
                                        busy_timeout_ms_ / 1000.0, doing),
                            "a database no other process is writing",
                            "wait for the other sweep to finish, or write to another --db file "
                            "and combine them with `trainloop db merge`");
        case SQLITE_NOTADB:
            throw SpecError({file, 0, 0}, "", "not an SQLite database (or its header is corrupt)",
                            "a results database written by trainloop", kCheckHint);
        case SQLITE_CORRUPT:
            throw SpecError({file, 0, 0}, "",
                            fmt::format("the database is corrupt ({} while {})", detail, doing),
                            "an intact results database", kCheckHint);
        case SQLITE_READONLY:
            throw SpecError({file, 0, 0}, "",
                            fmt::format("cannot write: {} (while {})", detail, doing),
                            read_only() ? "a read-only statement (SELECT, WITH, EXPLAIN)"
                                        : "a writable database file",
                            read_only() ? "queries open the database read-only"
                                        : "check the file's and its directory's permissions");
        case SQLITE_CANTOPEN:
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_PERM:
            throw SpecError({file, 0, 0}, "", fmt::format("{} (while {})", detail, doing),
                            "a readable, writable database file on a disk with free space",
                            "check the permissions, the free space and the file-size limit "
                            "(ulimit -f); what was committed before is intact");
        default:
            throw std::logic_error(
                fmt::format("{}: SQLite error {} while {}: {}", file, code, doing, detail));
    }
}

void Database::execute(std::string_view sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &error);
    sqlite3_free(error);
    if (rc != SQLITE_OK) fail(rc, fmt::format("running `{}`", sql.substr(0, 60)));
}

void Database::execute_retrying_when_busy(std::string_view sql) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms_);
    while (true) {
        const int rc = sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK) return;
        const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
        if (!busy || std::chrono::steady_clock::now() >= deadline) {
            fail(rc, fmt::format("running `{}`", sql.substr(0, 60)));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

Statement Database::prepare(std::string_view sql) { return Statement(*this, sql); }

void Database::set_busy_timeout(int milliseconds) {
    busy_timeout_ms_ = milliseconds;
    sqlite3_busy_timeout(db_, milliseconds);
}

std::int64_t Database::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

std::int64_t Database::changes() const { return sqlite3_changes64(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
    const char* tail = nullptr;
    const int rc =
        sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, &tail);
    if (rc != SQLITE_OK) {
        const int primary = rc & 0xff;
        if (primary == SQLITE_ERROR) {
            // A statement that does not compile: ours (a bug) or a user's --sql.
            throw SpecError(
                {db.path().string(), 0, 0}, "",
                fmt::format("cannot prepare the statement: {}", sqlite3_errmsg(db.handle())),
                "a valid SQLite statement over the schema of docs/results_db.md");
        }
        db.fail(rc, "preparing a statement");
    }
    if (stmt_ == nullptr) {
        throw SpecError({db.path().string(), 0, 0}, "", "empty statement", "one SQL statement");
    }
    if (tail != nullptr &&
        std::string_view(tail).find_first_not_of(" \t\r\n;") != std::string_view::npos) {
        sqlite3_finalize(stmt_);
        stmt_ = nullptr;
        throw SpecError({db.path().string(), 0, 0}, "", "more than one statement given",
                        "exactly one SQL statement");
    }
}

Statement::~Statement() {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
    other.stmt_ = nullptr;
}

Statement& Statement::bind(int index, std::int64_t value) {
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

Statement& Statement::bind(int index, double value) {
    const int rc = sqlite3_bind_double(stmt_, index, value);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    const int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT,
                                       SQLITE_UTF8);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

Statement& Statement::bind_null(int index) {
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) db_->fail(rc, "binding a value");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    sqlite3_reset(stmt_);
    db_->fail(rc, "running a statement");
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

std::string Statement::column_name(int column) const { return sqlite3_column_name(stmt_, column); }

bool Statement::is_null(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int Statement::column_type(int column) const { return sqlite3_column_type(stmt_, column); }

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    if (p == nullptr) return {};
    return {reinterpret_cast<const char*>(p),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

std::string_view Statement::text_view(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    if (p == nullptr) return {};
    return {reinterpret_cast<const char*>(p),
            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

bool Statement::read_only() const { return sqlite3_stmt_readonly(stmt_) != 0; }

Transaction::Transaction(Database& db) : db_(db) { db_.execute("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    db_.execute("COMMIT");
    done_ = true;
}

}  // namespace trainloop
