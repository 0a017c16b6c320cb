#include "eval/mapping_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace trainloop {

std::string_view violation_kind_name(ViolationKind kind) {
    constexpr std::array<std::string_view, kNumViolationKinds> names = {
        "level_count",      "factor_product", "fanout_x", "fanout_y",         "keep_forbidden",
        "outermost_bypass", "capacity",       "network",  "metadata_capacity"};
    return names[std::size_t(kind)];
}

std::optional<MappingViolation> check_mapping_structure(const ArchModel& arch,
                                                        const IterationSpace& space,
                                                        const Mapping& mapping) {
    if (mapping.num_levels != arch.num_levels) {
        return MappingViolation{
            ViolationKind::level_count,    -1, Dim::N, DataSpace::weights, mapping.num_levels,
            std::int64_t(arch.num_levels), {}};
    }
    DimBounds totals;
    totals.values.fill(1);
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        const LevelMapping& level = mapping.level(i);
        for (const LoopList* list : {&level.temporal, &level.spatial_x, &level.spatial_y}) {
            for (const Loop& l : *list) totals[l.dim] = saturating_mul(totals[l.dim], l.factor);
        }
    }
    for (Dim d : kAllDims) {
        const std::int64_t product = totals[d];
        // Imperfect factors pad a dimension by less than its bound
        // (nest/padding.hpp); more is taken for a mistake.
        const bool padded = product > space.bounds[d] && product < 2 * space.bounds[d];
        if (product != space.bounds[d] && !padded) {
            return MappingViolation{ViolationKind::factor_product,
                                    -1,
                                    d,
                                    DataSpace::weights,
                                    product,
                                    space.bounds[d],
                                    {}};
        }
    }
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const LevelMapping& level = mapping.level(i);
        if (level.spatial_x.product() > arch.fanout_x(i)) {
            return MappingViolation{
                ViolationKind::fanout_x,   int(i),           Dim::N, DataSpace::weights,
                level.spatial_x.product(), arch.fanout_x(i), {}};
        }
        if (level.spatial_y.product() > arch.fanout_y(i)) {
            return MappingViolation{
                ViolationKind::fanout_y,   int(i),           Dim::N, DataSpace::weights,
                level.spatial_y.product(), arch.fanout_y(i), {}};
        }
        for (DataSpace s : kAllDataSpaces) {
            if (level.keep.contains(s) && !arch.levels[i].may_hold.contains(s)) {
                return MappingViolation{ViolationKind::keep_forbidden, int(i), Dim::N, s, 0, 0, {}};
            }
            if (i == 0 && !level.keep.contains(s)) {
                return MappingViolation{ViolationKind::outermost_bypass, 0, Dim::N, s, 0, 0, {}};
            }
        }
    }
    return std::nullopt;
}

namespace {

// The first level whose kept tiles overflow it; `words(level, space)` is a
// kept tile's size in words (0 when the space is not kept there).
template <typename TileWords>
std::optional<MappingViolation> first_overflow(const ArchModel& arch, std::size_t num_levels,
                                               TileWords words,
                                               ViolationKind kind = ViolationKind::capacity) {
    for (std::size_t i = 0; i < num_levels; ++i) {
        const std::int64_t capacity = kind == ViolationKind::metadata_capacity
                                          ? arch.levels[i].metadata_capacity_words
                                          : arch.levels[i].capacity_words;
        if (capacity < 0) continue;
        MappingViolation v{kind, int(i), Dim::N, DataSpace::weights, 0, capacity, {}};
        double used = 0;
        for (DataSpace s : kAllDataSpaces) {
            const double tile = words(i, s);
            v.tiles[s] = std::int64_t(std::ceil(tile));
            used += tile;
        }
        v.actual = std::int64_t(std::ceil(used));
        if (v.actual > capacity) return v;
    }
    return std::nullopt;
}

}  // namespace

std::optional<MappingViolation> check_capacity(const ArchModel& arch, const ActionCounts& counts) {
    // A unified level holds data and metadata together; a partitioned one
    // (metadata_capacity_words >= 0) holds each in its own part.
    auto partitioned = [&](std::size_t level) {
        return arch.levels[level].metadata_capacity_words >= 0;
    };
    if (auto v = first_overflow(arch, counts.num_levels, [&](std::size_t level, DataSpace s) {
            const SpaceCounts& c = counts.levels[level].space(s);
            return partitioned(level) ? c.footprint_words - c.footprint_metadata_words
                                      : c.footprint_words;
        })) {
        return v;
    }
    return first_overflow(
        arch, counts.num_levels,
        [&](std::size_t level, DataSpace s) {
            return counts.levels[level].space(s).footprint_metadata_words;
        },
        ViolationKind::metadata_capacity);
}

namespace {

// "w 120 + x 40": each kept space's tile of a capacity violation.
std::string tile_parts(const MappingViolation& v, const PhaseProblem& problem) {
    std::string parts;
    for (DataSpace s : kAllDataSpaces) {
        if (v.tiles[s] == 0) continue;
        parts += fmt::format("{}{} {}", parts.empty() ? "" : " + ",
                             tensor_name(tensor_in_phase(problem.phase, s)), v.tiles[s]);
    }
    return parts;
}

// "level GLB sends x (inputs) as a multicast along y; its networks for it: ..."
std::string describe_network_mismatch(const MappingViolation& v, const Architecture& arch,
                                      const std::string& level, const std::string& tensor) {
    std::string networks;
    for (const OnChipNetwork& n : arch.networks) {
        if (n.parent != level || !n.data_spaces.contains(v.space)) continue;
        networks += fmt::format("{}{} ({} along {})", networks.empty() ? "" : ", ", n.name,
                                network_kind_name(n.kind), array_axis_name(n.axis));
    }
    return fmt::format(
        "the mapping's spatial loops make level {} send {} as a {} {}, but none of its networks "
        "for it does that and none is a unicast network: {}",
        level, tensor, delivery_kind_name(DeliveryKind(v.limit)), axes_text(AxisMask(v.actual)),
        networks);
}

// A saturated product (see LoopList::factor_of) is past the int64 range.
std::string product_text(std::int64_t product) {
    if (product == std::numeric_limits<std::int64_t>::max()) return "more than 2^63";
    return std::to_string(product);
}

}  // namespace

std::string describe(const MappingViolation& v, const Architecture& arch,
                     const PhaseProblem& problem) {
    const std::string level =
        v.level >= 0 && std::size_t(v.level) < arch.levels.size() ? arch.levels[v.level].name : "";
    const std::string tensor = fmt::format("{} ({})", data_space_name(v.space),
                                           tensor_name(tensor_in_phase(problem.phase, v.space)));
    switch (v.kind) {
        case ViolationKind::level_count:
            return fmt::format("the mapping has {} levels but architecture `{}` has {}", v.actual,
                               arch.name, v.limit);
        case ViolationKind::factor_product: {
            const std::string_view dim = problem.space.shape.dim_name(v.dim);
            const std::string mismatch =
                fmt::format("the factors of {} multiply to {}, but {} = {} in layer `{}`", dim,
                            product_text(v.actual), dim, v.limit, problem.layer);
            if (v.actual < v.limit) return mismatch;
            return mismatch + fmt::format(
                                  ": imperfect factors may pad {} to at most {}, less than "
                                  "twice its size",
                                  dim, 2 * v.limit - 1);
        }
        case ViolationKind::fanout_x:
        case ViolationKind::fanout_y:
            return fmt::format(
                "level {}: spatial {} factors use {} instances, but only {} lie below it along "
                "that axis ({}×{} PEs)",
                level, v.kind == ViolationKind::fanout_x ? "X (columns)" : "Y (rows)",
                product_text(v.actual), v.limit, arch.pe_array.columns, arch.pe_array.rows);
        case ViolationKind::keep_forbidden:
            return fmt::format("level {} cannot hold {}: the architecture lets it hold {}", level,
                               tensor, data_space_set_text(arch.levels[v.level].data_spaces));
        case ViolationKind::outermost_bypass:
            return fmt::format("the outermost level {} must keep {}: every tensor lives there",
                               level, tensor);
        case ViolationKind::capacity: {
            const StorageLevel& storage = arch.levels[v.level];
            return fmt::format(
                "the tiles do not fit level {}: {} = {} words, capacity {} words ({} bytes of "
                "{}-bit words{})",
                level, tile_parts(v, problem), v.actual, v.limit, *storage.capacity_bytes,
                storage.word_bits,
                storage.metadata_share
                    ? fmt::format(", less the metadata_share of {} kept for format metadata",
                                  *storage.metadata_share)
                    : std::string());
        }
        case ViolationKind::network:
            return describe_network_mismatch(v, arch, level, tensor);
        case ViolationKind::metadata_capacity: {
            const std::string parts = tile_parts(v, problem);
            return fmt::format(
                "the tiles' format metadata do not fit level {}'s index part: {} = {} words, "
                "its metadata_share of {} gives {} words",
                level, parts, v.actual, *arch.levels[v.level].metadata_share, v.limit);
        }
    }
    return "invalid mapping";
}

}  // namespace trainloop
