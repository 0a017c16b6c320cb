#include "sweep/sweep_runner.hpp"

#include <fmt/format.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "arch/arch_model.hpp"
#include "common/file_text.hpp"
#include "common/spec_node.hpp"
#include "density/sparsity_profile.hpp"
#include "evaluator/evaluators.hpp"
#include "evaluator/point_record.hpp"
#include "mapspace/dataflow.hpp"
#include "network/network_mapper.hpp"
#include "run/run_setup.hpp"
#include "search/parallel_units.hpp"
#include "sparse/mask_check.hpp"
#include "store/content_hash.hpp"
#include "sweep/architecture_variant.hpp"
#include "training_run/training_run.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

// Everything a sweep's points refer to, loaded and checked before the first
// point runs.
struct LoadedSweep {
    std::vector<ArchitectureVariant> archs;
    std::vector<ArchModel> models;
    std::vector<std::unique_ptr<Network>> networks;
    std::vector<std::string> network_texts;
    std::vector<SparsityProfile> profiles;
    std::vector<std::string> profile_texts;
    std::optional<ConstraintsFileInput> constraints;  // the sweep's constraints file
};

// Runs `load`; an error in the file a sweep entry names is reported at the
// entry (the sweep file, line, key) with the place in the other file.
template <typename Load>
void load_entry(const SourceLocation& where, const std::string& key, std::string_view what,
                Load&& load) {
    try {
        load();
    } catch (const SpecError& e) {
        // Already located in the sweep file (an override): as it is.
        if (where.file.empty() || e.where().file == where.file) throw;
        fail_in_referenced_file(where, key, what, e);
    }
}

// Two different specs under one name would be merged by every query, which
// groups by name: refused, naming both entries.
template <typename Name>
void reject_name_clashes(const std::vector<std::string>& texts,
                         const std::vector<SourceLocation>& where, const std::string& key,
                         std::string_view what, Name name_of) {
    for (std::size_t i = 0; i < texts.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (name_of(i) != name_of(j) || texts[i] == texts[j]) continue;
            throw SpecError(where[i], key,
                            fmt::format("two different {}s are named `{}` (the other at {})", what,
                                        name_of(i), format_location(where[j])),
                            fmt::format("one name per {}: queries group results by name", what),
                            "rename one (`architecture:`, `network:` or `sparsity_profile:` at "
                            "the top of its file, or `name:` of an architecture with overrides)");
        }
    }
}

}  // namespace

std::vector<ArchitectureVariant> load_sweep_architectures(const SweepSpec& spec) {
    std::vector<ArchitectureVariant> archs;
    for (const SweepArchitecture& a : spec.architectures) {
        load_entry(a.location, "architectures", "architecture",
                   [&] { archs.push_back(load_architecture_variant(a)); });
    }
    return archs;
}

namespace {

LoadedSweep load_everything(const SweepSpec& spec) {
    LoadedSweep s;
    if (!spec.constraints.empty()) {
        s.constraints = ConstraintsFileInput{spec.constraints, read_file_text(spec.constraints)};
    }
    std::vector<std::string> arch_texts;
    std::vector<SourceLocation> arch_locations;
    s.archs = load_sweep_architectures(spec);
    for (std::size_t i = 0; i < s.archs.size(); ++i) {
        const SweepArchitecture& a = spec.architectures[i];
        load_entry(a.location, "architectures", "architecture",
                   [&] { s.models.push_back(build_arch_model(s.archs[i].arch)); });
        // The constraints file must fit every architecture: checked now, not
        // at the first point that uses it (an error names the constraints file).
        merged_constraints(s.archs[i].arch, s.archs[i].constraints, s.constraints);
        arch_texts.push_back(s.archs[i].yaml);
        arch_locations.push_back(a.location);
    }
    reject_name_clashes(arch_texts, arch_locations, "architectures", "architecture",
                        [&](std::size_t i) { return s.archs[i].arch.name; });
    for (std::size_t i = 0; i < s.archs.size(); ++i) {
        const std::optional<ArchitectureGap> gap = spec.evaluator->unsupported(s.archs[i].arch);
        if (!gap) continue;
        throw SpecError(arch_locations[i], "architectures",
                        fmt::format("architecture '{}' has no `{}:` section, so `evaluator: {}` "
                                    "has no array to evaluate",
                                    s.archs[i].arch.name, gap->section, spec.evaluator->name()),
                        fmt::format("architectures with a `{}:` section (docs/arch_format.md), "
                                    "e.g. {}",
                                    gap->section, gap->example),
                        fmt::format("`evaluator: {}` (the default) searches loop-nest mappings",
                                    default_evaluator().name()));
    }
    for (std::size_t i = 0; i < spec.networks.size(); ++i) {
        const std::string& n = spec.networks[i];
        const SourceLocation where =
            i < spec.network_locations.size() ? spec.network_locations[i] : SourceLocation{};
        load_entry(where, "networks", "network", [&] {
            s.networks.push_back(std::make_unique<Network>(load_network(n)));
            s.network_texts.push_back(read_file_text(resolve_network(n)));
        });
    }
    if (spec.network_locations.size() == spec.networks.size()) {
        reject_name_clashes(s.network_texts, spec.network_locations, "networks", "network",
                            [&](std::size_t i) { return s.networks[i]->name(); });
    }
    for (std::size_t i = 0; i < spec.sparsity.size(); ++i) {
        const std::string& p = spec.sparsity[i];
        const SourceLocation where =
            i < spec.sparsity_locations.size() ? spec.sparsity_locations[i] : SourceLocation{};
        load_entry(where, "sparsity", "sparsity profile", [&] {
            s.profiles.push_back(load_sparsity_profile(p));
            s.profile_texts.push_back(read_file_text(p));
        });
    }
    if (spec.sparsity_locations.size() == spec.sparsity.size()) {
        reject_name_clashes(s.profile_texts, spec.sparsity_locations, "sparsity",
                            "sparsity profile", [&](std::size_t i) { return s.profiles[i].name; });
    }
    return s;
}

// The sweep's identity: its text and the text of every spec it uses.
std::string sweep_hash(const SweepSpec& spec, const LoadedSweep& s) {
    std::string identity = spec.text;
    for (const auto& a : s.archs) identity += "\n--arch " + content_hash(a.yaml);
    for (const auto& n : s.network_texts) identity += "\n--network " + content_hash(n);
    for (const auto& p : s.profile_texts) identity += "\n--sparsity " + content_hash(p);
    if (s.constraints) identity += "\n--constraints " + content_hash(s.constraints->text);
    return content_hash(identity);
}

std::vector<SweepPoint> all_points(const SweepSpec& spec, const LoadedSweep& loaded) {
    std::vector<std::string> arch_names;
    std::vector<std::string> network_names;
    std::vector<std::string> profile_names;
    for (const auto& a : loaded.archs) arch_names.push_back(a.arch.name);
    for (const auto& n : loaded.networks) network_names.push_back(n->name());
    for (const auto& p : loaded.profiles) profile_names.push_back(p.name);
    return sweep_points(spec, arch_names, network_names, profile_names);
}

// SweepRunOptions::parallel_points resolved: how many points run at once,
// never more than the threads (each point has one at least) nor the points,
// and the threads each point's searches get.
struct PointParallelism {
    int points = 1;
    int threads_per_point = 0;  // 0: all cores
};

PointParallelism point_parallelism(const SweepRunOptions& options, const SweepSpec& spec,
                                   std::size_t points) {
    const int threads = options.threads > 0 ? options.threads
                                            : std::max(1, int(std::thread::hardware_concurrency()));
    int side_by_side = options.parallel_points;
    if (side_by_side <= 0) {
        side_by_side = threads / search_parallelism(spec.strategy, spec.stop_when_converged);
    }
    side_by_side = std::clamp(side_by_side, 1, threads);
    side_by_side =
        int(std::min<std::size_t>(std::size_t(side_by_side), std::max<std::size_t>(1, points)));
    if (side_by_side == 1) return {1, options.threads};
    return {side_by_side, std::max(1, threads / side_by_side)};
}

}  // namespace

SweepCheckSummary check_sweep(const SweepSpec& spec) {
    const LoadedSweep loaded = load_everything(spec);
    SweepCheckSummary summary;
    const std::vector<SweepPoint> points = all_points(spec, loaded);
    summary.points = static_cast<std::int64_t>(points.size());
    // The (architecture, dataflow) pairs some point runs: an excluded pair is never mapped.
    std::set<std::pair<std::size_t, std::size_t>> mapped;
    for (const SweepPoint& p : points) mapped.insert({p.architecture, p.dataflow});
    for (std::size_t n = 0; n < loaded.networks.size(); ++n) {
        for (const std::int64_t batch : spec.batches) {
            const NetworkTraining training = derive_training_problems(*loaded.networks[n], batch);
            for (const SparsityProfile& profile : loaded.profiles) {
                check_masks_against(profile, loaded.networks[n]->name(), training);
            }
        }
    }
    // An evaluator that searches nothing has no dataflow to check.
    if (spec.evaluator->searches_mappings()) {
        for (std::size_t a = 0; a < loaded.archs.size(); ++a) {
            const ArchitectureVariant& variant = loaded.archs[a];
            const MappingConstraints constraints =
                merged_constraints(variant.arch, variant.constraints, loaded.constraints);
            for (std::size_t d = 0; d < spec.dataflows.size(); ++d) {
                if (!mapped.count({a, d})) continue;
                const std::string& dataflow = spec.dataflows[d];
                try {
                    check_dataflow_against_constraints(
                        {parse_dataflow(dataflow), spec.bypass, constraints});
                } catch (const SpecError& e) {
                    summary.notes.push_back(
                        fmt::format("the points of architecture {} with dataflow {} will fail: {}",
                                    variant.arch.name, dataflow, e.message()));
                }
            }
        }
    }
    return summary;
}

SweepRunSummary run_sweep(const SweepSpec& spec, ResultsStore& store,
                          const SweepRunOptions& options, const SweepProgressFn& progress) {
    const auto start = std::chrono::steady_clock::now();
    const LoadedSweep loaded = load_everything(spec);
    const std::vector<SweepPoint> all = all_points(spec, loaded);
    const std::vector<SweepPoint> mine = shard_points(all, options.shard);

    const std::int64_t sweep_id = store.ensure_sweep(
        {spec.name, spec.text, sweep_hash(spec, loaded), static_cast<std::int64_t>(all.size())});
    const std::set<std::int64_t> recorded = store.recorded_points(sweep_id);

    SweepRunSummary summary;
    summary.sweep_points = static_cast<std::int64_t>(all.size());
    summary.shard_points = static_cast<std::int64_t>(mine.size());
    std::vector<SweepPoint> pending;
    for (const SweepPoint& p : mine) {
        if (recorded.count(p.index) != 0) {
            ++summary.skipped;
        } else {
            pending.push_back(p);
        }
    }

    RunSettings base_settings;  // the objective is the point's
    base_settings.bypass = spec.bypass;
    base_settings.imperfect_factors = spec.imperfect_factors;
    base_settings.imperfect_windows = spec.imperfect_windows;
    base_settings.constraints_file = loaded.constraints;
    base_settings.search.strategy = spec.strategy;
    base_settings.search.budget = spec.budget;
    base_settings.search.stop_when_converged = spec.stop_when_converged;
    base_settings.search.patience = spec.patience;
    base_settings.search.seed = spec.seed;
    base_settings.phases = spec.phases;
    base_settings.iteration = spec.iteration;
    base_settings.cartesian_zeros = spec.cartesian_zeros;

    // Training problems per (network, batch), and each profile's masks checked
    // against them, before the first point runs: a batch too large for a
    // network, or a mask of the wrong shape, stops the sweep before any work.
    std::map<std::pair<std::size_t, std::size_t>, NetworkTraining> trainings;
    std::set<std::tuple<std::size_t, std::size_t, std::size_t>> masks_checked;
    for (const SweepPoint& p : pending) {
        auto [it, fresh] = trainings.try_emplace({p.network, p.batch});
        if (fresh)
            it->second =
                derive_training_problems(*loaded.networks[p.network], spec.batches[p.batch]);
        if (masks_checked.insert({p.sparsity, p.network, p.batch}).second) {
            check_masks_against(loaded.profiles[p.sparsity], loaded.networks[p.network]->name(),
                                it->second);
        }
    }
    SweepProgress state;
    state.to_run = static_cast<std::int64_t>(pending.size());
    state.skipped = summary.skipped;
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    if (progress) progress(state);
    const PointParallelism parallelism = point_parallelism(options, spec, pending.size());
    auto run_point = [&](const SweepPoint& p) {
        const ArchitectureVariant& variant = loaded.archs[p.architecture];
        const ArchModel& model = loaded.models[p.architecture];
        const Network& network = *loaded.networks[p.network];
        const std::int64_t batch = spec.batches[p.batch];
        const NetworkTraining& training = trainings.at({p.network, p.batch});
        const SparsityProfile& profile = loaded.profiles[p.sparsity];
        const Evaluator& evaluator = *spec.evaluator;
        const bool searched = evaluator.searches_mappings();
        // An evaluator that searches nothing has no objective ("none"); the run set-up wants one.
        const Objective objective =
            searched ? *objective_from_name(spec.objectives[p.objective]) : Objective::edp;

        PointRecord record;
        record.index = p.index;
        record.arch = architecture_record(variant.arch, model, variant.yaml);
        record.network = {network.name(), loaded.network_texts[p.network]};
        record.batch = batch;
        record.sparsity = {loaded.profiles[p.sparsity].name, loaded.profile_texts[p.sparsity]};
        record.dataflow = spec.dataflows[p.dataflow];
        record.objective = spec.objectives[p.objective];
        record.search = std::string(strategy_name(spec.strategy));
        record.budget = spec.budget;
        record.seed = static_cast<std::int64_t>(spec.seed);
        record.phases = phases_text(spec.phases);
        if (spec.iteration != kFinalIteration) record.iteration = spec.iteration;
        try {
            // Every point is evaluated with its profile (the dense one gives
            // the dense evaluation's results), with the architecture's
            // constraints and the sweep's file on top: the run set-up `map` uses.
            RunSettings settings = base_settings;
            settings.search.objective = objective;
            if (searched) settings.dataflow = parse_dataflow(record.dataflow);
            if (!spec.iterations.empty()) {
                settings.training_run = TrainingRunLength{spec.iterations[p.run], spec.samples};
            }
            const RunSubject subject{
                variant.arch, variant.constraints, model, network.name(), training, &profile};
            const RunSetup setup =
                set_up_run(subject, settings, parallelism.threads_per_point, evaluator.mapspaces());
            // The parser requires `iterations:` of an evaluator that costs
            // only whole runs, and the loader an architecture it can run.
            evaluator.evaluate({subject, settings, setup, batch, {}}).fill_record(record);
        } catch (const SpecError& e) {
            // A dataflow some layer cannot take: the point fails, the sweep goes on.
            record.failure = e.message();
        } catch (const std::overflow_error& e) {
            // A training run too long for 64-bit cycle totals.
            record.failure = e.what();
        }
        return record;
    };
    // Each point is written whole as soon as it is done (a crash loses only
    // the points in progress); the store and the progress are one thread's
    // at a time.
    std::mutex recording;
    auto record_point = [&](const PointRecord& record) {
        const std::lock_guard<std::mutex> lock(recording);
        if (record.failure) ++summary.failed;
        store.write_point(sweep_id, record);
        ++summary.ran;
        state.done = summary.ran;
        state.failed = summary.failed;
        state.seconds = elapsed();
        if (progress) progress(state);
    };
    if (parallelism.points == 1) {
        for (const SweepPoint& p : pending) record_point(run_point(p));
    } else {
        tbb::task_arena arena(parallelism.points);
        parallel_units(arena, 0, pending.size(),
                       [&](std::size_t i) { record_point(run_point(pending[i])); });
    }
    store.update_pareto_flags();
    summary.seconds = elapsed();
    return summary;
}

}  // namespace trainloop
