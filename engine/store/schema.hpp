// The results database's schema and its migrations (documented in
// docs/results_db.md). The schema version is SQLite's `user_version`: a new
// database gets every migration in order; an older one the missing ones,
// each in its own transaction; a newer one (written by a later trainloop) is
// refused rather than misread.
#pragma once

#include <string>
#include <vector>

#include "store/sqlite_database.hpp"

namespace trainloop {

// The version this build writes and reads.
int current_schema_version();

// Writable connection: WAL mode, normal sync (a killed process loses
// nothing that was committed), foreign keys; then migrates to the current
// version. Throws SpecError for a file that is not a trainloop database or
// is newer than this build.
void prepare_for_writing(Database& db);

// Read-only connection: checks it is a trainloop database of a version this
// build reads (SpecError otherwise).
void check_readable(Database& db);

// The tables and indexes of the current schema that are missing from `db`
// or defined differently ("table results is missing"); empty when intact.
std::vector<std::string> check_schema(Database& db);

// The metrics of vocabulary/layer_phase_metrics.def whose `results` column is
// missing or declared with another type; empty when every metric has its
// column. A metric added to the table without its migration fails here.
std::vector<std::string> metric_column_problems(Database& db);

}  // namespace trainloop
