#include "sweep/sweep_runner.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <tuple>

#include "arch/arch_model.hpp"
#include "common/file_text.hpp"
#include "density/sparsity_profile.hpp"
#include "mapspace/dataflow.hpp"
#include "network/network_mapper.hpp"
#include "sparse/mask_check.hpp"
#include "store/content_hash.hpp"
#include "sweep/architecture_variant.hpp"
#include "sweep/point_record.hpp"
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
};

LoadedSweep load_everything(const SweepSpec& spec) {
    LoadedSweep s;
    for (const SweepArchitecture& a : spec.architectures) {
        s.archs.push_back(load_architecture_variant(a));
        s.models.push_back(build_arch_model(s.archs.back().arch));
    }
    for (const std::string& n : spec.networks) {
        s.networks.push_back(std::make_unique<Network>(load_network(n)));
        s.network_texts.push_back(read_file_text(resolve_network(n)));
    }
    for (const std::string& p : spec.sparsity) {
        s.profiles.push_back(load_sparsity_profile(p));
        s.profile_texts.push_back(read_file_text(p));
    }
    return s;
}

// The sweep's identity: its text and the text of every spec it uses.
std::string sweep_hash(const SweepSpec& spec, const LoadedSweep& s) {
    std::string identity = spec.text;
    for (const auto& a : s.archs) identity += "\n--arch " + content_hash(a.yaml);
    for (const auto& n : s.network_texts) identity += "\n--network " + content_hash(n);
    for (const auto& p : s.profile_texts) identity += "\n--sparsity " + content_hash(p);
    return content_hash(identity);
}

// What a training-run point needs.
struct TrainingPoint {
    const Architecture& arch;
    const ArchModel& model;
    const NetworkTraining& training;
    const SparsityProfile& profile;
    std::string_view network;
    const SweepSpec& spec;
    std::size_t run = 0;  // index into spec.iterations
    const MapspaceConstraints& constraints;
    const NetworkMapOptions& options;
    Objective objective = Objective::edp;
};

// A point of the `iterations:` axis: the whole run's cost; its layer results
// are those of the run's last sample (the state training ends in).
void run_training_point(PointRecord& record, const TrainingPoint& t) {
    const TrainingRunPlan run =
        plan_training_run(t.model, t.training, t.spec.phases, t.constraints, t.profile, t.network,
                          t.spec.iterations[t.run], t.spec.samples);
    NetworkMapResult result = map_network(t.model, t.training, as_network_plan(run), t.options);
    const NetworkMapPlan last = sample_network_plan(run, run.samples.size() - 1);
    if (!result.failure) collect_layer_results(t.training, last, result);
    fill_point_results(record, {t.arch, t.model, t.training, last, t.objective}, result);
    record.iteration = run.samples.back().iteration;
    if (record.failure) return;
    const std::optional<std::vector<ProblemCost>> costs = problem_costs(result);
    if (!costs) return;  // fill_point_results named the failure
    record.training_run = training_run_record(integrate_training_run(run, *costs), t.spec.samples);
}

}  // namespace

SweepRunSummary run_sweep(const SweepSpec& spec, ResultsStore& store,
                          const SweepRunOptions& options, const SweepProgressFn& progress) {
    const auto start = std::chrono::steady_clock::now();
    const LoadedSweep loaded = load_everything(spec);
    std::vector<std::string> arch_names;
    std::vector<std::string> network_names;
    std::vector<std::string> profile_names;
    for (const auto& a : loaded.archs) arch_names.push_back(a.arch.name);
    for (const auto& n : loaded.networks) network_names.push_back(n->name());
    for (const auto& p : loaded.profiles) profile_names.push_back(p.name);
    const std::vector<SweepPoint> all =
        sweep_points(spec, arch_names, network_names, profile_names);
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

    // Training problems per (network, batch), built on first use; each
    // profile's masks checked against them once.
    std::map<std::pair<std::size_t, std::size_t>, NetworkTraining> trainings;
    std::set<std::tuple<std::size_t, std::size_t, std::size_t>> masks_checked;
    SweepProgress state;
    state.to_run = static_cast<std::int64_t>(pending.size());
    state.skipped = summary.skipped;
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    if (progress) progress(state);
    for (const SweepPoint& p : pending) {
        const ArchitectureVariant& variant = loaded.archs[p.architecture];
        const ArchModel& model = loaded.models[p.architecture];
        const Network& network = *loaded.networks[p.network];
        const std::int64_t batch = spec.batches[p.batch];
        auto [it, fresh] = trainings.try_emplace({p.network, p.batch});
        if (fresh) it->second = derive_training_problems(network, batch);
        const NetworkTraining& training = it->second;
        const SparsityProfile& profile = loaded.profiles[p.sparsity];
        if (masks_checked.insert({p.sparsity, p.network, p.batch}).second) {
            check_masks_against(profile, network.name(), training);
        }
        const Objective objective = *objective_from_name(spec.objectives[p.objective]);

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
        NetworkMapOptions map_options;
        map_options.search.objective = objective;
        map_options.search.strategy = spec.strategy;
        map_options.search.budget.max_evaluations = spec.budget;
        map_options.search.budget.patience = spec.patience;
        map_options.search.seed = spec.seed;
        map_options.search.threads = options.threads;
        const MapspaceConstraints constraints{parse_dataflow(record.dataflow), spec.bypass};
        try {
            if (spec.iterations.empty()) {
                // Every point is evaluated with its profile (the dense one
                // gives the dense evaluation's results).
                const NetworkMapPlan plan =
                    plan_network_mapping(model, training, spec.phases, constraints, &profile,
                                         network.name(), spec.iteration);
                const NetworkMapResult result = map_network(model, training, plan, map_options);
                fill_point_results(record, {variant.arch, model, training, plan, objective},
                                   result);
            } else {
                run_training_point(record, {variant.arch, model, training, profile, network.name(),
                                            spec, p.run, constraints, map_options, objective});
            }
        } catch (const SpecError& e) {
            // A dataflow some layer cannot take: the point fails, the sweep goes on.
            record.failure = e.message();
        } catch (const std::overflow_error& e) {
            // A training run too long for 64-bit cycle totals.
            record.failure = e.what();
        }
        if (record.failure) ++summary.failed;
        store.write_point(sweep_id, record);
        ++summary.ran;
        state.done = summary.ran;
        state.failed = summary.failed;
        state.seconds = elapsed();
        if (progress) progress(state);
    }
    store.update_pareto_flags();
    summary.seconds = elapsed();
    return summary;
}

}  // namespace trainloop
