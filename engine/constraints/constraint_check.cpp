#include "constraints/constraint_check.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace trainloop {
namespace {

const LoopList& axis_loops(const LevelMapping& level, ArrayAxis axis) {
    return axis == ArrayAxis::x ? level.spatial_x : level.spatial_y;
}

std::string level_name(const MappingConstraints& c, std::size_t i) {
    return i < c.level_names.size() ? c.level_names[i] : fmt::format("level {}", i);
}

}  // namespace

std::optional<std::string> find_constraint_violation(const MappingConstraints& constraints,
                                                     const IterationSpace& space,
                                                     const Mapping& mapping) {
    for (ArrayAxis axis : {ArrayAxis::x, ArrayAxis::y}) {
        const auto& c = constraints.axis(axis);
        if (!c) continue;
        PerDim<std::int64_t> product;
        product.values.fill(1);
        for (std::size_t i = 0; i < mapping.num_levels; ++i) {
            for (const Loop& l : axis_loops(mapping.level(i), axis)) {
                if (std::find(c->dims.begin(), c->dims.end(), l.dim) == c->dims.end()) {
                    return fmt::format("{} is spread across {} at {}, which {} does not allow",
                                       dim_name(l.dim), array_axis_name(axis),
                                       level_name(constraints, i), origin_text(c->origin));
                }
                product[l.dim] *= l.factor;
            }
        }
        for (Dim d : kAllDims) {
            if (c->fixed[d] == 0) continue;
            const std::int64_t want = effective_factor(c->fixed[d], space.bounds[d]);
            if (product[d] != want) {
                return fmt::format("{} has spatial factor {} across {}, {} fixes {}", dim_name(d),
                                   product[d], array_axis_name(axis), origin_text(c->origin), want);
            }
        }
    }
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        const LevelConstraints& c = constraints.level(i);
        const LevelMapping& level = mapping.level(i);
        for (Dim d : kAllDims) {
            const auto& bound = c.factors[d];
            if (!bound) continue;
            const std::int64_t f = level.temporal.factor_of(d);
            const std::int64_t lo = effective_factor(bound->min, space.bounds[d]);
            const std::int64_t hi = effective_factor(bound->max, space.bounds[d]);
            if (f < lo || f > hi) {
                return fmt::format("{} has temporal factor {} at {}; {} allows {}..{}", dim_name(d),
                                   f, level_name(constraints, i), origin_text(bound->origin), lo,
                                   hi);
            }
        }
        if (c.order) {
            std::vector<Dim> order;
            for (const Loop& l : level.temporal) {
                if (l.factor > 1) order.push_back(l.dim);
            }
            if (!order_satisfies(*c.order, order)) {
                std::string text;
                for (Dim d : order) text += dim_name(d);
                return fmt::format("loop order {} at {} breaks {}", text.empty() ? "-" : text,
                                   level_name(constraints, i), origin_text(c.order->origin));
            }
        }
        for (DataSpace s : kAllDataSpaces) {
            const auto& k = c.keep[s];
            if (k && level.keep.contains(s) != k->keep) {
                return fmt::format("{} {} {}; {} requires it to {}", level_name(constraints, i),
                                   k->keep ? "bypasses" : "keeps", data_space_name(s),
                                   origin_text(k->origin), k->keep ? "keep it" : "bypass");
            }
        }
    }
    return std::nullopt;
}

}  // namespace trainloop
