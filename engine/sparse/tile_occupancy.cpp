#include "sparse/tile_occupancy.hpp"

#include <cmath>

namespace trainloop {
namespace {

// Bernoulli elements: the count is Binomial(E, d).
TileOccupancy binomial(double density, double elements) {
    return {density * elements, density * (1.0 - density) * elements,
            std::pow(1.0 - density, elements)};
}

}  // namespace

TileOccupancy tile_occupancy(const DensityModel& model, double density, const TensorTile& tile,
                             DataSpace /*space*/) {
    struct Visit {
        double density;
        double elements;
        TileOccupancy operator()(const UniformModel&) const { return binomial(density, elements); }
    };
    return std::visit(Visit{density, double(tile.elements())}, model);
}

}  // namespace trainloop
