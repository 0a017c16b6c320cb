// Renders a network's training problems as a text table or as JSON
// (the JSON layout is a contract for scripts: see README "Output formats").
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "problem/training_problems.hpp"
#include "sparse/network_densities.hpp"

namespace trainloop::cli {

nlohmann::json training_to_json(const Network& network, const NetworkTraining& training,
                                std::int64_t batch);
std::string training_to_text(const Network& network, const NetworkTraining& training,
                             std::int64_t batch);

// A sparsity profile's densities on the network and its weight and
// forward-MAC reductions (`workload show --sparsity`).
nlohmann::json densities_to_json(const std::string& profile, const NetworkDensities& d);
std::string densities_to_text(const std::string& profile, const NetworkDensities& d);

}  // namespace trainloop::cli
