// `trainloop map ... --db FILE`: one map run written to the results store
// as a sweep of one point. The sweep's text is a description of the run
// (arch file, network, batch, phases, dataflow, objective, search, budget,
// seed, bypass, sparsity profile and iteration), so running the same command
// again rewrites the same point instead of adding a copy; the specs are
// stored with their texts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "density/density_schedule.hpp"
#include "network/network_mapper.hpp"
#include "store/results_store.hpp"

namespace trainloop {

struct MapRunDescription {
    std::string arch_file;
    std::string workload;  // as given: a shipped name or a file
    std::int64_t batch = 0;
    std::vector<Phase> phases;
    std::string dataflow;
    Objective objective = Objective::edp;
    SearchStrategy search = SearchStrategy::anneal;
    std::int64_t budget = 0;
    std::uint64_t seed = 1;
    bool bypass = true;
    std::string sparsity;  // the profile as given (name or file); empty: dense
    std::int64_t iteration = kFinalIteration;
};

// Precondition: `result` has no failure.
void write_map_run(ResultsStore& store, const MapRunDescription& run, const Architecture& arch,
                   const ArchModel& model, const Network& network, const NetworkTraining& training,
                   const NetworkMapPlan& plan, const NetworkMapResult& result);

}  // namespace trainloop
