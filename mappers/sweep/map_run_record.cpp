#include "sweep/map_run_record.hpp"

#include "common/data_directory.hpp"
#include "common/file_text.hpp"
#include "density/sparsity_library.hpp"
#include "evaluator/point_record.hpp"
#include "run/run_identity.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

// The record of a map run's point: its coordinates, without results.
PointRecord run_record(const MapRunInputs& run, const Architecture& arch, const ArchModel& model,
                       const Network& network) {
    const RunSettings& settings = run.settings;
    PointRecord record;
    record.arch = architecture_record(arch, model, read_file_text(run.arch_file));
    record.network = {network.name(), read_file_text(resolve_network(run.workload))};
    record.batch = run.batch;
    // Without a profile, map evaluates dense training: recorded as the dense profile.
    const std::filesystem::path profile = run.sparsity.empty()
                                              ? data_directory() / "workloads/sparsity/dense.yaml"
                                              : resolve_sparsity_profile(run.sparsity);
    record.sparsity = {load_sparsity_profile(profile).name, read_file_text(profile)};
    record.dataflow = settings.dataflow ? to_string(*settings.dataflow) : "any";
    record.objective = std::string(objective_name(settings.search.objective));
    record.search = std::string(strategy_name(settings.search.strategy));
    record.budget = settings.search.budget;
    record.seed = static_cast<std::int64_t>(settings.search.seed);
    record.phases = phases_text(settings.phases);
    if (settings.iteration != kFinalIteration) record.iteration = settings.iteration;
    return record;
}

// The point written as a sweep of one, keyed on the run's identity.
void write_run_point(ResultsStore& store, const MapRunInputs& run, const PointRecord& record,
                     std::string_view evaluator_lines) {
    const RunIdentity id = map_run_identity(record.arch.spec, record.network, run.batch,
                                            record.sparsity, run.settings, evaluator_lines);
    const std::int64_t sweep = store.ensure_sweep(
        {run.settings.training_run ? "train-cost" : "map", id.description, id.hash, 1});
    store.write_point(sweep, record);
    store.update_pareto_flags();
}

}  // namespace

void write_map_run(ResultsStore& store, const MapRunInputs& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result) {
    PointRecord record = run_record(run, arch, model, network);
    fill_point_results(record, {arch, model, training, plan, run.settings.search.objective},
                       result);
    write_run_point(store, run, record, {});  // one iteration: no evaluator but the search
}

void write_train_cost_run(ResultsStore& store, const MapRunInputs& run, const Evaluator& evaluator,
                          const Architecture& arch, const ArchModel& model, const Network& network,
                          const EvaluatedRun& evaluated) {
    PointRecord record = run_record(run, arch, model, network);
    evaluated.fill_record(record);
    write_run_point(store, run, record, evaluator.identity(run.settings));
}

}  // namespace trainloop
