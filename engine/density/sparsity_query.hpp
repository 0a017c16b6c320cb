// Queries on a SparsityProfile: the density and the distribution model of
// one tensor of one layer in one phase, at one training iteration.
//
// Contract: pure functions. The rule that decides a (network, layer, tensor,
// phase) is the last rule of the profile that matches it (later rules
// override earlier ones); with no matching rule the tensor is dense (1.0,
// uniform model). Asking about a tensor in a phase it does not appear in
// (e.g. w in wu) is a programming error: std::invalid_argument.
#pragma once

#include <cstdint>
#include <string_view>

#include "density/density_model.hpp"
#include "density/density_schedule.hpp"
#include "density/sparsity_profile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// Whether `rule` applies to this (network, layer, tensor, phase).
bool rule_matches(const SparsityRule& rule, std::string_view network, std::string_view layer,
                  TensorName tensor, Phase phase);

// The deciding rule, or nullptr when none matches (dense). Points into
// `profile`.
const SparsityRule* matching_rule(const SparsityProfile& profile, std::string_view network,
                                  std::string_view layer, TensorName tensor, Phase phase);

// Fraction of nonzeros in [0, 1]; kFinalIteration = after every schedule.
double density(const SparsityProfile& profile, std::string_view network, std::string_view layer,
               TensorName tensor, Phase phase, std::int64_t iteration = kFinalIteration);

// How the nonzeros are distributed (uniform when no rule matches).
DensityModel density_model(const SparsityProfile& profile, std::string_view network,
                           std::string_view layer, TensorName tensor, Phase phase);

}  // namespace trainloop
