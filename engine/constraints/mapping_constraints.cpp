#include "constraints/mapping_constraints.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace trainloop {

std::string origin_text(const ConstraintOrigin& origin) {
    const std::string where = format_location(origin.where);
    if (origin.key.empty()) return where;
    if (where.empty()) return fmt::format("`{}`", origin.key);
    return fmt::format("{} (`{}`)", where, origin.key);
}

bool LevelConstraints::empty() const {
    if (order) return false;
    for (const auto& k : keep) {
        if (k) return false;
    }
    for (const auto& f : factors.values) {
        if (f) return false;
    }
    return true;
}

bool MappingConstraints::empty() const {
    if (spatial[0] || spatial[1]) return false;
    return std::all_of(levels.begin(), levels.end(),
                       [](const LevelConstraints& l) { return l.empty(); });
}

const LevelConstraints& MappingConstraints::level(std::size_t i) const {
    static const LevelConstraints none;
    return i < levels.size() ? levels[i] : none;
}

MappingConstraints merge_constraints(const MappingConstraints& base,
                                     const MappingConstraints& overrides) {
    MappingConstraints out = base;
    if (out.level_names.empty()) out.level_names = overrides.level_names;
    for (std::size_t a = 0; a < out.spatial.size(); ++a) {
        if (overrides.spatial[a]) out.spatial[a] = overrides.spatial[a];
    }
    if (out.levels.size() < overrides.levels.size()) out.levels.resize(overrides.levels.size());
    for (std::size_t i = 0; i < overrides.levels.size(); ++i) {
        const LevelConstraints& from = overrides.levels[i];
        LevelConstraints& to = out.levels[i];
        for (Dim d : kAllDims) {
            if (from.factors[d]) to.factors[d] = from.factors[d];
        }
        if (from.order) to.order = from.order;
        for (DataSpace s : kAllDataSpaces) {
            if (from.keep[s]) to.keep[s] = from.keep[s];
        }
    }
    return out;
}

std::string constraints_summary(const MappingConstraints& c) {
    std::vector<std::string> parts;
    std::vector<std::string> axes;
    for (ArrayAxis axis : {ArrayAxis::x, ArrayAxis::y}) {
        const auto& a = c.axis(axis);
        if (!a) continue;
        std::string dims;
        std::string fixed;
        for (Dim d : a->dims) {
            dims += dim_name(d);
            if (a->fixed[d] > 0) fixed += fmt::format("{}{}", dim_name(d), a->fixed[d]);
        }
        axes.push_back(fmt::format("{}: {}{}", array_axis_name(axis), dims.empty() ? "-" : dims,
                                   fixed.empty() ? "" : " (" + fixed + ")"));
    }
    if (!axes.empty()) parts.push_back("spatial " + fmt::format("{}", fmt::join(axes, ", ")));
    std::size_t bounds = 0;
    std::size_t orders = 0;
    std::size_t keeps = 0;
    for (const LevelConstraints& level : c.levels) {
        for (const auto& f : level.factors.values) bounds += f ? 1 : 0;
        orders += level.order ? 1 : 0;
        for (const auto& k : level.keep) keeps += k ? 1 : 0;
    }
    if (bounds > 0) parts.push_back(fmt::format("factor bounds {}", bounds));
    if (orders > 0) parts.push_back(fmt::format("loop orders {}", orders));
    if (keeps > 0) parts.push_back(fmt::format("keep/bypass {}", keeps));
    if (parts.empty()) return "none";
    return fmt::format("{}", fmt::join(parts, "; "));
}

bool order_satisfies(const LoopOrderConstraint& constraint, const std::vector<Dim>& order) {
    std::size_t next = 0;  // the position in constraint.dims the next listed loop may take
    for (Dim d : order) {
        const auto it = std::find(constraint.dims.begin(), constraint.dims.end(), d);
        if (it == constraint.dims.end()) {
            if (constraint.full) return false;
            continue;
        }
        const auto at = static_cast<std::size_t>(it - constraint.dims.begin());
        if (at < next) return false;
        next = at + 1;
    }
    return true;
}

}  // namespace trainloop
