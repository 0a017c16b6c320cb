// MappingConstraints: what a user fixes about the mappings the mapper may
// choose (docs/mapping_constraints.md). Read from an architecture's
// `constraints:` section and from a separate constraints file (`trainloop map
// --constraints FILE`); the file's entries add to or override the
// architecture's (merge_constraints).
//
// Four kinds, all optional:
//   spatial   per array axis (x: across the columns, y: across the rows):
//             exactly which dimensions are spread over it, optionally with
//             fixed factors (the product over the levels on that axis);
//   factors   per level and dimension: bounds on the level's temporal factor
//             (exact = min = max);
//   order     per level: a full order (the level's loops with factor > 1 run
//             in exactly this order, outermost first; a dimension not listed
//             has factor 1 there) or a partial one (only the relative order of
//             the listed dimensions is fixed);
//   keep      per level and data space: it must be kept or must bypass.
// Any of them may also be given per training phase (`phases: {bw: {...}}`):
// a phase's entries override the general ones entry by entry for the
// problems of that phase only (constraints_for_phase), as a dataflow that
// puts a different dimension on the rows in each phase needs.
// Factors larger than a layer's dimension apply as the whole dimension (an
// exact `R: 3` on a layer with R = 1 means R: 1 there), so one set of
// constraints serves every layer of a network.
//
// Plain values; levels are referred to by index in the architecture the
// constraints were read against. Every entry remembers where it was written
// (ConstraintOrigin), so a conflict found later, or a layer it leaves without
// mappings, can name the file, line and key.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/spec_error.hpp"
#include "vocabulary/array_axis.hpp"
#include "vocabulary/data_space_set.hpp"
#include "vocabulary/dims.hpp"
#include "vocabulary/per_space.hpp"
#include "vocabulary/phase.hpp"

namespace trainloop {

struct ConstraintOrigin {
    SourceLocation where;
    std::string key;  // the key path, e.g. `levels.RF.factors.C`
};

// "constraints.yaml:12:7 (levels.RF.factors.C)".
std::string origin_text(const ConstraintOrigin& origin);

struct SpatialAxisConstraint {
    std::vector<Dim> dims;         // exactly these dimensions across the axis (may be none)
    PerDim<std::int64_t> fixed{};  // a fixed spatial factor per dimension; 0: free
    ConstraintOrigin origin;
};

inline constexpr std::int64_t kNoFactorLimit = std::numeric_limits<std::int64_t>::max();

struct FactorBound {
    std::int64_t min = 1;
    std::int64_t max = kNoFactorLimit;
    ConstraintOrigin origin;
};

struct LoopOrderConstraint {
    std::vector<Dim> dims;  // outermost first
    bool full = false;      // full: unlisted dimensions have factor 1 at the level
    ConstraintOrigin origin;
};

struct KeepRequirement {
    bool keep = true;  // false: must bypass
    ConstraintOrigin origin;
};

struct LevelConstraints {
    PerDim<std::optional<FactorBound>> factors;
    std::optional<LoopOrderConstraint> order;
    PerDataSpace<std::optional<KeepRequirement>> keep;

    bool empty() const;
};

struct PhaseConstraints;

struct MappingConstraints {
    std::array<std::optional<SpatialAxisConstraint>, 2> spatial;  // by ArrayAxis x, y
    std::vector<LevelConstraints> levels;  // by level index; may be shorter than the levels
    std::vector<std::string> level_names;  // of the architecture read against
    // Per-phase overrides, at most one per phase, each without phases of its own.
    std::vector<PhaseConstraints> phases;

    // No entry at all, general or per phase.
    bool empty() const;
    // The constraints of level i (none when not given).
    const LevelConstraints& level(std::size_t i) const;
    const std::optional<SpatialAxisConstraint>& axis(ArrayAxis a) const {
        return spatial[static_cast<std::size_t>(a)];
    }
};

// The entries of one phase that override the general ones.
struct PhaseConstraints {
    Phase phase = Phase::fw;
    MappingConstraints overrides;
    ConstraintOrigin origin;  // the `phases.<phase>` key
};

// `overrides`' entries replace `base`'s of the same axis, (level, dimension)
// factor, level order, or (level, data space) keep; all others are kept.
// Both must have been read against the same architecture. Per phase the
// result resolves as the two sources' resolutions merged: for every phase p,
// constraints_for_phase(merge(b, o), p) ==
// merge(constraints_for_phase(b, p), constraints_for_phase(o, p)), so an
// override's general entry also beats the base's entry for one phase.
MappingConstraints merge_constraints(const MappingConstraints& base,
                                     const MappingConstraints& overrides);

// What holds for the problems of `phase`: the general entries, overridden by
// that phase's (the result has no per-phase entries).
MappingConstraints constraints_for_phase(const MappingConstraints& constraints, Phase phase);

// A factor bound applied to a dimension of `bound` in one layer: bounds above
// the dimension become the whole dimension (see the contract above).
inline std::int64_t effective_factor(std::int64_t factor, std::int64_t bound) {
    return factor < bound ? factor : bound;
}

// One line: "spatial x: K, y: N (N16); factor bounds 2; orders 1; keep/bypass 1",
// then per phase "; bw: spatial y: C", or "none".
std::string constraints_summary(const MappingConstraints& constraints);

// Whether the relative order in `order` (a permutation of the level's loops
// with factor > 1, outermost first) honours `constraint`.
bool order_satisfies(const LoopOrderConstraint& constraint, const std::vector<Dim>& order);

}  // namespace trainloop
