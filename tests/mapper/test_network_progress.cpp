// map_network's progress reports carry the best objective value found so far
// for the problem being searched (the progress line's "best so far").
#include <gtest/gtest.h>

#include <vector>

#include "arch/architecture_parser.hpp"
#include "network/network_mapper.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

TEST(NetworkProgress, ReportsTheBestSoFarOfEachProblem) {
    const Architecture arch = load_architecture(std::string(TRAINLOOP_SOURCE_DIR) +
                                                "/arch_specs/procrustes_baseline_16x16.yaml");
    const ArchModel model = build_arch_model(arch);
    const Network network = load_network("mlp_mnist");
    const NetworkTraining training = derive_training_problems(network, kDefaultBatch);
    const NetworkMapPlan plan =
        plan_network_mapping(model, training, {Phase::fw}, {parse_dataflow("K,N"), true});
    NetworkMapOptions options;
    options.search.strategy = SearchStrategy::random;
    options.search.objective = Objective::energy;
    options.search.budget.max_evaluations = 500;
    options.search.threads = 1;
    std::vector<NetworkMapProgress> reports;
    const NetworkMapResult result = map_network(
        model, training, plan, options, [&](const NetworkMapProgress& p) { reports.push_back(p); });
    ASSERT_EQ(result.searches.size(), 2u);
    EXPECT_EQ(reports.front().best_objective, 0) << "nothing found before the first search";
    // The report after each problem holds that problem's best energy.
    std::size_t problem = 0;
    for (std::size_t i = 1; i < reports.size(); ++i) {
        if (reports[i].problems_done == problem + 1 && reports[i - 1].problems_done == problem) {
            ASSERT_TRUE(result.searches[problem].result.best);
            EXPECT_DOUBLE_EQ(reports[i].best_objective,
                             result.searches[problem].result.best->energy_pj)
                << "problem " << problem;
            ++problem;
        }
    }
    EXPECT_EQ(problem, 2u);
}

}  // namespace
}  // namespace trainloop
