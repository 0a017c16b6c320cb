// Tile occupancy: how many nonzeros a tile of a tensor holds, under a
// density model (density/density_model.hpp). Each model answers the
// questions the sparse evaluator asks: the expected nonzeros in a tile, the probability a
// tile is empty, and (through the variance and the model) the spread of
// nonzeros across the tiles that run in parallel.
//
// Contract: pure; allocation-free for every model but `mask` (which averages
// over the aligned tile positions of the actual mask, sparse/mask_tiles.hpp).
// Models: uniform — binomial; even — the floor or the ceiling of the mean
// count (a two-point distribution); hypergeometric — without replacement
// from the tensor's exact count of nonzeros; n_m — the whole blocks of a line along the
// model's axis are exact, a partial block (the tile's extent along the axis
// modulo m, tiles aligned to blocks) is hypergeometric; clustered — a sum of
// independent beta-binomials, one per cluster the tile touches (its extent
// along the cluster axis, or its rows for `row`).
#pragma once

#include "density/density_model.hpp"
#include "sparse/tensor_tile.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct TileOccupancy {
    double mean_nonzeros = 0;      // E[nonzeros in the tile]
    double variance = 0;           // Var[nonzeros in the tile]
    double probability_empty = 0;  // P(nonzeros = 0)
    // E[(nonzeros − mean)^3]: the skew of the count, which the load-imbalance
    // model needs for the maximum over PEs of sparse (right-skewed) tiles.
    double third_central_moment = 0;
};

// `space`: the data space the tile belongs to (a model's cluster axis
// depends on it, e.g. per filter for weights).
// A clustered model's view of a tile: how many clusters it touches and how
// many of its elements fall in each.
struct ClusterSplit {
    double clusters = 1;
    double elements_per_cluster = 1;
};
ClusterSplit cluster_split(const ClusteredModel& model, const TensorTile& tile, DataSpace space);

// Whether cutting a tile along `axis` gives halves with disjoint clusters.
bool axis_identifies_cluster(const ClusteredModel& model, int axis, const TensorTile& tile,
                             DataSpace space);

// The axis along which Procrustes' load balancer cuts a tile in half
// (§IV-C): the longest axis, preferring one that separates clusters; -1
// when the tile is a single element.
int half_cut_axis(const DensityModel& model, const TensorTile& tile, DataSpace space);
TensorTile half_of(const TensorTile& tile, int axis);  // floor(extent / 2) along `axis`

TileOccupancy tile_occupancy(const DensityModel& model, double density, const TensorTile& tile,
                             DataSpace space);

// The same without P(empty) for clustered models (left 0; its log-gammas are
// the costliest part), for the load-imbalance model's hot path.
TileOccupancy tile_count_moments(const DensityModel& model, double density, const TensorTile& tile,
                                 DataSpace space);

}  // namespace trainloop
