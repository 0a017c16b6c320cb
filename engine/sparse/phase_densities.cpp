#include "sparse/phase_densities.hpp"

#include "density/sparsity_query.hpp"

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

}  // namespace trainloop
