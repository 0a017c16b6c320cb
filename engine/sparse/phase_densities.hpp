// PhaseDensities: the density and density model of the tensor on each data
// space of one layer in one phase — what the sparse evaluator needs of a
// sparsity profile. A plain value; copying it never allocates (a mask model
// shares its mask).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "density/density_model.hpp"
#include "density/density_schedule.hpp"
#include "density/sparsity_profile.hpp"
#include "problem/phase_problem.hpp"
#include "vocabulary/per_space.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct OperandDensity {
    double density = 1.0;  // fraction of nonzeros in [0, 1]
    DensityModel model = UniformModel{};
};

struct PhaseDensities {
    PerDataSpace<OperandDensity> spaces{};

    const OperandDensity& of(DataSpace s) const { return spaces[s]; }
    // Every density is 1: the sparse evaluation must equal the dense one.
    bool all_dense() const {
        return std::all_of(spaces.begin(), spaces.end(),
                           [](const OperandDensity& d) { return d.density == 1.0; });
    }
};

// `densities` with every hypergeometric model's population (0 as a profile
// gives it) set to the element count N of its tensor in `problem`, and its
// density to the whole count of nonzeros it then holds, ⌈d·N⌉/N; the
// others as they are.
PhaseDensities with_tensor_sizes(const PhaseDensities& densities, const PhaseProblem& problem);

// Whether some hypergeometric model still lacks its population.
bool lacks_tensor_sizes(const PhaseDensities& densities);

// The densities a profile gives the tensors of (network, layer) in `phase`
// at training iteration `iteration` (kFinalIteration: after every schedule).
PhaseDensities phase_densities(const SparsityProfile& profile, std::string_view network,
                               std::string_view layer, Phase phase,
                               std::int64_t iteration = kFinalIteration);

}  // namespace trainloop
