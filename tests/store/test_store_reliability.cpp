// The results store under damaged files, concurrent creation and hostile
// --sql: every failure is a located SpecError (exit 2), never an internal
// error, a hang or unbounded memory.
#include <gtest/gtest.h>

#include <fstream>
#include <thread>
#include <utility>

#include "common/spec_error.hpp"
#include "store/canned_queries.hpp"
#include "store/query_table.hpp"
#include "store/results_store.hpp"
#include "store/schema.hpp"
#include "store/store_merge.hpp"
#include "store_test_support.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;
using testing::fresh_db;
using testing::synthetic_point;

std::string db_with_points(const std::string& name, int points) {
    const std::string path = fresh_db(name);
    ResultsStore store = ResultsStore::open_for_writing(path);
    const auto sweep = store.ensure_sweep({"s", "sweep: s", "s", points});
    for (int i = 0; i < points; ++i) {
        store.write_point(sweep, synthetic_point(i, "a", 1.0, 10 + i, 5.0));
    }
    store.update_pareto_flags();
    return path;
}

TEST(StoreReliability, CheckNoticesADroppedTableOrIndex) {
    const std::string path = db_with_points("dropped.db", 2);
    {
        Database db(path, OpenMode::read_write);
        db.execute("DROP TABLE phase_totals; DROP INDEX points_by_network");
    }
    Database db(path, OpenMode::read_only);
    const std::vector<std::string> problems = check_database(db);
    ASSERT_EQ(problems.size(), 2U);
    EXPECT_TRUE(contains(problems[0], "index points_by_network is missing"));
    EXPECT_TRUE(contains(problems[1], "table phase_totals is missing"));
    // An index of the user's own is not a problem.
    const std::string ok = db_with_points("own_index.db", 1);
    {
        Database w(ok, OpenMode::read_write);
        w.execute("CREATE INDEX my_index ON points (batch)");
    }
    Database r(ok, OpenMode::read_only);
    EXPECT_TRUE(check_database(r).empty());
}

TEST(StoreReliability, ADanglingRowIsASpecErrorInEveryCannedQuery) {
    const std::string path = db_with_points("dangling.db", 2);
    {
        Database db(path, OpenMode::read_write);
        db.execute("PRAGMA foreign_keys = OFF; UPDATE points SET arch_id = 42 WHERE idx = 1");
    }
    ResultsStore store = ResultsStore::open_for_reading(path);
    for (const char* name : {"summary", "compare-archs", "compare-dataflows"}) {
        QueryArgs args;
        args.network = "net";
        args.baseline = "a";
        const SpecError e =
            expect_spec_error([&] { run_canned_query(store.database(), name, args); });
        EXPECT_TRUE(contains(e.message(), "dangling row: point 2 refers to architectures row 42"))
            << name;
    }
}

TEST(StoreReliability, TwoWritersCreatingOneNewDatabaseAtOnceBothSucceed) {
    for (int round = 0; round < 5; ++round) {
        const std::string path = fresh_db("race.db");
        std::vector<std::string> errors(4);
        std::vector<std::thread> writers;
        for (std::size_t w = 0; w < errors.size(); ++w) {
            writers.emplace_back([&, w] {
                try {
                    ResultsStore store = ResultsStore::open_for_writing(path);
                    store.write_point(store.ensure_sweep({"s", "sweep: s", "s", 4}),
                                      synthetic_point(std::int64_t(w), "a", 1.0, 10, 5.0));
                } catch (const std::exception& e) {
                    errors[w] = e.what();
                }
            });
        }
        for (std::thread& t : writers) t.join();
        for (const std::string& e : errors) EXPECT_EQ(e, "") << "round " << round;
        Database db(path, OpenMode::read_only);
        EXPECT_TRUE(check_database(db).empty());
    }
}

TEST(StoreReliability, MergeBlamesTheDamagedInputNotTheOutput) {
    const std::string good = db_with_points("good.db", 3);
    const std::string bad = db_with_points("bad.db", 3);
    {
        Database db(bad, OpenMode::read_write);
        db.execute("DROP TABLE results");
    }
    const std::string out = fresh_db("out.db");
    ResultsStore merged = ResultsStore::open_for_writing(out);
    const SpecError e = expect_spec_error([&] { merge_databases(merged, {good, bad}); });
    EXPECT_EQ(e.where().file, bad);
    EXPECT_TRUE(contains(e.message(), "table results is missing"));
}

TEST(StoreReliability, SqlThatFailsWhileRunningIsASpecError) {
    const std::string path = db_with_points("sql.db", 1);
    ResultsStore store = ResultsStore::open_for_reading(path);
    const SpecError overflow = expect_spec_error(
        [&] { run_read_only_sql(store.database(), "SELECT abs(-9223372036854775807 - 1)"); });
    EXPECT_TRUE(contains(overflow.message(), "the statement failed: integer overflow"));
    EXPECT_EQ(overflow.key_path(), "--sql");
}

// What reaches past the database is refused by name, whatever this SQLite's
// build allows (Debian's enables the FTS3 tokenizer function): no pointer
// into the process, no shared library, no trusting the schema again.
TEST(StoreReliability, SqlCannotReachPastTheDatabase) {
    const std::string path = db_with_points("escape.db", 1);
    ResultsStore store = ResultsStore::open_for_reading(path);
    for (const auto& [sql, refused] :
         {std::pair{"SELECT hex(fts3_tokenizer('simple'))", "fts3_tokenizer()"},
          std::pair{"SELECT FTS3_TOKENIZER('porter')", "fts3_tokenizer()"},
          std::pair{"SELECT fts3_tokenizer('x', x'0000000000000000')", "fts3_tokenizer()"},
          std::pair{"SELECT load_extension('libc.so.6')", "load_extension()"},
          std::pair{"WITH t(n) AS (SELECT 'simple') SELECT fts3_tokenizer(n) FROM t",
                    "fts3_tokenizer()"},
          std::pair{"PRAGMA trusted_schema = 1", "PRAGMA trusted_schema"}}) {
        const SpecError e =
            expect_spec_error([&, sql = sql] { run_read_only_sql(store.database(), sql); });
        EXPECT_TRUE(contains(e.message(), refused)) << sql << ": " << e.message();
        EXPECT_TRUE(contains(e.message(), "not available to --sql")) << sql;
        EXPECT_EQ(e.key_path(), "--sql");
    }
    // The connection is hardened, not just the statement's text checked.
    int tokenizer = -1;
    int defensive = -1;
    int trusted = -1;
    sqlite3_db_config(store.database().handle(), SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, -1,
                      &tokenizer);
    sqlite3_db_config(store.database().handle(), SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
    sqlite3_db_config(store.database().handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &trusted);
    EXPECT_EQ(tokenizer, 0);
    EXPECT_EQ(defensive, 1);
    EXPECT_EQ(trusted, 0);
    // The schema's views still read (they use only innocuous functions).
    EXPECT_NO_THROW(run_read_only_sql(store.database(), "SELECT * FROM result_energy_by_class"));
    EXPECT_NO_THROW(run_read_only_sql(store.database(), "SELECT * FROM phase_times"));
    EXPECT_EQ(run_read_only_sql(store.database(), "PRAGMA trusted_schema").rows.size(), 1U);
}

TEST(StoreReliability, SqlIsBoundedInTimeAndMemory) {
    const std::string path = db_with_points("limits.db", 1);
    ResultsStore store = ResultsStore::open_for_reading(path);
    const SpecError endless = expect_spec_error([&] {
        run_read_only_sql(store.database(),
                          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                          "SELECT count(*) FROM c",
                          {0.2, std::int64_t{64} << 20});
    });
    EXPECT_TRUE(contains(endless.message(), "time limit of 0.2 s"));
    const SpecError blob = expect_spec_error([&] {
        run_read_only_sql(store.database(), "SELECT zeroblob(100000000)",
                          {60, std::int64_t{16} << 20});
    });
    EXPECT_TRUE(contains(blob.message(), "memory limit of 16 MiB"));
    const SpecError rows = expect_spec_error([&] {
        run_read_only_sql(store.database(),
                          "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                          "LIMIT 1000000) SELECT x, printf('%100d', x) FROM c",
                          {60, std::int64_t{16} << 20});
    });
    EXPECT_TRUE(contains(rows.message(), "memory limit of 16 MiB"));
    // Within the limits, results come back; a BLOB as its SQL literal.
    const QueryTable table = run_read_only_sql(store.database(), "SELECT x'00ff' AS b");
    EXPECT_EQ(std::get<std::string>(table.rows.at(0).at(0)), "x'00ff'");
}

}  // namespace
}  // namespace trainloop
