// Combining results databases (`trainloop db merge OUT IN...`): the shards
// of a sweep run as a cluster array job, or any databases. Specs, sweeps and
// mappings are matched by content hash (or text), points by (sweep hash,
// point index); a point already in OUT (or in an earlier IN) is kept and the
// later copy skipped — the mapper is deterministic, so both are the same.
// Each input is copied in one transaction; the Pareto flags are recomputed
// at the end.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "store/results_store.hpp"

namespace trainloop {

struct MergeSummary {
    std::int64_t points_added = 0;
    std::int64_t points_skipped = 0;  // already present
    std::int64_t results_added = 0;
};

// Throws SpecError for an input that is missing, corrupt, not a trainloop
// database, or the output itself.
// `merged(k)` is called after the k-th input is committed.
MergeSummary merge_databases(ResultsStore& out, const std::vector<std::filesystem::path>& inputs,
                             const std::function<void(std::size_t)>& merged = {});

// SQLite's integrity and foreign-key checks plus the schema version: an
// empty list means the database is sound.
std::vector<std::string> check_database(Database& db);

}  // namespace trainloop
