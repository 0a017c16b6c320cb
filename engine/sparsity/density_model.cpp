#include "sparsity/density_model.hpp"

namespace trainloop {

std::string_view density_model_name(const DensityModel& model) {
    struct Name {
        std::string_view operator()(const UniformModel&) const { return "uniform"; }
    };
    return std::visit(Name{}, model);
}

const std::vector<std::string>& implemented_density_models() {
    static const std::vector<std::string> names = {"uniform"};
    return names;
}

const std::vector<std::string>& planned_density_models() {
    static const std::vector<std::string> names = {"n_m", "clustered", "mask"};
    return names;
}

}  // namespace trainloop
