#include "store/schema.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <map>
#include <optional>
#include <string_view>

#include "common/spec_error.hpp"
#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {
namespace {

// Migration i takes the schema from version i to i + 1. Never edit one that
// has shipped: add the next.
constexpr std::array<std::string_view, 7> kMigrations = {
    // 1: specs, sweeps, points, results, totals and Pareto flags.
    R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE architectures (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  hash       TEXT NOT NULL UNIQUE,
  yaml       TEXT NOT NULL,
  area_um2   REAL NOT NULL,
  pe_rows    INTEGER NOT NULL,
  pe_columns INTEGER NOT NULL
);
CREATE TABLE networks (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  yaml TEXT NOT NULL
);
CREATE TABLE sparsity_profiles (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  yaml TEXT NOT NULL
);
CREATE TABLE sweeps (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  hash         TEXT NOT NULL UNIQUE,
  yaml         TEXT NOT NULL,
  tool_version TEXT NOT NULL,
  points       INTEGER NOT NULL
);
CREATE TABLE points (
  id          INTEGER PRIMARY KEY,
  sweep_id    INTEGER NOT NULL REFERENCES sweeps(id),
  idx         INTEGER NOT NULL,
  arch_id     INTEGER NOT NULL REFERENCES architectures(id),
  network_id  INTEGER NOT NULL REFERENCES networks(id),
  batch       INTEGER NOT NULL,
  sparsity_id INTEGER NOT NULL REFERENCES sparsity_profiles(id),
  dataflow    TEXT NOT NULL,
  objective   TEXT NOT NULL,
  search      TEXT NOT NULL,
  budget      INTEGER NOT NULL,
  seed        INTEGER NOT NULL,
  phases      TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('done', 'failed')),
  failure     TEXT,
  evaluations INTEGER NOT NULL,
  layer_phases INTEGER NOT NULL,
  pareto_step INTEGER NOT NULL DEFAULT 0,
  UNIQUE (sweep_id, idx)
);
CREATE INDEX points_by_design ON points (arch_id, network_id, dataflow);
CREATE INDEX points_by_network ON points (network_id, batch);
CREATE INDEX points_on_step_front ON points (network_id) WHERE pareto_step = 1;
CREATE TABLE mappings (
  id   INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
);
CREATE TABLE results (
  id               INTEGER PRIMARY KEY,
  point_id         INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
  layer            TEXT NOT NULL,
  layer_index      INTEGER NOT NULL,
  phase            TEXT NOT NULL CHECK (phase IN ('fw', 'bw', 'wu')),
  choice           INTEGER NOT NULL,
  mapping_id       INTEGER NOT NULL REFERENCES mappings(id),
  macs             INTEGER NOT NULL,
  cycles           INTEGER NOT NULL,
  energy_pj        REAL NOT NULL,
  utilization      REAL NOT NULL,
  effectual_macs   REAL NOT NULL,
  imbalance_cycles REAL NOT NULL,
  imbalance_pct    REAL NOT NULL,
  energy_breakdown TEXT NOT NULL,
  reused           INTEGER NOT NULL,
  pareto_arch      INTEGER NOT NULL DEFAULT 0,
  pareto_layer     INTEGER NOT NULL DEFAULT 0,
  UNIQUE (point_id, layer_index, phase, choice)
);
CREATE INDEX results_on_layer_front ON results (layer, phase) WHERE pareto_layer = 1;
CREATE TABLE phase_totals (
  point_id         INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
  phase            TEXT NOT NULL CHECK (phase IN ('fw', 'bw', 'wu', 'step')),
  layer_phases     INTEGER NOT NULL,
  cycles           INTEGER NOT NULL,
  energy_pj        REAL NOT NULL,
  macs             INTEGER NOT NULL,
  effectual_macs   REAL NOT NULL,
  imbalance_cycles REAL NOT NULL,
  PRIMARY KEY (point_id, phase)
) WITHOUT ROWID;
CREATE INDEX phase_totals_by_phase ON phase_totals (phase, layer_phases, cycles, energy_pj);
)sql",
    // 2: what reports need: each architecture's clock (wall time) and parsed
    // parameters, each point's density-schedule iteration, performed MACs,
    // energy by component class, and views over them. Rows written before
    // version 2 keep NULL where the value cannot be recovered from the stored
    // text (summary, performed_macs, energy_by_class); clock_ghz and
    // iteration are read back from the stored YAML (backfill_version_2).
    R"sql(
ALTER TABLE architectures ADD COLUMN clock_ghz REAL NOT NULL DEFAULT 1.0;
ALTER TABLE architectures ADD COLUMN summary TEXT;
ALTER TABLE points ADD COLUMN iteration INTEGER;
ALTER TABLE results ADD COLUMN performed_macs REAL;
ALTER TABLE results ADD COLUMN energy_by_class TEXT;
ALTER TABLE phase_totals ADD COLUMN performed_macs REAL;
CREATE VIEW phase_times AS
  SELECT t.point_id, t.phase, t.cycles, t.cycles / (a.clock_ghz * 1e9) AS seconds, t.energy_pj,
         t.macs, t.performed_macs, t.effectual_macs, t.imbalance_cycles
  FROM phase_totals t JOIN points p ON p.id = t.point_id JOIN architectures a ON a.id = p.arch_id;
CREATE VIEW result_energy_by_class AS
  SELECT r.id AS result_id, r.point_id, r.layer, r.layer_index, r.phase, r.choice,
         c.key AS class, c.value AS energy_pj
  FROM results r, json_each(r.energy_by_class) c
  WHERE r.energy_by_class IS NOT NULL;
)sql",
    // 3: search quality per result: whether the search converged, and the
    // lower bound on cycles and energy of the layer-phase (NULL when none is
    // claimed: sparse evaluations, and rows written before version 3, whose
    // `converged` is NULL too).
    R"sql(
ALTER TABLE results ADD COLUMN converged INTEGER;
ALTER TABLE results ADD COLUMN lower_bound_cycles INTEGER;
ALTER TABLE results ADD COLUMN lower_bound_energy_pj REAL;
)sql",
    // 4: the per-PE workload standard
    // deviation of each result, normalized to the mean PE work (0 when
    // dense; NULL for rows written before it). One self-contained column.
    R"sql(
ALTER TABLE results ADD COLUMN workload_stddev REAL;
)sql",
    // 5: whole training runs (a sweep's `iterations:` axis): per point the
    // run's totals beside dense training's, and its samples. Older points
    // cost one iteration and have no row here.
    R"sql(
CREATE TABLE training_runs (
  point_id              INTEGER PRIMARY KEY REFERENCES points(id) ON DELETE CASCADE,
  iterations            INTEGER NOT NULL,
  samples               INTEGER NOT NULL,
  total_cycles          INTEGER NOT NULL,
  total_energy_pj       REAL NOT NULL,
  dense_total_cycles    INTEGER NOT NULL,
  dense_total_energy_pj REAL NOT NULL,
  total_macs            REAL NOT NULL,
  effectual_macs        REAL NOT NULL,
  macs_removed_fraction REAL NOT NULL,
  distinct_states       INTEGER NOT NULL
);
CREATE TABLE training_run_samples (
  point_id            INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,
  sample              INTEGER NOT NULL,
  iteration           INTEGER NOT NULL,
  begin_iteration     INTEGER NOT NULL,
  end_iteration       INTEGER NOT NULL,
  exact               INTEGER NOT NULL,
  step_cycles         INTEGER NOT NULL,
  step_energy_pj      REAL NOT NULL,
  step_effectual_macs REAL NOT NULL,
  PRIMARY KEY (point_id, sample)
) WITHOUT ROWID;
CREATE VIEW training_run_times AS
  SELECT r.point_id, r.iterations, r.total_cycles, r.total_cycles / (a.clock_ghz * 1e9) AS seconds,
         r.total_energy_pj, r.dense_total_cycles,
         r.dense_total_cycles / (a.clock_ghz * 1e9) AS dense_seconds, r.dense_total_energy_pj,
         CAST(r.dense_total_cycles AS REAL) / r.total_cycles AS speedup,
         r.total_energy_pj / r.dense_total_energy_pj AS energy_ratio, r.macs_removed_fraction
  FROM training_runs r JOIN points p ON p.id = r.point_id JOIN architectures a ON a.id = p.arch_id;
)sql",
    // 6: a failed point's rejection histogram, the search's rejected mappings
    // by reason as a JSON object (NULL for done points and for failures that
    // are not a search's, such as a dataflow a layer cannot take).
    R"sql(
ALTER TABLE points ADD COLUMN rejections TEXT;
)sql",
    // 7: each result's off-chip words (read from and written to the outermost
    // level, metadata included: eval/evaluation.hpp offchip_words()) and the
    // PEs' work spreads Chen et al. 2024's balancing steps would leave
    // (imbalance/balancing_schemes.hpp); NULL for rows written before.
    R"sql(
ALTER TABLE results ADD COLUMN offchip_words REAL;
ALTER TABLE results ADD COLUMN workload_stddev_coarse REAL;
ALTER TABLE results ADD COLUMN workload_stddev_two_level REAL;
)sql",
};

// The clock of a stored architecture text (the top-level `clock_ghz`, 1 GHz
// when absent, as the parser reads it).
double stored_clock_ghz(const std::string& yaml) {
    try {
        const YAML::Node root = YAML::Load(yaml);
        if (root.IsMap() && root["clock_ghz"]) return root["clock_ghz"].as<double>();
    } catch (const YAML::Exception&) {
        // Stored texts were parsed once; keep the default if this one is not.
    }
    return 1.0;
}

// The iteration a stored sweep (or `map --db` description) read its density
// schedules at; nullopt: the final densities.
std::optional<std::int64_t> stored_iteration(const std::string& yaml) {
    try {
        const YAML::Node root = YAML::Load(yaml);
        YAML::Node node =
            root.IsMap() && root["map"] ? root["map"]["iteration"] : root["iteration"];
        if (node && node.IsScalar() && node.Scalar() != "final") return node.as<std::int64_t>();
    } catch (const YAML::Exception&) {
    }
    return std::nullopt;
}

void backfill_version_2(Database& db) {
    Statement archs = db.prepare("SELECT id, yaml FROM architectures");
    Statement set_clock = db.prepare("UPDATE architectures SET clock_ghz = ? WHERE id = ?");
    while (archs.step()) {
        set_clock.bind(1, stored_clock_ghz(archs.text(1))).bind(2, archs.int64(0)).run();
    }
    Statement sweeps = db.prepare("SELECT id, yaml FROM sweeps");
    Statement set_iteration = db.prepare("UPDATE points SET iteration = ? WHERE sweep_id = ?");
    while (sweeps.step()) {
        if (const auto iteration = stored_iteration(sweeps.text(1))) {
            set_iteration.bind(1, *iteration).bind(2, sweeps.int64(0)).run();
        }
    }
}

// Work a migration cannot do in SQL, run in its transaction.
void backfill(Database& db, int version) {
    if (version == 2) backfill_version_2(db);
}

int user_version(Database& db) {
    Statement s = db.prepare("PRAGMA user_version");
    s.step();
    return static_cast<int>(s.int64(0));
}

std::int64_t table_count(Database& db) {
    Statement s = db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'");
    s.step();
    return s.int64(0);
}

void check_version(Database& db, int version) {
    const std::string file = db.path().string();
    if (version == 0 && table_count(db) > 0) {
        throw SpecError({file, 0, 0}, "",
                        "an SQLite database, but not a trainloop results database",
                        "a database written by `trainloop sweep` or `trainloop map --db`",
                        "give another --db file");
    }
    if (version > current_schema_version()) {
        throw SpecError(
            {file, 0, 0}, "",
            fmt::format("written by a newer trainloop (schema version {}; this build "
                        "knows up to {})",
                        version, current_schema_version()),
            "a results database of schema version <= " + std::to_string(current_schema_version()),
            "use the trainloop that wrote it");
    }
}

}  // namespace

int current_schema_version() { return static_cast<int>(kMigrations.size()); }

void prepare_for_writing(Database& db) {
    // journal_mode returns a row; execute() ignores it.
    db.execute_retrying_when_busy("PRAGMA journal_mode = WAL");
    db.execute("PRAGMA synchronous = NORMAL");
    db.execute("PRAGMA foreign_keys = ON");
    // The version is read inside each migration's write transaction: another
    // process creating the same new database at the same moment has then
    // either migrated it already (seen here) or waits for this one.
    while (true) {
        Transaction t(db);
        const int v = user_version(db);
        check_version(db, v);
        if (v >= current_schema_version()) break;  // the guard rolls back: nothing written
        db.execute(kMigrations[static_cast<std::size_t>(v)]);
        backfill(db, v + 1);
        db.execute(fmt::format("PRAGMA user_version = {}", v + 1));
        t.commit();
    }
}

std::vector<std::string> check_schema(Database& db) {
    // The schema this build creates, built in memory, against the file's:
    // every table and index must be there with the same definition.
    Database expected(":memory:", OpenMode::create);
    for (std::string_view migration : kMigrations) expected.execute(migration);
    struct Object {
        std::string table;  // the table it belongs to (itself for a table)
        std::string sql;
    };
    auto objects = [](Database& from) {
        std::map<std::string, Object> out;  // "table results" -> its table and SQL
        Statement s = from.prepare(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema "
            "WHERE name NOT LIKE 'sqlite_%'");
        while (s.step()) out[s.text(0) + " " + s.text(1)] = {s.text(2), s.text(3)};
        return out;
    };
    const auto want = objects(expected);
    const auto have = objects(db);
    std::vector<std::string> problems;
    for (const auto& [name, object] : want) {
        const auto it = have.find(name);
        if (it == have.end()) {
            // A dropped table takes its indexes along: the table is the problem.
            const bool table_missing =
                !name.starts_with("table ") && !have.count("table " + object.table);
            if (!table_missing) problems.push_back(fmt::format("{} is missing", name));
        } else if (it->second.sql != object.sql) {
            problems.push_back(fmt::format("{} differs from the schema this build writes", name));
        }
    }
    // Objects of the user's own (an index for their queries) are left alone.
    if (have.count("table results")) {
        for (std::string& p : metric_column_problems(db)) problems.push_back(std::move(p));
    }
    return problems;
}

std::vector<std::string> metric_column_problems(Database& db) {
    std::map<std::string, std::string> declared;  // column -> declared type
    Statement columns = db.prepare("SELECT name, type FROM pragma_table_info('results')");
    while (columns.step()) declared[columns.text(0)] = columns.text(1);
    std::vector<std::string> problems;
    for (const MetricInfo& m : kLayerPhaseMetrics) {
        const auto it = declared.find(std::string(m.name));
        if (it == declared.end()) {
            problems.push_back(
                fmt::format("results.{} is missing (a metric of this build)", m.name));
        } else if (it->second != sql_type_name(m.sql_type)) {
            problems.push_back(fmt::format("results.{} is {}, the metric is {}", m.name, it->second,
                                           sql_type_name(m.sql_type)));
        }
    }
    return problems;
}

void check_readable(Database& db) {
    const int version = user_version(db);
    if (version == 0 && table_count(db) == 0) {
        throw SpecError({db.path().string(), 0, 0}, "", "an empty database: no results yet",
                        "a database written by `trainloop sweep` or `trainloop map --db`");
    }
    check_version(db, version);
    if (version < current_schema_version()) {
        throw SpecError({db.path().string(), 0, 0}, "",
                        fmt::format("schema version {} is older than this build's {}", version,
                                    current_schema_version()),
                        "a database of the current schema",
                        "any write (e.g. `trainloop db merge NEW.db OLD.db`) migrates it");
    }
}

}  // namespace trainloop
