// The metric table (vocabulary/layer_phase_metrics.def) drives the results
// store: every metric is written to its own column, merged, checked and
// documented. These tests iterate the table, so a metric added to it is
// covered without a new test; one added without its migration fails here.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <type_traits>

#include "store/results_store.hpp"
#include "store/schema.hpp"
#include "store/store_merge.hpp"
#include "store_test_support.hpp"
#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {
namespace {

using testing::fresh_db;
using testing::synthetic_point;

// A value per metric that no other metric has: a bind or a column swapped
// between two metrics then shows as a wrong value.
LayerPhaseMetrics distinct_metrics() {
    LayerPhaseMetrics m;
    double next = 1;
    for_each_metric(m, [&](const MetricInfo&, auto& value) {
        using T = std::remove_reference_t<decltype(value)>;
        value = static_cast<T>(next * 1000 + 7);
        next += 1;
    });
    return m;
}

PointRecord point_with(const LayerPhaseMetrics& metrics) {
    PointRecord p = synthetic_point(0, "a", 1.0, 10, 5.0);
    static_cast<LayerPhaseMetrics&>(p.results.front()) = metrics;
    return p;
}

// Every metric read back from its column of the only result row.
LayerPhaseMetrics stored_metrics(Database& db) {
    LayerPhaseMetrics m;
    for_each_metric(m, [&](const MetricInfo& info, auto& value) {
        Statement s = db.prepare(fmt::format("SELECT {} FROM results", info.name));
        EXPECT_TRUE(s.step()) << info.name;
        const int type = s.column_type(0);
        if constexpr (std::is_same_v<std::remove_reference_t<decltype(value)>, std::int64_t>) {
            EXPECT_EQ(type, SQLITE_INTEGER) << info.name;
            value = s.int64(0);
        } else {
            EXPECT_EQ(type, SQLITE_FLOAT) << info.name;
            value = s.real(0);
        }
    });
    return m;
}

TEST(LayerPhaseMetrics, TheTableNamesEachMetricOnceWithADescription) {
    std::set<std::string_view> names, keys;
    for (const MetricInfo& m : kLayerPhaseMetrics) {
        EXPECT_TRUE(names.insert(m.name).second) << m.name;
        EXPECT_TRUE(keys.insert(m.json_key).second) << m.json_key;
        EXPECT_FALSE(m.header.empty()) << m.name;
        EXPECT_FALSE(m.description.empty()) << m.name;
    }
    EXPECT_EQ(metric_columns("r."),
              "r.cycles, r.energy_pj, r.utilization, r.offchip_words, "
              "r.effectual_macs, r.performed_macs, r.imbalance_cycles, "
              "r.imbalance_pct, r.workload_stddev, r.workload_stddev_coarse, "
              "r.workload_stddev_two_level");
}

TEST(LayerPhaseMetrics, EveryMetricIsWrittenToItsOwnColumn) {
    const LayerPhaseMetrics want = distinct_metrics();
    const std::string path = fresh_db("metrics_written.db");
    ResultsStore store = ResultsStore::open_for_writing(path);
    store.write_point(store.ensure_sweep({"s", "sweep: s", "s", 1}), point_with(want));
    EXPECT_EQ(stored_metrics(store.database()), want);
}

TEST(LayerPhaseMetrics, MergeCopiesEveryMetric) {
    const LayerPhaseMetrics want = distinct_metrics();
    const std::string shard = fresh_db("metrics_shard.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(shard);
        store.write_point(store.ensure_sweep({"s", "sweep: s", "s", 1}), point_with(want));
    }
    ResultsStore merged = ResultsStore::open_for_writing(fresh_db("metrics_merged.db"));
    merge_databases(merged, {shard}, {});
    EXPECT_EQ(stored_metrics(merged.database()), want);
}

TEST(LayerPhaseMetrics, TheCurrentSchemaHasAColumnOfTheRightTypePerMetric) {
    ResultsStore store = ResultsStore::open_for_writing(fresh_db("metrics_schema.db"));
    EXPECT_TRUE(metric_column_problems(store.database()).empty());
    EXPECT_TRUE(check_schema(store.database()).empty());
}

TEST(LayerPhaseMetrics, AMetricWithoutItsColumnIsNamedByTheSchemaCheck) {
    // What a metric added to the table without its migration looks like.
    const std::string path = fresh_db("metrics_missing.db");
    {
        ResultsStore store = ResultsStore::open_for_writing(path);
        store.database().execute("ALTER TABLE results DROP COLUMN workload_stddev_coarse");
    }
    Database db(path, OpenMode::read_only);
    const std::vector<std::string> problems = metric_column_problems(db);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems.front(),
              "results.workload_stddev_coarse is missing (a metric of this build)");
    const std::vector<std::string> all = check_schema(db);
    EXPECT_NE(std::find(all.begin(), all.end(), problems.front()), all.end());
}

TEST(LayerPhaseMetrics, TheResultsDatabaseDocumentNamesEveryMetric) {
    std::ifstream in(std::string(TRAINLOOP_SOURCE_DIR) + "/docs/results_db.md");
    ASSERT_TRUE(in) << "docs/results_db.md";
    std::stringstream text;
    text << in.rdbuf();
    const std::string doc = text.str();
    const std::size_t row = doc.find("| `results` |");
    ASSERT_NE(row, std::string::npos);
    const std::string results_row = doc.substr(row, doc.find('\n', row) - row);
    for (const MetricInfo& m : kLayerPhaseMetrics) {
        EXPECT_NE(results_row.find(fmt::format("`{}`", m.name)), std::string::npos)
            << m.name << " is not in docs/results_db.md's `results` row";
    }
}

}  // namespace
}  // namespace trainloop
