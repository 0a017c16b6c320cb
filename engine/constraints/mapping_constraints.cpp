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
    if (spatial[0] || spatial[1] || !phases.empty()) return false;
    return std::all_of(levels.begin(), levels.end(),
                       [](const LevelConstraints& l) { return l.empty(); });
}

const LevelConstraints& MappingConstraints::level(std::size_t i) const {
    static const LevelConstraints none;
    return i < levels.size() ? levels[i] : none;
}

namespace {

// `base` with every general entry of `overrides` applied (phases untouched).
MappingConstraints merge_general(const MappingConstraints& base,
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

// `constraints` without the entries that `overrides` sets in general.
MappingConstraints without_overridden(MappingConstraints constraints,
                                      const MappingConstraints& overrides) {
    for (std::size_t a = 0; a < constraints.spatial.size(); ++a) {
        if (overrides.spatial[a]) constraints.spatial[a].reset();
    }
    const std::size_t shared = std::min(constraints.levels.size(), overrides.levels.size());
    for (std::size_t i = 0; i < shared; ++i) {
        const LevelConstraints& from = overrides.levels[i];
        LevelConstraints& to = constraints.levels[i];
        for (Dim d : kAllDims) {
            if (from.factors[d]) to.factors[d].reset();
        }
        if (from.order) to.order.reset();
        for (DataSpace s : kAllDataSpaces) {
            if (from.keep[s]) to.keep[s].reset();
        }
    }
    return constraints;
}

const PhaseConstraints* find_phase(const MappingConstraints& c, Phase phase) {
    for (const PhaseConstraints& p : c.phases) {
        if (p.phase == phase) return &p;
    }
    return nullptr;
}

}  // namespace

MappingConstraints merge_constraints(const MappingConstraints& base,
                                     const MappingConstraints& overrides) {
    MappingConstraints out = merge_general(base, overrides);
    out.phases.clear();
    for (Phase phase : kAllPhases) {
        const PhaseConstraints* from_base = find_phase(base, phase);
        const PhaseConstraints* from_overrides = find_phase(overrides, phase);
        if (from_base == nullptr && from_overrides == nullptr) continue;
        PhaseConstraints merged{phase, {}, {}};
        merged.overrides.level_names = out.level_names;
        if (from_base != nullptr) {
            merged.overrides = without_overridden(from_base->overrides, overrides);
            merged.origin = from_base->origin;
        }
        if (from_overrides != nullptr) {
            merged.overrides = merge_general(merged.overrides, from_overrides->overrides);
            merged.origin = from_overrides->origin;
        }
        if (!merged.overrides.empty()) out.phases.push_back(std::move(merged));
    }
    return out;
}

MappingConstraints constraints_for_phase(const MappingConstraints& constraints, Phase phase) {
    MappingConstraints general = constraints;
    general.phases.clear();
    const PhaseConstraints* own = find_phase(constraints, phase);
    return own == nullptr ? general : merge_general(general, own->overrides);
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
    for (const PhaseConstraints& phase : c.phases) {
        parts.push_back(
            fmt::format("{}: {}", phase_name(phase.phase), constraints_summary(phase.overrides)));
    }
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
