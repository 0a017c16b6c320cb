// A result of the results database, read back for evaluation
// (`trainloop eval --db FILE --point ID --layer L --phase P`): the point's
// architecture, network and sparsity profile from their stored YAML texts,
// its batch and density iteration, and the layer-phase's best mapping (the
// one-line text form). The architecture's component library is the file it
// was resolved to when the point was written (architectures.summary); a
// profile's mask files resolve relative to the working directory.
// Everything missing or unreadable is a SpecError naming the database.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "arch/arch_model.hpp"
#include "arch/architecture.hpp"
#include "density/sparsity_profile.hpp"
#include "mapping/mapping.hpp"
#include "problem/training_problems.hpp"

namespace trainloop::cli {

struct StoredCase {
    Architecture arch;
    ArchModel model;
    std::shared_ptr<const Network> network;  // the training problems point into it
    NetworkTraining training;
    const PhaseProblem* problem = nullptr;
    Mapping mapping;
    SparsityProfile profile;
    std::int64_t iteration = 0;  // kFinalIteration when the point used the final densities
};

StoredCase load_stored_case(const std::filesystem::path& db, std::int64_t point_id,
                            const std::string& layer, const std::string& phase);

}  // namespace trainloop::cli
