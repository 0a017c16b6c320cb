// Tile occupancy: how many nonzeros a tile of a tensor holds, under a
// density model (sparsity/density_model.hpp). Each model answers the
// questions of issue #4: the expected nonzeros in a tile, the probability a
// tile is empty, and (through the variance and the model) the spread of
// nonzeros across the tiles that run in parallel.
//
// Contract: pure; allocation-free for every model but `mask` (which averages
// over the tile positions of the actual mask).
#pragma once

#include "problem/phase.hpp"
#include "sparse/tensor_tile.hpp"
#include "sparsity/density_model.hpp"

namespace trainloop {

struct TileOccupancy {
    double mean_nonzeros = 0;      // E[nonzeros in the tile]
    double variance = 0;           // Var[nonzeros in the tile]
    double probability_empty = 0;  // P(nonzeros = 0)
};

// `space`: the data space the tile belongs to (a model's cluster axis
// depends on it, e.g. per filter for weights).
TileOccupancy tile_occupancy(const DensityModel& model, double density, const TensorTile& tile,
                             DataSpace space);

}  // namespace trainloop
