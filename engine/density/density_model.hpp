// DensityModel: how the nonzeros of a tensor are distributed, beyond their
// mean density. The load-imbalance model (docs/design.md, "The pipeline",
// step 5, load imbalance) reads it to derive the spread of per-PE work, and
// tile occupancy (sparse/tile_occupancy.hpp) the spread of nonzeros per tile.
//
// Contract: a closed sum type of value structs, one per model, parsed from
// `model:` (docs/sparsity_format.md):
//   uniform    every element nonzero independently (Bernoulli);
//   even       every tile holds as nearly density × elements nonzeros as a
//              count can: the floor or the ceiling, with the mean exact
//              (Sparseloop's `fixed-structured` distribution);
//   hypergeometric  the tensor holds exactly ⌈density × elements⌉
//              nonzeros at random positions, so a tile's count is drawn
//              without replacement (Sparseloop's `hypergeometric`);
//   n_m        structured N:M: exactly N nonzeros in every block of M
//              consecutive elements along one tensor axis;
//   clustered  each cluster (a filter, a channel or a row) has its own
//              density, drawn from a named distribution around the mean with
//              a coefficient of variation; elements Bernoulli within it;
//   mask       the actual nonzeros, read from a NumPy .npy file.
// Copying a model never allocates a tensor: a mask model shares its mask.
// Tensor axes are named by letter in the projection's order
// (sparse/tensor_tile.hpp): weights `gkcrs`, inputs `ngchw`, outputs `ngkpq`.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "vocabulary/phase.hpp"

namespace trainloop {

// Each element is nonzero independently with probability = density
// (Bernoulli), so per-tile nonzero counts are binomial.
struct UniformModel {
    friend bool operator==(const UniformModel&, const UniformModel&) = default;
};

// The nonzeros spread as evenly as counts allow: a tile of E elements holds
// ⌊d·E⌋ or ⌈d·E⌉ of them, the ceiling with probability d·E − ⌊d·E⌋, so the
// mean is exactly d·E (Timeloop v3.0.3,
// src/workload/density-models/fixed-structured-distribution.cpp). No tile is
// empty once d·E ≥ 1, and work is as balanced as it can be.
struct EvenModel {
    friend bool operator==(const EvenModel&, const EvenModel&) = default;
};

// A tensor of N elements with exactly K = ⌈d·N⌉ nonzeros at uniformly
// random positions (global pruning to a fixed count): a tile of E elements
// holds Hypergeometric(N, K, E) of them (Timeloop v3.0.3,
// src/workload/density-models/hypergeometric-distribution.cpp). `population`
// is N, the tensor's element count: 0 as a profile gives it (`model:
// hypergeometric` names no tensor), filled in from the layer when the
// evaluator reads it (with_tensor_sizes, sparse/phase_densities.hpp); until
// then tiles are counted as uniform (binomial), which has the same mean.
struct HypergeometricModel {
    std::int64_t population = 0;
    friend bool operator==(const HypergeometricModel&, const HypergeometricModel&) = default;
};

// K, the nonzeros of a hypergeometric tensor of `population` elements at
// `density`: ⌈d·N⌉, as Sparseloop counts them (hypergeometric-distribution.cpp:
// total_nnzs = ceil(average_density × workload_tensor_size)), less a rounding
// error's worth so that 0.1 × 30 is 3, not 4.
inline double hypergeometric_nonzeros(double density, double population) {
    return std::ceil(density * population - 1e-9);
}

// Exactly n nonzeros in every aligned block of m consecutive elements along
// tensor axis `axis` (a letter of the data space's axes), at uniformly random
// positions within the block (NVIDIA's 2:4 is n=2, m=4 along `c`). Density
// n/m.
struct NMModel {
    std::int64_t n = 2;
    std::int64_t m = 4;
    char axis = 'c';
    double density() const { return double(n) / double(m); }
    friend bool operator==(const NMModel&, const NMModel&) = default;
};

enum class ClusterDistribution : std::uint8_t { beta };
inline constexpr std::string_view kClusterDistributionNames[] = {"beta"};

// What one cluster is: a filter (one output channel of the weights, w[k]),
// a channel (w[:,c], x[:,c], y[:,k]), or a row (every index but the
// innermost axis: one line along the innermost axis).
enum class ClusterUnit : std::uint8_t { filter, channel, row };
inline constexpr std::string_view kClusterUnitNames[] = {"filter", "channel", "row"};

// Per-cluster densities drawn i.i.d. from `distribution` with the tensor's
// density as mean and cv × mean as standard deviation; within a cluster the
// elements are Bernoulli with the cluster's density.
struct ClusteredModel {
    ClusterDistribution distribution = ClusterDistribution::beta;
    double cv = 0.5;  // coefficient of variation of the cluster densities
    ClusterUnit unit = ClusterUnit::row;
    friend bool operator==(const ClusteredModel&, const ClusteredModel&) = default;
};

// An actual mask in the tensor's PyTorch dimension order: weights [K,C,R,S]
// (grouped: [G·K,C,R,S]), activations and gradients [N,C,H,W] ([N,G·C,H,W]);
// fully connected layers may give [K,C] and [N,C].
struct MaskTensor {
    std::string file;  // as resolved (absolute or relative to the working dir)
    std::vector<std::int64_t> shape;
    std::vector<std::uint8_t> nonzero;  // C order, 0 or 1
    double density = 0;                 // fraction of nonzeros
};

struct MaskModel {
    std::shared_ptr<const MaskTensor> mask;
    friend bool operator==(const MaskModel& a, const MaskModel& b) {
        return a.mask == b.mask || (a.mask && b.mask && a.mask->file == b.mask->file);
    }
};

using DensityModel =
    std::variant<UniformModel, EvenModel, HypergeometricModel, NMModel, ClusteredModel, MaskModel>;

std::string_view density_model_name(const DensityModel& model);

// The clustered model's parameters, or nullptr for a model whose elements
// are not tied together in clusters (dispatched exhaustively: a new model
// must say which it is).
const ClusteredModel* clustered_model(const DensityModel& model);

// Names accepted in `model:`, and names reserved for later models.
const std::vector<std::string>& implemented_density_models();
const std::vector<std::string>& planned_density_models();

// The index of the axis named `letter` in `space`'s tensor (-1: none).
int tensor_axis_index(DataSpace space, char letter);
// The axis letters of `space`'s tensor, e.g. "gkcrs".
std::string_view tensor_axis_letters(DataSpace space);

// The axis whose index identifies a cluster of `unit` in `space`'s tensor;
// -1 for `row` (every axis but the innermost) and for a unit the tensor does
// not have (`filter` outside the weights).
int cluster_axis_index(ClusterUnit unit, DataSpace space);

// The beta distribution of cluster densities with this mean and
// coefficient of variation. The variance is capped below mean·(1 − mean),
// the largest a distribution on [0, 1] can have (at the cap it would be
// Bernoulli, and the model would degenerate to all-or-nothing clusters).
struct BetaParameters {
    double alpha = 1;
    double beta = 1;
    double variance = 0;  // of the cluster densities, after the cap
};
BetaParameters cluster_beta(double mean, double cv);

}  // namespace trainloop
