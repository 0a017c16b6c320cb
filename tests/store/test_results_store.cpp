// The results store: schema and migrations, writing points, content-hashed
// specs, Pareto flags, and the errors for missing, foreign, newer, locked and
// corrupt files.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>

#include "common/spec_error.hpp"
#include "store/canned_queries.hpp"
#include "store/pareto_flags.hpp"
#include "store/results_store.hpp"
#include "store/schema.hpp"
#include "store/store_merge.hpp"
#include "store_test_support.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::synthetic_point;

std::int64_t count(Database& db, const std::string& sql) {
    Statement s = db.prepare(sql);
    EXPECT_TRUE(s.step()) << sql;
    return s.int64(0);
}

SweepRecord sweep_record(const std::string& name) { return {name, "sweep: " + name, name, 3}; }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const SpecError& e) {
        return e.what();
    }
    return "no error";
}

TEST(ResultsStore, NewDatabaseHasTheCurrentSchemaVersion) {
    const std::string path = fresh_db("new.db");
    ResultsStore store = ResultsStore::open_for_writing(path);
    EXPECT_EQ(count(store.database(), "PRAGMA user_version"), current_schema_version());
    Statement mode = store.database().prepare("PRAGMA journal_mode");
    ASSERT_TRUE(mode.step());
    EXPECT_EQ(mode.text(0), "wal");
}

TEST(ResultsStore, ReopeningKeepsTheDataAndDoesNotMigrateAgain) {
    const std::string path = fresh_db("reopen.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        const auto sweep = store.ensure_sweep(sweep_record("s"));
        store.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
    }
    ResultsStore store = ResultsStore::open_for_writing(path);
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM points"), 1);
    EXPECT_EQ(store.recorded_points(store.ensure_sweep(sweep_record("s"))),
              (std::set<std::int64_t>{0}));
}

TEST(ResultsStore, SchemaOneMigratesWithClocksAndIterationsReadFromTheStoredTexts) {
    const std::string path = fresh_db("migrate.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        const auto sweep = store.ensure_sweep({"s", "sweep: s\niteration: 500\n", "s", 2});
        PointRecord fast = synthetic_point(0, "fast", 1.0, 10, 5.0);
        fast.arch.spec.yaml = "architecture: fast\nclock_ghz: 0.7\n";
        store.write_point(sweep, fast);
        store.write_point(sweep, synthetic_point(1, "plain", 1.0, 10, 5.0));
        // What a version-1 file looks like: none of version 2's (3's, ..., 7's) columns,
        // tables or views.
        store.database().execute(
            "ALTER TABLE results DROP COLUMN offchip_words; "
            "ALTER TABLE results DROP COLUMN workload_stddev_coarse; "
            "ALTER TABLE results DROP COLUMN workload_stddev_two_level; "
            "ALTER TABLE points DROP COLUMN rejections; "
            "DROP VIEW training_run_times; DROP TABLE training_run_samples; "
            "DROP TABLE training_runs; "
            "ALTER TABLE results DROP COLUMN workload_stddev; "
            "ALTER TABLE results DROP COLUMN converged; "
            "ALTER TABLE results DROP COLUMN lower_bound_cycles; "
            "ALTER TABLE results DROP COLUMN lower_bound_energy_pj; "
            "DROP VIEW phase_times; DROP VIEW result_energy_by_class; "
            "ALTER TABLE architectures DROP COLUMN clock_ghz; "
            "ALTER TABLE architectures DROP COLUMN summary; "
            "ALTER TABLE points DROP COLUMN iteration; "
            "ALTER TABLE results DROP COLUMN performed_macs; "
            "ALTER TABLE results DROP COLUMN energy_by_class; "
            "ALTER TABLE phase_totals DROP COLUMN performed_macs; PRAGMA user_version = 1");
    }
    {
        Database db(path, OpenMode::read_only);
        EXPECT_NE(error_of([&] { check_readable(db); }).find("schema version 1 is older"),
                  std::string::npos);
    }
    ResultsStore store = ResultsStore::open_for_writing(path);
    Database& db = store.database();
    EXPECT_EQ(count(db, "PRAGMA user_version"), current_schema_version());
    // Version 3's columns are NULL for rows written before it: nothing is claimed.
    EXPECT_EQ(count(db,
                    "SELECT count(*) FROM results WHERE converged IS NULL AND "
                    "lower_bound_cycles IS NULL AND lower_bound_energy_pj IS NULL"),
              2);
    Statement clocks = db.prepare("SELECT name, clock_ghz FROM architectures ORDER BY name");
    std::vector<std::string> seen;
    while (clocks.step()) seen.push_back(fmt::format("{}:{}", clocks.text(0), clocks.real(1)));
    EXPECT_EQ(seen, (std::vector<std::string>{"fast:0.7", "plain:1"}));
    EXPECT_EQ(count(db, "SELECT count(*) FROM points WHERE iteration = 500"), 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM architectures WHERE summary IS NULL"), 2);
    EXPECT_EQ(count(db, "SELECT count(*) FROM phase_times"), 2);
}

TEST(ResultsStore, SchemaFourMigratesToTrainingRunsKeepingItsPoints) {
    const std::string path = fresh_db("v4.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        const auto sweep = store.ensure_sweep(sweep_record("s"));
        store.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
        // What a version-4 file looks like: no training-run tables (nor version 6's and 7's
        // columns).
        store.database().execute(
            "ALTER TABLE results DROP COLUMN offchip_words; "
            "ALTER TABLE results DROP COLUMN workload_stddev_coarse; "
            "ALTER TABLE results DROP COLUMN workload_stddev_two_level; "
            "ALTER TABLE points DROP COLUMN rejections; "
            "DROP VIEW training_run_times; DROP TABLE training_run_samples; "
            "DROP TABLE training_runs; PRAGMA user_version = 4");
    }
    {
        Database db(path, OpenMode::read_only);
        EXPECT_NE(error_of([&] { check_readable(db); }).find("schema version 4 is older"),
                  std::string::npos);
    }
    ResultsStore store = ResultsStore::open_for_writing(path);
    Database& db = store.database();
    EXPECT_EQ(count(db, "PRAGMA user_version"), current_schema_version());
    EXPECT_EQ(count(db, "SELECT count(*) FROM points"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM points WHERE rejections IS NULL"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM phase_totals"), 1);
    EXPECT_EQ(count(db, "SELECT count(*) FROM training_runs"), 0) << "an old point ran no run";
    // Version 7's columns are NULL for rows written before it.
    EXPECT_EQ(count(db,
                    "SELECT count(*) FROM results WHERE offchip_words IS NULL AND "
                    "workload_stddev_coarse IS NULL AND workload_stddev_two_level IS NULL"),
              count(db, "SELECT count(*) FROM results"));
    check_readable(db);
}

PointRecord training_run_point(std::int64_t index) {
    PointRecord p = synthetic_point(index, "a", 1.0, 10, 5.0);
    TrainingRunRecord run;
    run.iterations = 300;
    run.samples = 16;
    run.total_cycles = 100 * 12 + 200 * 10;
    run.total_energy_pj = 100 * 6.0 + 200 * 5.0;
    run.dense_total_cycles = 300 * 12;
    run.dense_total_energy_pj = 300 * 6.0;
    run.total_macs = 300 * 1000.0;
    run.effectual_macs = 100 * 1000.0 + 200 * 500.0;
    run.macs_removed_fraction = 1 - run.effectual_macs / run.total_macs;
    run.distinct_states = 2;
    run.sample_costs = {{0, 0, 100, true, 12, 6.0, 1000}, {100, 100, 300, true, 10, 5.0, 500}};
    p.training_run = run;
    return p;
}

TEST(ResultsStore, TrainingRunsAreStoredReplacedAndMerged) {
    const std::string a = fresh_db("run_a.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(a);
        const auto sweep = store.ensure_sweep(sweep_record("s"));
        store.write_point(sweep, training_run_point(0));
        store.write_point(sweep, training_run_point(0));  // a resumed point, written again
        store.write_point(sweep, synthetic_point(1, "a", 1.0, 10, 5.0));
        Database& db = store.database();
        EXPECT_EQ(count(db, "SELECT count(*) FROM training_runs"), 1);
        EXPECT_EQ(count(db, "SELECT count(*) FROM training_run_samples"), 2);
        EXPECT_EQ(count(db,
                        "SELECT sum(end_iteration - begin_iteration) FROM "
                        "training_run_samples"),
                  300);
        EXPECT_EQ(count(db, "SELECT total_cycles FROM training_runs"), 3200);
        Statement times = db.prepare("SELECT seconds, speedup FROM training_run_times");
        ASSERT_TRUE(times.step());
        EXPECT_DOUBLE_EQ(times.real(0), 3200 / 1e9);
        EXPECT_DOUBLE_EQ(times.real(1), 3600.0 / 3200.0);
    }
    const std::string merged = fresh_db("run_merged.db");
    ResultsStore out = ResultsStore::open_for_writing(merged);
    merge_databases(out, {a});
    EXPECT_EQ(count(out.database(), "SELECT count(*) FROM training_runs"), 1);
    EXPECT_EQ(count(out.database(), "SELECT count(*) FROM training_run_samples"), 2);
    EXPECT_EQ(count(out.database(),
                    "SELECT p.idx FROM training_runs r JOIN points p ON p.id = r.point_id"),
              0);
}

TEST(ResultsStore, WallTimeRanksAcrossClocksInTheStepFront) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("clocks.db"));
    const auto sweep = store.ensure_sweep(sweep_record("s"));
    // 1000 cycles at 0.5 GHz (2 µs) against 1500 cycles at 1 GHz (1.5 µs),
    // same energy and area: by cycles the first wins, by time the second.
    PointRecord slow = synthetic_point(0, "slow_clock", 1.0, 1000, 5.0);
    slow.arch.clock_ghz = 0.5;
    slow.arch.spec.yaml += "clock_ghz: 0.5\n";
    slow.phases = "fw,bw,wu";
    slow.totals.push_back({"step", 1, 1000, 5.0, 1000, 1000, 0, 1000});
    PointRecord fast = synthetic_point(1, "fast_clock", 1.0, 1500, 5.0);
    fast.totals.push_back({"step", 1, 1500, 5.0, 1000, 1000, 0, 1000});
    store.write_point(sweep, slow);
    store.write_point(sweep, fast);
    store.update_pareto_flags();
    Statement s = store.database().prepare(
        "SELECT a.name, p.pareto_step, r.pareto_layer FROM points p JOIN architectures a ON "
        "a.id = p.arch_id JOIN results r ON r.point_id = p.id ORDER BY p.idx");
    std::vector<std::string> flags;
    while (s.step()) flags.push_back(fmt::format("{}:{}{}", s.text(0), s.int64(1), s.int64(2)));
    EXPECT_EQ(flags, (std::vector<std::string>{"slow_clock:00", "fast_clock:11"}));
    Statement t = store.database().prepare(
        "SELECT seconds FROM phase_times WHERE phase = 'step' ORDER BY point_id");
    ASSERT_TRUE(t.step());
    EXPECT_DOUBLE_EQ(t.real(0), 2e-6);
}

TEST(ResultsStore, SpecsAreStoredOncePerContentHash) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("specs.db"));
    const auto sweep = store.ensure_sweep(sweep_record("s"));
    store.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
    store.write_point(sweep, synthetic_point(1, "a", 1.0, 12, 4.0));
    store.write_point(sweep, synthetic_point(2, "b", 2.0, 8, 6.0));
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM architectures"), 2);
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM networks"), 1);
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM points"), 3);
}

TEST(ResultsStore, RewritingAPointReplacesItsResults) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("rewrite.db"));
    const auto sweep = store.ensure_sweep(sweep_record("s"));
    store.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
    store.write_point(sweep, synthetic_point(0, "a", 1.0, 20, 7.0));
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM results"), 1);
    EXPECT_EQ(count(store.database(), "SELECT cycles FROM results"), 20);
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM phase_totals"), 1);
}

TEST(ResultsStore, AFailingWriteLeavesNoTraceOfThePoint) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("atomic.db"));
    const auto sweep = store.ensure_sweep(sweep_record("s"));
    PointRecord p = synthetic_point(0, "a", 1.0, 10, 5.0);
    p.results.push_back(p.results[0]);  // same (layer, phase, choice): UNIQUE fails
    EXPECT_ANY_THROW(store.write_point(sweep, p));
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM points"), 0);
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM results"), 0);
    EXPECT_TRUE(store.recorded_points(sweep).empty());
    // The store is still usable, including the spec cache.
    store.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
    EXPECT_EQ(count(store.database(), "SELECT count(*) FROM points"), 1);
}

TEST(ParetoMembers, KeepsRowsNoOtherRowDominates) {
    // Sorted lexicographically: (1,5,1) (2,2,1) (2,3,1) (3,1,1) (3,1,1) (4,4,0)
    const std::vector<ParetoMetrics> rows = {{1, 5, 1}, {2, 2, 1}, {2, 3, 1},
                                             {3, 1, 1}, {3, 1, 1}, {4, 4, 0}};
    const std::vector<bool> expected = {true, true, false, true, true, true};
    EXPECT_EQ(pareto_members(rows), expected);
}

TEST(ResultsStore, ParetoFlagsAcrossArchitecturesCountArea) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("pareto.db"));
    const auto sweep = store.ensure_sweep(sweep_record("s"));
    store.write_point(sweep, synthetic_point(0, "big", 10.0, 10, 5.0));    // fastest
    store.write_point(sweep, synthetic_point(1, "small", 1.0, 40, 5.0));   // smallest
    store.write_point(sweep, synthetic_point(2, "mid", 5.0, 40, 6.0));     // beaten by small
    store.write_point(sweep, synthetic_point(3, "small2", 1.0, 30, 4.0));  // beats small
    store.update_pareto_flags();
    Statement s = store.database().prepare(
        "SELECT a.name, r.pareto_layer, r.pareto_arch FROM results r JOIN points p ON p.id = "
        "r.point_id JOIN architectures a ON a.id = p.arch_id ORDER BY p.idx");
    std::vector<std::string> flags;
    while (s.step()) flags.push_back(fmt::format("{}:{}{}", s.text(0), s.int64(1), s.int64(2)));
    EXPECT_EQ(flags, (std::vector<std::string>{"big:11", "small:01", "mid:01", "small2:11"}));
}

TEST(ResultsStore, MissingFileIsAClearErrorForReaders) {
    const std::string message =
        error_of([] { ResultsStore::open_for_reading(fresh_db("missing.db")); });
    EXPECT_NE(message.find("no such results database"), std::string::npos) << message;
}

TEST(ResultsStore, AFileThatIsNotSQLiteIsAClearError) {
    const std::string path = testing::temp_file("garbage.db", std::string(4096, 'x'));
    const std::string message = error_of([&] { ResultsStore::open_for_reading(path); });
    EXPECT_NE(message.find("not an SQLite database"), std::string::npos) << message;
    EXPECT_NE(message.find("db check"), std::string::npos) << message;
    const std::string writing = error_of([&] { ResultsStore::open_for_writing(path); });
    EXPECT_NE(writing.find("not an SQLite database"), std::string::npos) << writing;
}

TEST(ResultsStore, AForeignSQLiteDatabaseIsRefused) {
    const std::string path = fresh_db("foreign.db");
    {
        Database db(path, OpenMode::create);
        db.execute("CREATE TABLE t (x)");
    }
    const std::string message = error_of([&] { ResultsStore::open_for_writing(path); });
    EXPECT_NE(message.find("not a trainloop results database"), std::string::npos) << message;
}

TEST(ResultsStore, ANewerSchemaIsRefused) {
    const std::string path = fresh_db("newer.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        store.database().execute("PRAGMA user_version = 99");
    }
    const std::string message = error_of([&] { ResultsStore::open_for_reading(path); });
    EXPECT_NE(message.find("newer trainloop (schema version 99"), std::string::npos) << message;
}

TEST(ResultsStore, ALockedDatabaseIsAClearErrorAfterTheTimeout) {
    const std::string path = fresh_db("locked.db");
    ResultsStore holder = ResultsStore::open_for_writing(path);
    Transaction hold(holder.database());
    Database other(path, OpenMode::read_write);
    other.set_busy_timeout(50);
    const std::string message = error_of([&] { Transaction t(other); });
    EXPECT_NE(message.find("locked by another process"), std::string::npos) << message;
}

TEST(ResultsStore, ReadersWorkWhileAWriterHoldsATransaction) {
    const std::string path = fresh_db("concurrent.db");
    ResultsStore writer = ResultsStore::open_for_writing(path);
    const auto sweep = writer.ensure_sweep(sweep_record("s"));
    writer.write_point(sweep, synthetic_point(0, "a", 1.0, 10, 5.0));
    Transaction open_write(writer.database());
    writer.database().execute("DELETE FROM phase_totals");
    ResultsStore reader = ResultsStore::open_for_reading(path);
    EXPECT_EQ(count(reader.database(), "SELECT count(*) FROM phase_totals"), 1);
}

TEST(ResultsStore, ReadOnlySqlRefusesWrites) {
    const std::string path = fresh_db("readonly.db");
    ResultsStore::open_for_writing(path);
    ResultsStore reader = ResultsStore::open_for_reading(path);
    const std::string message =
        error_of([&] { run_read_only_sql(reader.database(), "DELETE FROM points"); });
    EXPECT_NE(message.find("`DELETE` would change the database"), std::string::npos) << message;
    EXPECT_EQ(run_read_only_sql(reader.database(), "SELECT count(*) AS n FROM points").columns,
              (std::vector<std::string>{"n"}));
}

TEST(ResultsStore, CheckFindsACorruptFile) {
    const std::string path = fresh_db("corrupt.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        const auto sweep = store.ensure_sweep(sweep_record("s"));
        std::vector<PointRecord> points;
        for (int i = 0; i < 200; ++i) points.push_back(synthetic_point(i, "a", 1.0, 10 + i, 5.0));
        store.write_points(sweep, points);
        store.database().execute("PRAGMA wal_checkpoint(TRUNCATE)");
        Database ok(path, OpenMode::read_only);
        EXPECT_TRUE(check_database(ok).empty());
    }
    // Overwrite a page in the middle of the file (past the header page).
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4096 * 3);
        const std::string junk(4096, '\x5a');
        f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    const std::string message = error_of([&] {
        Database db(path, OpenMode::read_only);
        const auto problems = check_database(db);
        if (!problems.empty()) throw SpecError({path, 0, 0}, "", problems.front());
    });
    EXPECT_NE(message, "no error");
}

TEST(ResultsStore, MergeAddsMissingPointsOnceAndMatchesSpecsByHash) {
    const std::string a = fresh_db("a.db");
    const std::string b = fresh_db("b.db");
    const std::string out = fresh_db("out.db");
    {
        ResultsStore sa = ResultsStore::open_for_writing(a);
        const auto s = sa.ensure_sweep(sweep_record("s"));
        sa.write_point(s, synthetic_point(0, "x", 1.0, 10, 5.0));
        sa.write_point(s, synthetic_point(2, "y", 2.0, 10, 5.0));
        ResultsStore sb = ResultsStore::open_for_writing(b);
        const auto t = sb.ensure_sweep(sweep_record("s"));
        sb.write_point(t, synthetic_point(1, "x", 1.0, 11, 5.0));
        sb.write_point(t, synthetic_point(2, "y", 2.0, 10, 5.0));  // also in a
    }
    ResultsStore merged = ResultsStore::open_for_writing(out);
    const MergeSummary summary = merge_databases(merged, {a, b});
    EXPECT_EQ(summary.points_added, 3);
    EXPECT_EQ(summary.points_skipped, 1);
    EXPECT_EQ(count(merged.database(), "SELECT count(*) FROM points"), 3);
    EXPECT_EQ(count(merged.database(), "SELECT count(*) FROM results"), 3);
    EXPECT_EQ(count(merged.database(), "SELECT count(*) FROM architectures"), 2);
    EXPECT_EQ(count(merged.database(), "SELECT count(*) FROM sweeps"), 1);
    const std::string message = error_of([&] { merge_databases(merged, {out}); });
    EXPECT_NE(message.find("an input is the output database"), std::string::npos) << message;
}

TEST(CannedQueries, UnknownNamesListWhatTheDatabaseHolds) {
    const std::string path = fresh_db("names.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        store.write_point(store.ensure_sweep(sweep_record("s")),
                          synthetic_point(0, "procrustes", 1.0, 10, 5.0));
    }
    ResultsStore reader = ResultsStore::open_for_reading(path);
    QueryArgs args;
    args.arch = "procrustez";
    args.network = "net";
    args.dataflow = "K,N";
    const std::string message =
        error_of([&] { run_canned_query(reader.database(), "best", args); });
    EXPECT_NE(message.find("no architecture named `procrustez`"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean `procrustes`"), std::string::npos) << message;
    const std::string missing =
        error_of([&] { run_canned_query(reader.database(), "best", QueryArgs{}); });
    EXPECT_NE(missing.find("`best` needs --arch"), std::string::npos) << missing;
    const std::string unknown =
        error_of([&] { run_canned_query(reader.database(), "sumary", QueryArgs{}); });
    EXPECT_NE(unknown.find("did you mean `summary`"), std::string::npos) << unknown;
}

TEST(CannedQueries, BestPicksTheLowestEdpPerLayerPhase) {
    const std::string path = fresh_db("best.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        const auto s = store.ensure_sweep(sweep_record("s"));
        PointRecord fewer_words = synthetic_point(0, "a", 1.0, 10, 5.0);  // EDP 50
        fewer_words.results[0].offchip_words = 300;
        PointRecord lower_edp = synthetic_point(1, "a", 1.0, 4, 10.0);  // EDP 40
        lower_edp.results[0].offchip_words = 700;
        store.write_point(s, fewer_words);
        store.write_point(s, lower_edp);
    }
    ResultsStore reader = ResultsStore::open_for_reading(path);
    QueryArgs args;
    args.arch = "a";
    args.network = "net";
    args.dataflow = "K,N";
    const QueryTable t = run_canned_query(reader.database(), "best", args);
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(std::get<std::int64_t>(t.rows[0][2]), 4);
    EXPECT_EQ(std::get<std::string>(t.rows[0].back()), "DRAM[K2]");
    args.by = "energy";
    const QueryTable by_energy = run_canned_query(reader.database(), "best", args);
    EXPECT_EQ(std::get<std::int64_t>(by_energy.rows[0][2]), 10);
    args.by = "offchip";
    const QueryTable by_words = run_canned_query(reader.database(), "best", args);
    EXPECT_EQ(std::get<std::int64_t>(by_words.rows[0][2]), 10);
    EXPECT_EQ(by_words.columns[6], "offchip");
    EXPECT_DOUBLE_EQ(std::get<double>(by_words.rows[0][6]), 300.0);
}

}  // namespace
}  // namespace trainloop
