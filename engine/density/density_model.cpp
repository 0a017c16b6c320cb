#include "density/density_model.hpp"

#include <algorithm>

namespace trainloop {

std::string_view density_model_name(const DensityModel& model) {
    struct Name {
        std::string_view operator()(const UniformModel&) const { return "uniform"; }
        std::string_view operator()(const EvenModel&) const { return "even"; }
        std::string_view operator()(const HypergeometricModel&) const { return "hypergeometric"; }
        std::string_view operator()(const NMModel&) const { return "n_m"; }
        std::string_view operator()(const ClusteredModel&) const { return "clustered"; }
        std::string_view operator()(const MaskModel&) const { return "mask"; }
    };
    return std::visit(Name{}, model);
}

const ClusteredModel* clustered_model(const DensityModel& model) {
    struct Clustered {
        const ClusteredModel* operator()(const UniformModel&) const { return nullptr; }
        const ClusteredModel* operator()(const EvenModel&) const { return nullptr; }
        const ClusteredModel* operator()(const HypergeometricModel&) const { return nullptr; }
        const ClusteredModel* operator()(const NMModel&) const { return nullptr; }
        const ClusteredModel* operator()(const ClusteredModel& m) const { return &m; }
        const ClusteredModel* operator()(const MaskModel&) const { return nullptr; }
    };
    return std::visit(Clustered{}, model);
}

const std::vector<std::string>& implemented_density_models() {
    static const std::vector<std::string> names = {"uniform", "even",      "hypergeometric",
                                                   "n_m",     "clustered", "mask"};
    return names;
}

const std::vector<std::string>& planned_density_models() {
    static const std::vector<std::string> names = {};
    return names;
}

std::string_view tensor_axis_letters(DataSpace space) {
    constexpr std::string_view letters[3] = {"gkcrs", "ngchw", "ngkpq"};
    return letters[std::size_t(space)];
}

int tensor_axis_index(DataSpace space, char letter) {
    const std::size_t i = tensor_axis_letters(space).find(letter);
    return i == std::string_view::npos ? -1 : int(i);
}

int cluster_axis_index(ClusterUnit unit, DataSpace space) {
    switch (unit) {
        case ClusterUnit::filter:
            return space == DataSpace::weights ? tensor_axis_index(space, 'k') : -1;
        case ClusterUnit::channel:
            return space == DataSpace::outputs ? tensor_axis_index(space, 'k')
                                               : tensor_axis_index(space, 'c');
        case ClusterUnit::row:
            return -1;
    }
    return -1;
}

BetaParameters cluster_beta(double mean, double cv) {
    BetaParameters p;
    const double bernoulli = mean * (1.0 - mean);
    // Cap at 90 % of the Bernoulli variance: beta's α + β = m(1−m)/v − 1 stays ≥ 1/9.
    p.variance = std::min(cv * mean * cv * mean, 0.9 * bernoulli);
    if (p.variance <= 0 || bernoulli <= 0) {
        p.variance = 0;
        p.alpha = mean;
        p.beta = 1.0 - mean;
        return p;
    }
    // Beta moments (any statistics text): mean = α/(α+β), var = mean(1−mean)/(α+β+1).
    const double sum = bernoulli / p.variance - 1.0;
    p.alpha = mean * sum;
    p.beta = (1.0 - mean) * sum;
    return p;
}

}  // namespace trainloop
