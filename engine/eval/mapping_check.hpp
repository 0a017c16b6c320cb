// Validity of a mapping for (architecture, problem). A violation is a small
// value (kind + where + numbers) so the mapper can histogram why mappings
// were rejected without building strings; describe() renders it for users.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "arch/arch_model.hpp"
#include "arch/architecture.hpp"
#include "nest/action_counts.hpp"
#include "nest/nest_analysis.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

enum class ViolationKind : std::uint8_t {
    level_count,       // the mapping has another number of levels than the architecture
    factor_product,    // a dimension's factors do not multiply to its bound (or pad it,
                       // nest/padding.hpp)
    fanout_x,          // spatial X factors exceed the array fanout below a level
    fanout_y,          // spatial Y factors exceed it
    keep_forbidden,    // a level keeps a data space the architecture does not let it hold
    outermost_bypass,  // the outermost level must keep every tensor: they live there
    capacity,          // the tiles a level keeps do not fit it (a partitioned one: its data part)
    network,  // the level has networks for a tensor, but none of the kind and axes it needs
    metadata_capacity,  // the tiles' format metadata do not fit a partitioned level's index part
};
inline constexpr std::size_t kNumViolationKinds = 9;

std::string_view violation_kind_name(ViolationKind kind);

struct MappingViolation {
    ViolationKind kind = ViolationKind::factor_product;
    int level = -1;
    Dim dim = Dim::N;
    DataSpace space = DataSpace::weights;
    std::int64_t actual = 0;  // the product, fanout or words used; network: the AxisMask needed
    std::int64_t limit = 0;   // the bound, fanout or capacity; network: the DeliveryKind
    PerDataSpace<std::int64_t> tiles{};  // capacity: each kept space's tile
};

// Everything that does not need the nest analysis.
std::optional<MappingViolation> check_mapping_structure(const ArchModel& arch,
                                                        const IterationSpace& space,
                                                        const Mapping& mapping);

// Whether each level's kept tiles fit its capacity, as the action counts'
// footprints give them: a dense tile its words, a compressed tile its
// expected compressed size, metadata included (rounded up).
std::optional<MappingViolation> check_capacity(const ArchModel& arch, const ActionCounts& counts);

// A sentence for users: names the level, the tensor(s), the sizes and the limit.
std::string describe(const MappingViolation& violation, const Architecture& arch,
                     const PhaseProblem& problem);

}  // namespace trainloop
