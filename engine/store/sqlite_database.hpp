// A small RAII layer over SQLite's C API for the results store: a connection
// (Database) and a prepared statement (Statement) that finalize themselves,
// typed binds and column reads, and a transaction guard that rolls back
// unless committed.
//
// Contract: every failure the user can cause — a missing file, a file that
// is not a database or is corrupt, a database locked by another writer past
// the busy timeout, a write through a read-only connection — is a SpecError
// naming the file, what went wrong and a hint; anything else (a malformed
// statement of ours) is a std::logic_error. The connection waits up to
// `kBusyTimeoutMs` for a lock before giving up, so readers and one writer
// share a WAL-mode file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace trainloop {

inline constexpr int kBusyTimeoutMs = 10'000;

enum class OpenMode : std::uint8_t {
    read_only,   // the file must exist; writes are refused by SQLite itself
    read_write,  // the file must exist
    create,      // created when missing
};

class Statement;

class Database {
  public:
    Database(const std::filesystem::path& path, OpenMode mode);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;

    // Runs one or more statements without results (schema, pragmas).
    void execute(std::string_view sql);
    // The same for a statement that takes the write lock from outside a
    // transaction (PRAGMA journal_mode = WAL): when two connections hold the
    // read lock and both want it, SQLite refuses one at once instead of
    // calling the busy handler, so the refusal is retried up to the timeout.
    void execute_retrying_when_busy(std::string_view sql);
    Statement prepare(std::string_view sql);
    std::int64_t last_insert_id() const;
    std::int64_t changes() const;

    const std::filesystem::path& path() const { return path_; }
    sqlite3* handle() const { return db_; }
    bool read_only() const { return mode_ == OpenMode::read_only; }
    // How long to wait for another connection's lock (default kBusyTimeoutMs).
    void set_busy_timeout(int milliseconds);

    // Throws the SpecError (user-caused codes) or logic_error for `code`.
    [[noreturn]] void fail(int code, std::string_view doing) const;

  private:
    sqlite3* db_ = nullptr;
    std::filesystem::path path_;
    OpenMode mode_ = OpenMode::read_only;
    int busy_timeout_ms_ = kBusyTimeoutMs;
};

class Statement {
  public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&&) = delete;

    // Binds are 1-based, as in SQLite.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, std::int64_t{value}); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const std::string& value) {
        return bind(index, std::string_view(value));
    }
    Statement& bind_null(int index);

    // Advances; true while a row is available.
    bool step();
    // Runs a statement without results to completion, then resets it.
    void run();
    void reset();

    int column_count() const;
    std::string column_name(int column) const;
    bool is_null(int column) const;
    int column_type(int column) const;  // SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, ...
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    // Valid until the next step() or reset().
    std::string_view text_view(int column) const;

    // Whether the statement leaves the database unchanged.
    bool read_only() const;

  private:
    Database* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (takes the write lock at once, so a busy writer is waited
// for here rather than half-way through); rolls back unless commit() ran.
class Transaction {
  public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

  private:
    Database& db_;
    bool done_ = false;
};

}  // namespace trainloop
