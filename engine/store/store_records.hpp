// What the results store writes: plain values, filled by whoever ran the
// search (mappers/sweep converts a network mapping into a PointRecord), so
// the store does not depend on the mapper.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {

// A spec as stored: its name and the exact YAML text that produced the
// result (content-hashed on write).
struct SpecText {
    std::string name;
    std::string yaml;
};

struct ArchitectureRecord {
    SpecText spec;
    double area_um2 = 0;  // ArchModel::area_um2(): every instance, used or not
    std::int64_t pe_rows = 0;
    std::int64_t pe_columns = 0;
    double clock_ghz = 1.0;
    std::string summary;  // JSON: eval/arch_summary_json.hpp
};

struct SweepRecord {
    std::string name;
    std::string yaml;  // the sweep file's text (or a `map` run's description)
    // Identifies the sweep: the content hash of its text and of every spec it
    // names, so editing an architecture file makes a new sweep, not a resume.
    std::string hash;
    std::int64_t points = 0;
};

// The best mapping of one layer's phase at one point (choice 0), or another
// member of its search's energy/cycles Pareto front (choice 1, 2, ...), with
// its metrics (vocabulary/layer_phase_metrics.def: one column each).
struct LayerPhaseRecord : LayerPhaseMetrics {
    std::string layer;
    std::int64_t layer_index = 0;
    std::string phase;  // fw, bw, wu
    std::int64_t choice = 0;
    std::string mapping;           // the one-line text form (mapping/mapping_text.hpp)
    std::int64_t macs = 0;         // the layer-phase's MACs, whatever the mapping
    std::string energy_breakdown;  // JSON object: component -> pJ
    std::string energy_by_class;   // JSON object: class -> pJ (eval/energy_classes.hpp)
    bool reused = false;           // copied from an identical problem searched earlier
    bool converged = false;        // the search converged (mappers/search/search.hpp)
    // What no mapping of this layer-phase can beat (eval/lower_bound.hpp);
    // unset when none is claimed (sparse evaluation).
    std::optional<std::int64_t> lower_bound_cycles;
    std::optional<double> lower_bound_energy_pj;
};

// Sums over the layer-phases of one phase, or `step` (fw + bw + wu).
struct PhaseTotalRecord {
    std::string phase;  // fw, bw, wu, step
    std::int64_t layer_phases = 0;
    std::int64_t cycles = 0;
    double energy_pj = 0;
    std::int64_t macs = 0;
    double effectual_macs = 0;
    double imbalance_cycles = 0;
    double performed_macs = 0;
};

// One sample of a training run: the iteration its densities were read at,
// the iterations [begin, end) it stands for, and one iteration's cost there.
struct TrainingRunSampleRecord {
    std::int64_t iteration = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    bool exact = true;  // every density constant over [begin, end)
    std::int64_t step_cycles = 0;
    double step_energy_pj = 0;
    double step_effectual_macs = 0;
};

// A point that costs a whole training run (`iterations:` in a sweep;
// mappers/training_run/): the run's totals beside dense training's.
struct TrainingRunRecord {
    std::int64_t iterations = 0;
    std::int64_t samples = 0;  // requested (`samples:`)
    std::int64_t total_cycles = 0;
    double total_energy_pj = 0;
    std::int64_t dense_total_cycles = 0;
    double dense_total_energy_pj = 0;
    double total_macs = 0;
    double effectual_macs = 0;
    double macs_removed_fraction = 0;
    std::int64_t distinct_states = 0;
    std::vector<TrainingRunSampleRecord> sample_costs;
};

// One point of a sweep: its coordinates, and either its results or why it
// has none.
struct PointRecord {
    std::int64_t index = 0;  // in the sweep's point order
    ArchitectureRecord arch;
    SpecText network;
    std::int64_t batch = 0;
    SpecText sparsity;
    std::string dataflow;
    std::string objective;
    std::string search;
    std::int64_t budget = 0;
    std::int64_t seed = 0;
    // Where the profile's density schedules were read; nullopt: the final densities.
    std::optional<std::int64_t> iteration;
    std::string phases;                  // "fw,bw,wu"
    std::optional<std::string> failure;  // set: status `failed`, no results
    // A failed search's rejected mappings by reason, a JSON object
    // ({"capacity at GLB": 180, "network": 20}; search/rejections.hpp).
    std::optional<std::string> rejections;
    std::int64_t evaluations = 0;
    std::vector<LayerPhaseRecord> results;
    std::vector<PhaseTotalRecord> totals;
    // A training-run point: its totals (results and totals above are then
    // those of the run's last sample, read at `iteration`).
    std::optional<TrainingRunRecord> training_run;
};

}  // namespace trainloop
