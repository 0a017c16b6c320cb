#include "components/component_pricing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <stdexcept>

namespace trainloop {
namespace {

PricedComponent from_point(const ComponentPoint& p, double width_scale) {
    PricedComponent out;
    auto energy = [&](Action a) { return p.energy.get(a).value_or(0.0) * width_scale; };
    out.read_pj = energy(Action::read);
    out.write_pj = energy(Action::write);
    out.update_pj = p.energy.get(Action::update) ? energy(Action::update) : out.write_pj;
    out.mac_pj = energy(Action::mac);
    out.hop_pj = energy(Action::hop);
    out.router_pj = energy(Action::router);
    out.leakage_mw = p.leakage_mw;
    out.area_um2 = p.area_um2;
    return out;
}

PricedComponent mix(const PricedComponent& a, const PricedComponent& b, double t) {
    auto lerp = [t](double x, double y) { return x + (y - x) * t; };
    PricedComponent out;
    out.read_pj = lerp(a.read_pj, b.read_pj);
    out.write_pj = lerp(a.write_pj, b.write_pj);
    out.update_pj = lerp(a.update_pj, b.update_pj);
    out.mac_pj = lerp(a.mac_pj, b.mac_pj);
    out.hop_pj = lerp(a.hop_pj, b.hop_pj);
    out.router_pj = lerp(a.router_pj, b.router_pj);
    out.leakage_mw = lerp(a.leakage_mw, b.leakage_mw);
    out.area_um2 = lerp(a.area_um2, b.area_um2);
    return out;
}

// Within one capacity: linear in width between the bracketing widths; beyond
// the widths given, per-bit energy of the nearest width.
PricedComponent at_width(const std::vector<const ComponentPoint*>& points, std::int64_t bits) {
    const ComponentPoint* below = nullptr;
    const ComponentPoint* above = nullptr;
    for (const ComponentPoint* p : points) {
        if (p->word_bits <= bits && (!below || p->word_bits > below->word_bits)) below = p;
        if (p->word_bits >= bits && (!above || p->word_bits < above->word_bits)) above = p;
    }
    if (below && above) {
        if (below == above || below->word_bits == above->word_bits) return from_point(*below, 1.0);
        const double t =
            double(bits - below->word_bits) / double(above->word_bits - below->word_bits);
        return mix(from_point(*below, 1.0), from_point(*above, 1.0), t);
    }
    const ComponentPoint* nearest = below ? below : above;
    PricedComponent out = from_point(*nearest, double(bits) / double(nearest->word_bits));
    out.area_um2 = nearest->area_um2;  // area does not scale with the access width
    out.leakage_mw = nearest->leakage_mw;
    return out;
}

}  // namespace

PricedComponent price_component(const Component& component,
                                std::optional<std::int64_t> capacity_bytes,
                                std::int64_t word_bits) {
    assert(!component.points.empty());
    if (!is_table_class(component.component_class) || !capacity_bytes) {
        const ComponentPoint& p = component.points.front();
        const double scale = component.component_class == ComponentClass::mac
                                 ? 1.0
                                 : double(word_bits) / double(p.word_bits);
        PricedComponent out = from_point(p, scale);
        out.area_um2 = p.area_um2;
        return out;
    }
    std::map<std::int64_t, std::vector<const ComponentPoint*>> by_capacity;
    for (const ComponentPoint& p : component.points) by_capacity[*p.capacity_bytes].push_back(&p);
    const std::int64_t capacity = *capacity_bytes;
    auto upper = by_capacity.lower_bound(capacity);
    if (upper != by_capacity.end() && upper->first == capacity) {
        return at_width(upper->second, word_bits);
    }
    if (upper == by_capacity.begin() || upper == by_capacity.end()) {
        if (component.outside_table == OutsideTable::refuse) {
            throw std::logic_error(
                fmt::format("component `{}` priced outside its table", component.name));
        }
        // The library's sqrt_capacity rule, from the nearest listed capacity.
        const auto& nearest = upper == by_capacity.end() ? *by_capacity.rbegin() : *upper;
        PricedComponent out = at_width(nearest.second, word_bits);
        const double ratio = double(capacity) / double(nearest.first);
        const double energy_scale = std::sqrt(ratio);
        out.read_pj *= energy_scale;
        out.write_pj *= energy_scale;
        out.update_pj *= energy_scale;
        out.area_um2 *= ratio;
        out.leakage_mw *= ratio;  // leakage, like area, grows with the cells
        out.extrapolated = true;
        return out;
    }
    const auto lower = std::prev(upper);
    const double t = (std::log2(double(capacity)) - std::log2(double(lower->first))) /
                     (std::log2(double(upper->first)) - std::log2(double(lower->first)));
    const PricedComponent a = at_width(lower->second, word_bits);
    const PricedComponent b = at_width(upper->second, word_bits);
    PricedComponent out = mix(a, b, t);
    // Area grows with the bits stored: linear in capacity, not in its log.
    const double t_area = double(capacity - lower->first) / double(upper->first - lower->first);
    out.area_um2 = a.area_um2 + (b.area_um2 - a.area_um2) * t_area;
    return out;
}

}  // namespace trainloop
