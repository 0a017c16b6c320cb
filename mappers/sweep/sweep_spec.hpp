// SweepSpec: a sweep file (`sweep:` top-level key; docs/results_db.md) as a
// plain value — a cartesian product over architectures (files, or a file
// with parameter overrides), networks, batch sizes, sparsity profiles,
// dataflows, objectives and (optionally) training-run lengths, minus the combinations an `exclude`
// entry matches, with one search setting for every point. Parsing and every check are in
// sweep_parser.hpp; the points are listed by sweep_points.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/spec_error.hpp"
#include "density/density_schedule.hpp"
#include "evaluator/evaluators.hpp"
#include "run/run_settings.hpp"
#include "search/search.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// One override of an architecture file: a dotted key path into its YAML tree
// (`pe_array.rows`, `storage.GLB.capacity` — a list element is named by its
// `name:` or its index) and the YAML text of the value to put there.
struct ArchOverride {
    std::string path;
    std::string value_yaml;
    SourceLocation location;  // of the override in the sweep file
    std::string key;          // its key path in the sweep file
};

struct SweepArchitecture {
    std::string written;              // the entry's file as the sweep gives it (name or path)
    std::string file;                 // resolved path
    std::optional<std::string> name;  // with overrides: the variant's name
    std::vector<ArchOverride> overrides;
    SourceLocation location;
};

// Leaves out every point whose coordinates equal all the given ones. An
// architecture, network or sparsity profile is named by its name (the spec's
// own) or as the sweep's axis writes it (`w05.yaml`); a value that names no
// entry of its axis is an error (sweep_points.hpp), never a silent no-op.
struct SweepExclusion {
    std::optional<std::string> architecture;
    std::optional<std::string> network;
    std::optional<std::int64_t> batch;
    std::optional<std::string> sparsity;
    std::optional<std::string> dataflow;
    std::optional<std::string> objective;
    std::optional<std::int64_t> iterations;
    // Where each given key's value is in the sweep file, and its key path.
    std::map<std::string, std::pair<SourceLocation, std::string>> given;
};

struct SweepSpec {
    std::string name;
    std::string description;
    std::string file;  // where it was read from
    std::string text;  // its YAML text, as read
    std::vector<SweepArchitecture> architectures;
    std::vector<std::string> networks;              // shipped names or resolved paths
    std::vector<std::string> networks_written;      // each entry as the sweep file gives it
    std::vector<SourceLocation> network_locations;  // of each entry in the sweep file
    std::vector<std::int64_t> batches;
    std::vector<std::string> sparsity;               // resolved profile paths
    std::vector<std::string> sparsity_written;       // each entry as the sweep file gives it
    std::vector<SourceLocation> sparsity_locations;  // empty: the default profile
    std::vector<std::string> dataflows;
    std::vector<std::string> objectives;
    std::vector<Phase> phases;
    // The training iteration at which the profiles' density schedules are
    // read (kFinalIteration: after every schedule).
    std::int64_t iteration = kFinalIteration;
    // Training-run lengths (`iterations:`): each point costs a whole run of
    // that many iterations (mappers/training_run/) instead of one iteration;
    // empty: no such axis. `samples` as in `train-cost --samples`.
    std::vector<std::int64_t> iterations;
    std::int64_t samples = 16;
    // `evaluator:` (evaluator/evaluators.hpp). One that searches nothing
    // (`cartesian`, with `iterations:` only: each point costed by its
    // architecture's Cartesian-product array) leaves the sweep no dataflow,
    // objective or search settings: its one dataflow is the evaluator's name
    // and its one objective "none".
    const Evaluator* evaluator = &default_evaluator();
    // `zeros: random` (with `evaluator: cartesian` only): where the profiles'
    // zeros fall (cartesian/cartesian_product.hpp, CartesianZeros).
    CartesianZeros cartesian_zeros = CartesianZeros::expected;
    SearchStrategy strategy = SearchStrategy::anneal;
    // Absent `budget:` the search stops when it converges, at most
    // kConvergingBudget evaluations; a `budget:` as `map --budget` (SearchBudget).
    std::int64_t budget = kConvergingBudget;
    bool stop_when_converged = true;
    std::int64_t patience = 0;
    std::uint64_t seed = 1;
    bool bypass = true;
    bool imperfect_factors = false;  // `imperfect_factors:` (MapspaceConstraints)
    bool imperfect_windows = false;  // `imperfect_windows:` (MapspaceConstraints)
    // A mapping constraints file (resolved path) applied at every point on
    // top of the architecture's own `constraints:`; empty: none.
    std::string constraints;
    std::vector<SweepExclusion> exclude;
};

}  // namespace trainloop
