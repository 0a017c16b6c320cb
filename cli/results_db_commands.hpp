// The results-database commands (docs/results_db.md):
//   trainloop sweep SWEEP.yaml --db FILE [--threads N] [--shard I/N] [--quiet]
//       runs (or resumes) a sweep; progress on standard error (a bar on a
//       terminal, a line every 10 s otherwise); a one-line account at the end.
//   trainloop query --db FILE NAME [--arch ...] [--format table|csv|json]
//   trainloop query --db FILE --sql "SELECT ..."
//       canned queries (store/canned_queries.hpp) or any read-only SQL, on a
//       read-only connection (works while a sweep writes).
//   trainloop db merge OUT IN...   combine shard databases
//   trainloop db check FILE        SQLite's integrity check (exit 2 if unsound)
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_sweep_command(CLI::App& app);
void add_query_command(CLI::App& app);
void add_db_command(CLI::App& app);

}  // namespace trainloop::cli
