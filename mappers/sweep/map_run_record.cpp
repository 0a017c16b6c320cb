#include "sweep/map_run_record.hpp"

#include <fmt/format.h>

#include "common/data_directory.hpp"
#include "common/file_text.hpp"
#include "common/yaml_text.hpp"
#include "density/sparsity_library.hpp"
#include "store/content_hash.hpp"
#include "sweep/point_record.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {}  // namespace

void write_map_run(ResultsStore& store, const MapRunDescription& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result) {
    PointRecord record;
    record.arch = architecture_record(arch, model, read_file_text(run.arch_file));
    record.network = {network.name(), read_file_text(resolve_network(run.workload))};
    record.batch = run.batch;
    // Without a profile, map evaluates dense training: recorded as the dense profile.
    const std::filesystem::path profile = run.sparsity.empty()
                                              ? data_directory() / "workloads/sparsity/dense.yaml"
                                              : resolve_sparsity_profile(run.sparsity);
    record.sparsity = {load_sparsity_profile(profile).name, read_file_text(profile)};
    record.dataflow = run.dataflow;
    record.objective = std::string(objective_name(run.objective));
    record.search = std::string(strategy_name(run.search));
    record.budget = run.budget;
    record.seed = static_cast<std::int64_t>(run.seed);
    record.phases = phases_text(run.phases);
    if (run.iteration != kFinalIteration) record.iteration = run.iteration;
    fill_point_results(record, {arch, model, training, plan, run.objective}, result);

    const std::string description = fmt::format(
        "# trainloop map --db\nmap:\n  arch: {}\n  workload: {}\n  batch: {}\n  phases: [{}]\n"
        "  dataflow: {}\n  objective: {}\n  search: {}\n  budget: {}\n  seed: {}\n  bypass: {}\n"
        "  sparsity: {}\n  iteration: {}\n",
        yaml_scalar(arch.name), yaml_scalar(network.name()), run.batch, record.phases,
        yaml_scalar(run.dataflow), record.objective, record.search, run.budget, run.seed,
        run.bypass ? "true" : "false", yaml_scalar(record.sparsity.name),
        run.iteration == kFinalIteration ? std::string("final") : std::to_string(run.iteration));
    const std::string hash =
        content_hash(description + content_hash(record.arch.spec.yaml) +
                     content_hash(record.network.yaml) + content_hash(record.sparsity.yaml));
    const std::int64_t sweep = store.ensure_sweep({"map", description, hash, 1});
    store.write_point(sweep, record);
    store.update_pareto_flags();
}

}  // namespace trainloop
