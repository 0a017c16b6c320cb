// A mapping file with everything it refers to: the architecture, the network,
// the layer's phase problem. Command-line values override the file's `for:`
// block; whatever is missing from both is a SpecError that says both ways of
// giving it. evaluate_case() turns an invalid mapping into a SpecError at the
// offending level's entry in the file.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "arch/architecture.hpp"
#include "eval/evaluation.hpp"
#include "mapping/mapping_target.hpp"
#include "problem/training_problems.hpp"

namespace trainloop {

struct MappingCase {
    std::filesystem::path file;
    Architecture arch;
    ArchModel arch_model;
    std::shared_ptr<const Network> network;  // the training problems point into it
    NetworkTraining training;
    const PhaseProblem* problem = nullptr;
    Mapping mapping;
    MappingTarget target;  // as resolved
};

// `overrides` holds command-line values (unset fields fall back to `for:`).
MappingCase load_mapping_case(const std::filesystem::path& file,
                              const MappingTarget& overrides = {});

// Evaluates; an invalid mapping throws SpecError located at the file's entry
// for the level at fault, naming the level, tensors, sizes and limit.
Evaluation evaluate_case(const MappingCase& c);
// The same with the phase's densities (sparse evaluation).
Evaluation evaluate_case(const MappingCase& c, const PhaseDensities& densities,
                         const ImbalanceOptions& imbalance);

}  // namespace trainloop
