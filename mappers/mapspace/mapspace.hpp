// Mapspace: the mappings the mapper may choose from for one phase problem on
// one architecture, and the moves between them.
//
// Axes (issue #5): spatial — which dimensions go on the array's X and Y axes,
// with which factors (from a dataflow, or all dataflows for `any`); temporal
// — every ordered factorization of each dimension's remaining bound across
// the levels (perfect factors); loop orders per level (only the relative order
// of loops with factor > 1 matters, and the innermost level's order changes
// nothing, so it is not explored); keep/bypass of each data space at each
// level below the outermost.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <vector>

#include "eval/arch_model.hpp"
#include "mapping/mapping.hpp"
#include "mapspace/dataflow.hpp"
#include "problem/iteration_space.hpp"

namespace trainloop {

struct MapspaceConstraints {
    std::optional<Dataflow> dataflow;  // nullopt: any
    bool explore_bypass = true;        // false: every level keeps what it may hold
};

// The spatial loops of every level.
struct SpatialChoice {
    std::array<LoopList, kMaxLevels> x{};
    std::array<LoopList, kMaxLevels> y{};
    DimBounds total;  // Π of the spatial factors per dimension
};

// A point of the mapspace (becomes a Mapping with Mapspace::to_mapping).
struct MapPoint {
    std::uint32_t spatial = 0;                    // index into spatial_choices()
    std::array<DimBounds, kMaxLevels> factors{};  // temporal factor per level and dimension
    std::array<std::array<Dim, kNumDims>, kMaxLevels> order{};  // per level, outermost first
    std::array<DataSpaceSet, kMaxLevels> keep{};
};

struct MapspaceSize {
    double spatial = 0;  // spatial choices
    double tilings = 0;  // temporal factorizations (summed over spatial choices)
    double orders = 0;   // loop orders of one typical tiling (upper bound)
    double keeps = 0;    // keep/bypass combinations
    double total() const { return tilings * orders * keeps; }
};

class Mapspace {
  public:
    // A dataflow whose dimensions the layer lacks (e.g. P,Q on an FC layer)
    // leaves only the spatial choice that uses no PE but one: the low
    // utilization shows in the results.
    static Mapspace build(const ArchModel& arch, const IterationSpace& space,
                          const MapspaceConstraints& constraints);

    std::size_t num_levels() const { return num_levels_; }
    const std::vector<SpatialChoice>& spatial_choices() const { return spatial_; }
    const std::vector<DataSpaceSet>& keep_choices(std::size_t level) const { return keeps_[level]; }
    // The bound a dimension has left for the temporal loops under a spatial choice.
    std::int64_t temporal_bound(std::uint32_t spatial, Dim d) const {
        return bounds_[d] / spatial_[spatial].total[d];
    }
    // Every way to split `bound` into num_levels() ordered factors.
    const std::vector<std::vector<std::int64_t>>& factorizations(std::int64_t bound) const;
    MapspaceSize size() const;

    Mapping to_mapping(const MapPoint& point) const;
    MapPoint random_point(std::mt19937_64& rng) const;
    // A small random change: move a prime factor of one dimension between
    // levels, swap two loops of a level, flip a keep bit, or change the
    // spatial choice (re-splitting the dimensions it changes).
    MapPoint neighbor(const MapPoint& point, std::mt19937_64& rng) const;

  private:
    void random_factors(MapPoint& point, Dim d, std::mt19937_64& rng) const;

    std::size_t num_levels_ = 0;
    DimBounds bounds_;
    std::vector<SpatialChoice> spatial_;
    std::array<std::vector<DataSpaceSet>, kMaxLevels> keeps_;
    std::map<std::int64_t, std::vector<std::vector<std::int64_t>>> factorizations_;
};

}  // namespace trainloop
