// SparsityProfile: the densities (fractions of nonzeros) of every tensor of
// every layer in every training phase, as a list of rules read from a
// `sparsity_profile:` YAML file (docs/sparsity_format.md).
//
// Contract: parsing validates everything at the edge; every user error is a
// SpecError located at the offending node (unknown key with did-you-mean,
// missing key, wrong type, density outside [0, 1], unknown tensor, phase or
// model, a phase in which the tensor does not appear, schedule iterations
// not increasing, bad pattern). A parsed profile is a plain value; queries
// on it are pure functions (sparsity_query.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/spec_node.hpp"
#include "density/density_model.hpp"
#include "density/density_schedule.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

// One entry of `rules:`. It applies to (network, layer, tensor, phase) when
// the network matches one of `networks` (or `networks` is empty: any
// network), the layer matches one of `layers`, the tensor is in `tensors`,
// and the phase is in `phases` (or `phases` is empty: every phase the
// tensor appears in). Every listed phase is one that every listed tensor
// appears in.
struct SparsityRule {
    std::vector<std::string> networks;        // patterns; empty = any network
    std::vector<std::string> layers = {"*"};  // patterns
    std::vector<TensorName> tensors;          // non-empty
    std::vector<Phase> phases;                // empty = all of each tensor's phases
    DensitySchedule schedule;                 // a constant density is one point
    DensityModel model;
    SourceLocation location;  // of the rule, for messages
};

struct SparsityProfile {
    std::string name;
    std::string description;
    std::string source;
    std::string file;                 // where it was read from
    DensityModel default_model;       // for rules without their own `model:`
    std::vector<SparsityRule> rules;  // in file order; a later match wins
};

SparsityProfile parse_sparsity_profile(const SpecNode& root);
SparsityProfile load_sparsity_profile(const std::filesystem::path& path);

}  // namespace trainloop
