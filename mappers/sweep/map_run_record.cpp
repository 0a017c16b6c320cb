#include "sweep/map_run_record.hpp"

#include "common/data_directory.hpp"
#include "common/file_text.hpp"
#include "density/sparsity_library.hpp"
#include "run/run_identity.hpp"
#include "sweep/point_record.hpp"
#include "workload/network_library.hpp"

namespace trainloop {

void write_map_run(ResultsStore& store, const MapRunInputs& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result) {
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
    fill_point_results(record, {arch, model, training, plan, settings.search.objective}, result);

    const RunIdentity id = map_run_identity({arch.name, record.arch.spec.yaml}, record.network,
                                            run.batch, record.sparsity, settings);
    const std::int64_t sweep = store.ensure_sweep({"map", id.description, id.hash, 1});
    store.write_point(sweep, record);
    store.update_pareto_flags();
}

}  // namespace trainloop
