#include "sparse/phase_densities.hpp"

#include <cmath>

#include "density/sparsity_query.hpp"
#include "sparse/tensor_tile.hpp"

namespace trainloop {

PhaseDensities phase_densities(const SparsityProfile& profile, std::string_view network,
                               std::string_view layer, Phase phase, std::int64_t iteration) {
    PhaseDensities out;
    for (DataSpace s : kAllDataSpaces) {
        const TensorName tensor = tensor_in_phase(phase, s);
        OperandDensity& d = out.spaces[s];
        d.density = density(profile, network, layer, tensor, phase, iteration);
        d.model = density_model(profile, network, layer, tensor, phase);
    }
    return out;
}

bool lacks_tensor_sizes(const PhaseDensities& densities) {
    for (const OperandDensity& d : densities.spaces) {
        const auto* h = std::get_if<HypergeometricModel>(&d.model);
        if (h != nullptr && h->population <= 0) return true;
    }
    return false;
}

PhaseDensities with_tensor_sizes(const PhaseDensities& densities, const PhaseProblem& problem) {
    PhaseDensities out = densities;
    for (DataSpace s : kAllDataSpaces) {
        OperandDensity& d = out.spaces[s];
        auto* h = std::get_if<HypergeometricModel>(&d.model);
        if (h == nullptr || h->population > 0) continue;
        h->population = tile_of(problem.projection(s), problem.space.bounds).elements();
        // The tensor holds a whole number of nonzeros: its density is K/N.
        const double n = double(h->population);
        d.density = hypergeometric_nonzeros(d.density, n) / n;
    }
    return out;
}

}  // namespace trainloop
