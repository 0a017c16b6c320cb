#include "density/sparsity_query.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "density/glob.hpp"
#include "density/tensor_phases.hpp"

namespace trainloop {
namespace {

bool any_matches(const std::vector<std::string>& patterns, std::string_view name) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return glob_match(p, name); });
}

template <typename T>
bool contains(const std::vector<T>& items, T item) {
    return std::find(items.begin(), items.end(), item) != items.end();
}

void check_appears(TensorName tensor, Phase phase) {
    if (!tensor_in_phase_at_all(tensor, phase)) {
        throw std::invalid_argument(fmt::format("sparsity query: tensor {} does not appear in {}",
                                                tensor_name(tensor), phase_name(phase)));
    }
}

}  // namespace

bool rule_matches(const SparsityRule& rule, std::string_view network, std::string_view layer,
                  TensorName tensor, Phase phase) {
    return contains(rule.tensors, tensor) &&
           (rule.phases.empty() || contains(rule.phases, phase)) &&
           (rule.networks.empty() || any_matches(rule.networks, network)) &&
           any_matches(rule.layers, layer);
}

const SparsityRule* matching_rule(const SparsityProfile& profile, std::string_view network,
                                  std::string_view layer, TensorName tensor, Phase phase) {
    check_appears(tensor, phase);
    for (auto it = profile.rules.rbegin(); it != profile.rules.rend(); ++it) {
        if (rule_matches(*it, network, layer, tensor, phase)) return &*it;
    }
    return nullptr;
}

double density(const SparsityProfile& profile, std::string_view network, std::string_view layer,
               TensorName tensor, Phase phase, std::int64_t iteration) {
    const SparsityRule* rule = matching_rule(profile, network, layer, tensor, phase);
    return rule ? density_at(rule->schedule, iteration) : 1.0;
}

DensityModel density_model(const SparsityProfile& profile, std::string_view network,
                           std::string_view layer, TensorName tensor, Phase phase) {
    const SparsityRule* rule = matching_rule(profile, network, layer, tensor, phase);
    return rule ? rule->model : DensityModel{UniformModel{}};
}

}  // namespace trainloop
