// ResultsStore: the SQLite results database (schema: docs/results_db.md).
//
// Writing: a sweep is registered by its content hash (running the same sweep
// file again finds the same sweep); each point is written in one transaction
// together with its status, so a killed writer leaves every point either
// fully recorded or absent, and a resumed sweep skips exactly the recorded
// ones. Specs are stored once per content hash, mappings once per text.
// Pareto flags are recomputed (update_pareto_flags) when a sweep, a map run
// or a merge ends; until then they may be stale.
//
// Errors: SpecError for a missing, locked, corrupt, foreign or too-new file
// (sqlite_database.hpp, schema.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>

#include "store/sqlite_database.hpp"
#include "store/store_records.hpp"

namespace trainloop {

class ResultsStore {
  public:
    // Opens (creating when missing) and migrates a database for writing.
    static ResultsStore open_for_writing(const std::filesystem::path& path);
    // Opens an existing database read-only (queries, readers during a sweep).
    static ResultsStore open_for_reading(const std::filesystem::path& path);

    // The id of the sweep with this hash, registered if new.
    std::int64_t ensure_sweep(const SweepRecord& sweep);
    // Indices of the points of `sweep_id` already recorded (done or failed).
    std::set<std::int64_t> recorded_points(std::int64_t sweep_id);
    // One transaction: the point, its results and totals (replacing an
    // earlier record of the same index).
    void write_point(std::int64_t sweep_id, const PointRecord& point);
    // Many points in one transaction (bulk loads, merges).
    void write_points(std::int64_t sweep_id, std::span<const PointRecord> points);
    // Recomputes every Pareto flag of the database (docs/results_db.md).
    void update_pareto_flags();

    Database& database() { return *db_; }

  private:
    explicit ResultsStore(std::unique_ptr<Database> db);
    void write_point_in_transaction(std::int64_t sweep_id, const PointRecord& point);
    void write_training_run(std::int64_t point_id, const TrainingRunRecord& run);
    std::int64_t spec_id(const std::string& table, const SpecText& spec,
                         const ArchitectureRecord* arch);
    std::int64_t mapping_id(const std::string& text);
    std::int64_t id_of(const std::string& select_id, const std::string& key);
    Statement& cached(const std::string& sql);

    std::unique_ptr<Database> db_;
    std::map<std::string, std::unique_ptr<Statement>> statements_;
    std::map<std::string, std::int64_t> spec_ids_;  // "table:hash" -> id
};

}  // namespace trainloop
