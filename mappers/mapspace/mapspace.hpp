// Mapspace: the mappings the mapper may choose from for one phase problem on
// one architecture, and the moves between them.
//
// Axes: spatial — which dimensions go on the array's X and Y axes,
// with which factors (from a dataflow, or all dataflows for `any`; with
// imperfect factors also one that does not divide its dimension); temporal
// — every ordered factorization of each dimension's remaining bound across
// the levels (perfect factors of it; with imperfect factors the annealing
// also reaches tiles that leave a remainder, remainder_tile(), which the
// exhaustive strategy does not enumerate); loop orders per level (only the relative order
// of loops with factor > 1 matters, and the innermost level's order changes
// nothing, so it is not explored); keep/bypass of each data space at each
// level below the outermost.
//
// User constraints (engine/constraints, docs/mapping_constraints.md) are
// honoured by construction: the spatial choices, factorizations, keep
// choices and loop orders hold only what they allow, so every point the
// mapspace enumerates, samples or moves to satisfies them, and size() counts
// only those points. A constraint that leaves a problem no point makes the
// mapspace empty with empty_reason() saying which constraint and why.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "arch/arch_model.hpp"
#include "common/checked_math.hpp"
#include "constraints/mapping_constraints.hpp"
#include "mapping/mapping.hpp"
#include "mapspace/dataflow.hpp"
#include "nest/padding.hpp"
#include "problem/iteration_space.hpp"

namespace trainloop {

struct MapspaceConstraints {
    std::optional<Dataflow> dataflow;  // nullopt: any
    // false: every level keeps what it may hold, except what `user` requires
    // to bypass
    bool explore_bypass = true;
    // The architecture's constraints merged with a constraints file's.
    MappingConstraints user = {};
    // Also spatial factors that do not divide their dimension (N, K, C, G):
    // the one that takes the fewest steps through it, the temporal loops
    // then factoring the padded bound ⌈bound/spatial⌉ (nest/padding.hpp);
    // and temporal tiles of any size, the outermost level taking the
    // remainder (Mapspace::remainder_tile).
    bool imperfect_factors = false;
    // With imperfect_factors, the sliding-window dimensions P, Q, R, S too
    // (nest/padding.hpp: the inputs are then counted as an upper bound).
    bool imperfect_windows = false;

    // What a problem of `phase` is mapped under (user's per-phase entries resolved).
    MapspaceConstraints for_phase(Phase phase) const {
        return {dataflow, explore_bypass, constraints_for_phase(user, phase), imperfect_factors,
                imperfect_windows};
    }
    // The dimensions a mapspace of a problem of `shape` may pad (nest/padding.hpp
    // paddable_dims).
    DimSet paddable(const ProblemShape& shape) const {
        return paddable_dims(shape, imperfect_factors, imperfect_windows);
    }
    // The phase a mapspace depends on: none unless some entry is per phase
    // (then problems of one iteration space but different phases need their
    // own mapspaces).
    std::optional<Phase> mapspace_phase(Phase phase) const {
        return user.phases.empty() ? std::nullopt : std::optional<Phase>(phase);
    }
};

// Where a mapping with perfect factors leaves part of an array axis idle that
// imperfect factors would fill: a dimension spread over the axis by a divisor
// of its size, where the fewest-steps factor the mapspace adds with
// imperfect_factors takes fewer steps than any divisor that fits
// (ResNet-18's fc: K = 1000 on 10 of 16 columns, 100 steps, where 16 takes
// 63). The first such spread of a dimension in `paddable` (the dimensions
// the run does not pad yet), or nullopt.
struct IdleAxisHint {
    Dim dim = Dim::N;
    bool x = true;               // the axis: columns (x) or rows (y)
    std::int64_t instances = 1;  // of the axis the mapping uses
    std::int64_t padded = 1;     // the fewest-steps spread
    std::int64_t fanout = 1;     // the axis's instances at that level
};
std::optional<IdleAxisHint> idle_axis_hint(const ArchModel& arch, const IterationSpace& space,
                                           const Mapping& mapping,
                                           std::optional<DimSet> paddable = std::nullopt);

// Throws SpecError (at the constraint, key `--dataflow`) when a named
// dataflow puts other dimensions across an axis than `user` fixes there.
void check_dataflow_against_constraints(const MapspaceConstraints& constraints);

// The spatial loops of every level.
struct SpatialChoice {
    std::array<LoopList, kMaxLevels> x{};
    std::array<LoopList, kMaxLevels> y{};
    DimBounds total;  // Π of the spatial factors per dimension
};

// Why the constraints leave a problem no mapping: the text, and where the
// constraint that does it was written.
struct EmptyMapspaceReason {
    std::string text;
    ConstraintOrigin origin;
};

// A point of the mapspace (becomes a Mapping with Mapspace::to_mapping).
struct MapPoint {
    std::uint32_t spatial = 0;                    // index into spatial_choices()
    std::array<DimBounds, kMaxLevels> factors{};  // temporal factor per level and dimension
    std::array<std::array<Dim, kNumDims>, kMaxLevels> order{};  // per level, outermost first
    std::array<DataSpaceSet, kMaxLevels> keep{};
};

// How Mapspace::neighbor changes the spatial choice.
enum class SpatialMove : std::uint8_t { resplit, rescale };

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
    // The dimensions its mappings may pad (MapspaceConstraints::paddable()).
    DimSet paddable() const { return paddable_; }
    const std::vector<SpatialChoice>& spatial_choices() const { return spatial_; }
    const std::vector<DataSpaceSet>& keep_choices(std::size_t level) const { return keeps_[level]; }
    // The bound a dimension has left for the temporal loops under a spatial
    // choice (rounded up: an imperfect spatial factor pads the dimension).
    std::int64_t temporal_bound(std::uint32_t spatial, Dim d) const {
        return ceil_div(bounds_[d], spatial_[spatial].total[d]);
    }
    // Every way to split `bound` (what dimension `d` has left for the
    // temporal loops) into num_levels() ordered factors within the factor
    // bounds of the constraints.
    const std::vector<std::vector<std::int64_t>>& factorizations(Dim d, std::int64_t bound) const;
    // Whether factor `f` of `d` at `level` is within the factor bounds.
    bool factor_allowed(std::size_t level, Dim d, std::int64_t f) const {
        return f >= factor_min_[level][d] && f <= factor_max_[level][d];
    }
    // Rewrites a level's loop order (a permutation of every dimension) into
    // the nearest one the order constraint allows: the constrained dimensions
    // take the positions they occupy, in the required order.
    void constrain_order(std::size_t level, std::array<Dim, kNumDims>& order) const;
    // Whether the loops with factor > 1 at `level`, in this order, honour it.
    bool order_allowed(std::size_t level, const std::vector<Dim>& loops) const;
    // How many orders of `loops` (the loops with factor > 1) it allows.
    std::int64_t order_count(std::size_t level, const std::vector<Dim>& loops) const;
    MapspaceSize size() const;
    // Set when the constraints leave this problem no mapping (then
    // spatial_choices() is empty): which constraint, and why.
    const std::optional<EmptyMapspaceReason>& empty_reason() const { return empty_reason_; }

    Mapping to_mapping(const MapPoint& point) const;
    MapPoint random_point(std::mt19937_64& rng) const;
    // A small random change: move a prime factor of one dimension between
    // levels, exchange prime factors of two dimensions between two levels
    // (exchange_factors), swap two loops of a level, flip a keep bit, or
    // change the spatial choice (`how`: re-splitting the dimensions it
    // changes at random, or rescaling their factors as with_spatial_choice
    // does where it can, which keeps the tiling found so far); with imperfect
    // factors also give a level a tile that leaves a remainder
    // (remainder_tile); each kind equally likely.
    MapPoint neighbor(const MapPoint& point, std::mt19937_64& rng,
                      SpatialMove how = SpatialMove::resplit) const;
    // Every point one move away: each prime factor of each dimension moved
    // to each other level (within the factor bounds), each swap of two loops
    // of a level above the innermost that makes a new relative order of its
    // loops with factor > 1 (as the order constraint allows), each other
    // keep/bypass choice of each level, and each spatial choice that keeps
    // one array axis's loops and changes the other's (with_spatial_choice,
    // the changed bounds absorbed at the outermost level that can take them
    // and, where that differs, at the innermost: a dimension moved off the
    // array then lands where it stays in the tiles it was spread over).
    // In a fixed order, so a hill climb over them is deterministic.
    std::vector<MapPoint> single_moves(const MapPoint& point) const;
    // A prime factor of one dimension moved from one level to another and a
    // prime factor of another dimension moved back, both at random; nullopt
    // when the point has no two such factors or the exchange leaves the
    // factor bounds. The tiles keep roughly their size, so where a level is
    // full one dimension's tile can grow as another's shrinks, which two
    // single moves reach only through an overflow or a much worse point
    // (ResNet-18 layer4.0.conv1 bw with `any`: bench/RESULTS.md, "Factor
    // exchanges").
    std::optional<MapPoint> exchange_factors(const MapPoint& point, std::mt19937_64& rng) const;
    // With imperfect factors: one level below the outermost gets a tile of
    // N, K, C or G of any size up to the dimension's temporal bound, and the
    // outermost level takes the remainder, ⌈bound / inner tile⌉ steps, the
    // last a partial tile (Timeloop's imperfect factorization, Ruby; the
    // evaluator's model: nest/padding.hpp). A dimension whose divisors give
    // the buffers no tile near the size that fits (K = 2 · 53: 1, 2, 53 or
    // 106) then gets one (16, in 7 steps). nullopt without imperfect factors,
    // or when the inner tiles outgrow the bound, the factor bounds forbid it,
    // or the padded extent reaches twice the dimension.
    std::optional<MapPoint> remainder_tile(const MapPoint& point, std::mt19937_64& rng) const;
    // The point with another spatial choice, the temporal factors of each
    // dimension whose bound changes rescaled at the outermost level that can
    // take the change (keeping the inner tiles) or, with Absorb::innermost,
    // the innermost; nullopt when no level can.
    enum class Absorb : std::uint8_t { outermost, innermost };
    std::optional<MapPoint> with_spatial_choice(const MapPoint& point, std::uint32_t spatial,
                                                Absorb where = Absorb::outermost) const;

  private:
    // The steps of build(), in order: the spatial choices of the dataflows
    // (fixed spatial factors honoured), the keep/bypass choices per level,
    // the factor bounds and loop orders per level, and the factorizations of
    // every bound a dimension can have left (dropping spatial choices that
    // leave some dimension none).
    void build_spatial_choices(const ArchModel& arch, const IterationSpace& space,
                               const MapspaceConstraints& constraints);
    void build_keep_choices(const ArchModel& arch, const MapspaceConstraints& constraints);
    void build_factor_bounds(const ArchModel& arch, const IterationSpace& space,
                             const MappingConstraints& user);
    void build_factorizations(const IterationSpace& space, const MappingConstraints& user);

    void random_factors(MapPoint& point, Dim d, std::mt19937_64& rng) const;
    // Why `bound` of `d` has no factorization within the factor bounds.
    EmptyMapspaceReason factor_bounds_reason(const MappingConstraints& user, Dim d,
                                             std::int64_t bound) const;

    std::size_t num_levels_ = 0;
    // MapspaceConstraints::paddable(): empty without imperfect factors.
    DimSet paddable_;
    DimBounds bounds_;
    std::vector<SpatialChoice> spatial_;
    std::array<std::vector<DataSpaceSet>, kMaxLevels> keeps_;
    std::map<std::pair<Dim, std::int64_t>, std::vector<std::vector<std::int64_t>>> factorizations_;
    // Effective temporal factor bounds per level and dimension (1..bound
    // when unconstrained); whether a dimension has any bound below its size.
    std::array<DimBounds, kMaxLevels> factor_min_{};
    std::array<DimBounds, kMaxLevels> factor_max_{};
    PerDim<bool> bounded_{};
    std::array<std::optional<LoopOrderConstraint>, kMaxLevels> orders_{};
    std::optional<EmptyMapspaceReason> empty_reason_;
};

}  // namespace trainloop
