// Running a sweep into the results store: every point of the (shard of the)
// sweep not yet recorded is mapped (map_network over its architecture,
// network, batch, dataflow and objective) and written with its results in
// one transaction, so a killed run resumes where it stopped: recorded points
// are skipped, the points that were in flight are redone, and the end state
// is the same as an uninterrupted run's (the mapper is deterministic).
// Points run one after another; each search uses `threads` threads. A point
// that cannot be mapped (no valid mapping, or a dataflow a layer cannot
// take) is recorded as failed with the reason. The Pareto flags are
// recomputed at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "store/results_store.hpp"
#include "sweep/architecture_variant.hpp"
#include "sweep/sweep_points.hpp"
#include "sweep/sweep_spec.hpp"

namespace trainloop {

struct SweepProgress {
    std::int64_t done = 0;     // points of this run finished (recorded or failed) so far
    std::int64_t to_run = 0;   // points this run has to do
    std::int64_t skipped = 0;  // already recorded before this run
    std::int64_t failed = 0;
    double seconds = 0;
};
using SweepProgressFn = std::function<void(const SweepProgress&)>;

struct SweepRunOptions {
    Shard shard;
    int threads = 0;  // in all; 0: all cores
    // Points mapped side by side, sharing the threads; 0: as many as the
    // threads allow beyond what one point's search can keep busy
    // (search_parallelism), so 1 unless the machine has more cores than that.
    // The results do not depend on it.
    int parallel_points = 0;
};

struct SweepRunSummary {
    std::int64_t sweep_points = 0;  // in the whole sweep
    std::int64_t shard_points = 0;  // in this shard
    std::int64_t skipped = 0;
    std::int64_t ran = 0;
    std::int64_t failed = 0;  // of those ran
    double seconds = 0;
};

// `sweep --check`: everything run_sweep reads before its first point —
// architectures (with their overrides and constraints), networks, sparsity
// profiles and their masks at every batch, the constraints file against
// every architecture, the dataflows against every architecture's
// constraints — loaded and checked without searching or writing anything.
// Throws the SpecError run_sweep would; `notes` lists the combinations that
// would run but fail as points (a dataflow an architecture's constraints
// forbid).
struct SweepCheckSummary {
    std::int64_t points = 0;
    std::vector<std::string> notes;
};
SweepCheckSummary check_sweep(const SweepSpec& spec);

// Throws SpecError for bad specs (before anything is written) and for
// database errors.
// The sweep's architectures, loaded as run_sweep loads them: an error in an
// architecture file is reported at the sweep entry that names it.
std::vector<ArchitectureVariant> load_sweep_architectures(const SweepSpec& spec);

SweepRunSummary run_sweep(const SweepSpec& spec, ResultsStore& store,
                          const SweepRunOptions& options, const SweepProgressFn& progress = {});

}  // namespace trainloop
