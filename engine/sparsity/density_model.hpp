// DensityModel: how the nonzeros of a tensor are distributed, beyond their
// mean density. The load-imbalance model (DESIGN.md, "Evaluating a mapping",
// step 3) reads it to derive the spread of per-PE work.
//
// Contract: a closed sum type of value structs, one per model. Only
// `uniform` exists now; planned models (`n_m` structured N:M, `clustered`
// with a coefficient of variation, `mask` files) become new alternatives
// with their own fields, parsed from the `parameters:` map of `model:`
// (docs/sparsity_format.md).
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace trainloop {

// Each element is nonzero independently with probability = density
// (Bernoulli), so per-tile nonzero counts are binomial.
struct UniformModel {
    friend bool operator==(const UniformModel&, const UniformModel&) = default;
};

using DensityModel = std::variant<UniformModel>;

std::string_view density_model_name(const DensityModel& model);

// Names accepted in `model:` now, and names reserved for later models.
const std::vector<std::string>& implemented_density_models();
const std::vector<std::string>& planned_density_models();

}  // namespace trainloop
