#include "mapspace/mapspace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "common/spec_error.hpp"
#include "mapspace/divisors.hpp"
#include "nest/padding.hpp"

namespace trainloop {
namespace {

// Every ordered factorization of `rest` into `slots` factors, each a member
// of `divs` (the divisors of the bound `rest` divides).
void factorize(std::int64_t rest, std::size_t slots, const std::vector<std::int64_t>& divs,
               std::vector<std::int64_t>& prefix, std::vector<std::vector<std::int64_t>>& out) {
    if (slots == 1) {
        prefix.push_back(rest);
        out.push_back(prefix);
        prefix.pop_back();
        return;
    }
    for (std::int64_t f : divs) {
        if (f > rest) break;
        if (rest % f != 0) continue;
        prefix.push_back(f);
        factorize(rest / f, slots - 1, divs, prefix, out);
        prefix.pop_back();
    }
}

// The mapspace holds every factorization of each dimension's bound in memory:
// a bound with more than this many ordered factorizations over the levels is
// refused (about 100 MB) rather than exhausting memory.
constexpr std::int64_t kMaxFactorizations = 1'000'000;

// The spatial factors of a dimension with bound `bound` where `room`
// instances are left on the axis: the divisors of the bound that fit and,
// with imperfect factors, the factor that takes the fewest steps through
// the bound, ⌈bound/⌈bound/room⌉⌉ (the least padding among those that do),
// when it does not divide the bound.
std::vector<std::int64_t> spatial_factors(std::int64_t bound, std::int64_t room, bool imperfect) {
    std::vector<std::int64_t> out;
    for (std::int64_t d : divisors(bound)) {
        if (d > room) break;
        out.push_back(d);
    }
    if (imperfect && room > 1) {
        const std::int64_t fewest_steps = ceil_div(bound, ceil_div(bound, std::min(room, bound)));
        if (bound % fewest_steps != 0) {
            out.insert(std::upper_bound(out.begin(), out.end(), fewest_steps), fewest_steps);
        }
    }
    return out;
}

// All (dims, factors) for one axis: each dimension a divisor of its bound
// (or, with imperfect factors, the fewest-steps factor; see spatial_factors),
// the product within `fanout`.
std::vector<LoopList> axis_choices(const std::vector<Dim>& dims, const DimBounds& bounds,
                                   std::int64_t fanout, bool imperfect) {
    std::vector<LoopList> out;
    std::vector<std::int64_t> f(dims.size(), 1);
    std::function<void(std::size_t, std::int64_t)> go = [&](std::size_t k, std::int64_t used) {
        if (k == dims.size()) {
            LoopList list;
            for (std::size_t i = 0; i < dims.size(); ++i) {
                if (f[i] > 1) list.push_back({dims[i], f[i]});
            }
            out.push_back(list);
            return;
        }
        for (std::int64_t d : spatial_factors(bounds[dims[k]], fanout / used, imperfect)) {
            f[k] = d;
            go(k + 1, used * d);
        }
    };
    go(0, 1);
    return out;
}

// The dataflows `any` explores: one or two dimensions across X, one across Y.
std::vector<Dataflow> all_dataflows(const DimBounds& bounds) {
    std::vector<Dim> dims;
    for (Dim d : kAllDims) {
        if (bounds[d] > 1) dims.push_back(d);
    }
    std::vector<Dataflow> out;
    for (Dim y : dims) {
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == y) continue;
            out.push_back({{dims[i]}, {y}});
            for (std::size_t j = i + 1; j < dims.size(); ++j) {
                if (dims[j] != y) out.push_back({{dims[i], dims[j]}, {y}});
            }
        }
    }
    if (dims.size() == 1) out.push_back({{dims[0]}, {}});
    return out;
}

bool listed(const std::vector<Dim>& dims, Dim d) {
    return std::find(dims.begin(), dims.end(), d) != dims.end();
}

// The dataflows to explore: the named one, else the user's spatial
// constraints (an unconstrained axis takes any one dimension — or two on x —
// of those left), else all of them.
std::vector<Dataflow> candidate_dataflows(const DimBounds& bounds,
                                          const MapspaceConstraints& constraints) {
    const auto& x = constraints.user.axis(ArrayAxis::x);
    const auto& y = constraints.user.axis(ArrayAxis::y);
    if (constraints.dataflow)
        return layer_dataflows(*constraints.dataflow, bounds, x.has_value(), y.has_value());
    if (!x && !y) return all_dataflows(bounds);
    if (x && y) return {{x->dims, y->dims}};
    const std::vector<Dim>& fixed = x ? x->dims : y->dims;
    std::vector<Dim> free;
    for (Dim d : kAllDims) {
        if (bounds[d] > 1 && !listed(fixed, d)) free.push_back(d);
    }
    std::vector<std::vector<Dim>> other;
    for (std::size_t i = 0; i < free.size(); ++i) {
        other.push_back({free[i]});
        if (!x) {  // the free axis is x: it may also split over two dimensions
            for (std::size_t j = i + 1; j < free.size(); ++j) other.push_back({free[i], free[j]});
        }
    }
    if (other.empty()) other.emplace_back();
    std::vector<Dataflow> out;
    for (const std::vector<Dim>& o : other)
        out.push_back(x ? Dataflow{x->dims, o} : Dataflow{o, y->dims});
    return out;
}

std::int64_t factorial(std::size_t n) {
    std::int64_t f = 1;
    for (std::size_t k = 2; k <= n; ++k) f *= std::int64_t(k);
    return f;
}

std::string bound_text(std::int64_t lo, std::int64_t hi) {
    if (lo == hi) return fmt::format("= {}", lo);
    if (hi == kNoFactorLimit) return fmt::format(">= {}", lo);
    return fmt::format("in {}..{}", lo, hi);
}

}  // namespace

void check_dataflow_against_constraints(const MapspaceConstraints& constraints) {
    if (!constraints.dataflow) return;
    // Each phase as it resolves, in the order fw, bw, wu: the first conflict
    // is the one reported, and a phase's own entry is named as such (a general
    // entry applies to every phase that does not override it).
    for (Phase phase : kAllPhases) {
        const MappingConstraints resolved = constraints_for_phase(constraints.user, phase);
        for (ArrayAxis axis : {ArrayAxis::x, ArrayAxis::y}) {
            const auto& c = resolved.axis(axis);
            if (!c) continue;
            const std::vector<Dim>& named =
                axis == ArrayAxis::x ? constraints.dataflow->x : constraints.dataflow->y;
            const bool same =
                named.size() == c->dims.size() &&
                std::all_of(named.begin(), named.end(), [&](Dim d) { return listed(c->dims, d); });
            if (same) continue;
            const auto& general = constraints.user.axis(axis);
            const bool own_entry = !general || general->origin.key != c->origin.key;
            std::string dims;
            for (Dim d : c->dims) dims += dim_name(d);
            throw SpecError(
                c->origin.where, c->origin.key,
                fmt::format("--dataflow {} conflicts with the spatial constraint across {}{}, "
                            "which allows {}",
                            to_string(*constraints.dataflow), array_axis_name(axis),
                            own_entry && !constraints.user.phases.empty()
                                ? fmt::format(" in {}", phase_name(phase))
                                : std::string(),
                            dims.empty() ? "no dimension" : dims),
                fmt::format("a --dataflow with {} across {}, or `--dataflow any`",
                            dims.empty() ? "nothing" : dims, array_axis_name(axis)),
                "the constraint already fixes the axis: leave out --dataflow");
        }
    }
}

const std::vector<std::vector<std::int64_t>>& Mapspace::factorizations(Dim d,
                                                                       std::int64_t bound) const {
    return factorizations_.at({d, bound});
}

void Mapspace::constrain_order(std::size_t level, std::array<Dim, kNumDims>& order) const {
    const auto& c = orders_[level];
    if (!c) return;
    std::size_t next = 0;
    for (Dim& slot : order) {
        if (listed(c->dims, slot)) slot = c->dims[next++];
    }
}

bool Mapspace::order_allowed(std::size_t level, const std::vector<Dim>& loops) const {
    return !orders_[level] || order_satisfies(*orders_[level], loops);
}

std::int64_t Mapspace::order_count(std::size_t level, const std::vector<Dim>& loops) const {
    const auto& c = orders_[level];
    if (!c) return factorial(loops.size());
    std::size_t constrained = 0;
    for (Dim d : loops) {
        if (listed(c->dims, d)) {
            ++constrained;
        } else if (c->full) {
            return 0;  // cannot happen: unlisted dimensions have factor 1 here
        }
    }
    // The constrained loops' relative order is fixed: one of their m! orders.
    return factorial(loops.size()) / factorial(constrained);
}

Mapspace Mapspace::build(const ArchModel& arch, const IterationSpace& space,
                         const MapspaceConstraints& constraints) {
    check_dataflow_against_constraints(constraints);
    Mapspace m;
    m.num_levels_ = arch.num_levels;
    m.paddable_ = constraints.paddable(space.shape);
    m.bounds_ = space.bounds;
    m.build_spatial_choices(arch, space, constraints);
    m.build_keep_choices(arch, constraints);
    m.build_factor_bounds(arch, space, constraints.user);
    m.build_factorizations(space, constraints.user);
    if (!m.spatial_.empty()) m.empty_reason_.reset();
    return m;
}

std::optional<IdleAxisHint> idle_axis_hint(const ArchModel& arch, const IterationSpace& space,
                                           const Mapping& mapping,
                                           std::optional<DimSet> padded_dims) {
    const DimSet paddable = padded_dims.value_or(one_term_dims(space.shape));
    for (std::size_t i = 0; i < mapping.num_levels; ++i) {
        for (const bool x : {true, false}) {
            const LoopList& axis = x ? mapping.level(i).spatial_x : mapping.level(i).spatial_y;
            const std::int64_t fanout = x ? arch.fanout_x(i) : arch.fanout_y(i);
            const std::int64_t used = axis.product();
            for (const Loop& l : axis) {
                const std::int64_t bound = space.bounds[l.dim];
                if (!paddable.contains(l.dim) || bound % l.factor != 0) continue;
                // The room the other loops on the axis leave; the most a
                // divisor can use of it, and what padding can.
                const std::int64_t room = fanout / (used / l.factor);
                const std::int64_t perfect = spatial_factors(bound, room, false).back();
                const std::int64_t padded = spatial_factors(bound, room, true).back();
                if (ceil_div(bound, padded) < bound / perfect) {
                    return IdleAxisHint{l.dim, x, used, padded, fanout};
                }
            }
        }
    }
    return std::nullopt;
}

void Mapspace::build_spatial_choices(const ArchModel& arch, const IterationSpace& space,
                                     const MapspaceConstraints& constraints) {
    // Spatial choices: the dataflow at every level that fans out over the array.
    const MappingConstraints& user = constraints.user;
    const std::vector<Dataflow> dataflows = candidate_dataflows(space.bounds, constraints);
    std::set<std::vector<std::int64_t>> seen;  // canonical form, to drop duplicates
    std::optional<EmptyMapspaceReason> spatial_reason;
    for (const Dataflow& flow : dataflows) {
        std::vector<SpatialChoice> partial(1);
        for (std::size_t i = 0; i < arch.num_levels; ++i) {
            if (arch.fanout_x(i) == 1 && arch.fanout_y(i) == 1) continue;
            std::vector<SpatialChoice> next;
            for (const SpatialChoice& base : partial) {
                const bool imperfect = constraints.imperfect_factors;
                for (const LoopList& x :
                     axis_choices(flow.x, space.bounds, arch.fanout_x(i), imperfect)) {
                    for (const LoopList& y :
                         axis_choices(flow.y, space.bounds, arch.fanout_y(i), imperfect)) {
                        SpatialChoice c = base;
                        c.x[i] = x;
                        c.y[i] = y;
                        next.push_back(c);
                    }
                }
            }
            partial = std::move(next);
        }
        for (SpatialChoice& c : partial) {
            c.total.values.fill(1);
            bool fits = true;
            std::vector<std::int64_t> key;
            for (std::size_t i = 0; i < arch.num_levels; ++i) {
                for (const LoopList* list : {&c.x[i], &c.y[i]}) {
                    for (const Loop& l : *list) {
                        c.total[l.dim] *= l.factor;
                        key.insert(key.end(), {std::int64_t(i), list == &c.x[i] ? 0 : 1,
                                               std::int64_t(l.dim), l.factor});
                    }
                }
            }
            // Imperfect factors pad a paddable dimension by less than the
            // spatial product, which is at most the bound (nest/padding.hpp).
            for (Dim d : kAllDims) {
                const bool divides = space.bounds[d] % c.total[d] == 0;
                const bool pads = c.total[d] <= space.bounds[d] && paddable_.contains(d);
                fits = fits && (divides || pads);
            }
            // Fixed spatial factors: the product over the levels on the axis.
            for (ArrayAxis axis : {ArrayAxis::x, ArrayAxis::y}) {
                const auto& a = user.axis(axis);
                if (!a || !fits) continue;
                for (Dim d : kAllDims) {
                    if (a->fixed[d] == 0) continue;
                    std::int64_t product = 1;
                    for (std::size_t i = 0; i < arch.num_levels; ++i) {
                        product *= (axis == ArrayAxis::x ? c.x[i] : c.y[i]).factor_of(d);
                    }
                    const std::int64_t want = effective_factor(a->fixed[d], space.bounds[d]);
                    if (product == want) continue;
                    fits = false;
                    if (!spatial_reason) {
                        spatial_reason = EmptyMapspaceReason{
                            fmt::format(
                                "the spatial factor {}{} across {} ({}) is not possible here: "
                                "{} = {} in this problem, and the factor must divide it and fit "
                                "the array ({} {})",
                                dim_name(d), want, array_axis_name(axis), origin_text(a->origin),
                                dim_name(d), space.bounds[d],
                                axis == ArrayAxis::x ? arch.pe_columns * arch.macs_per_pe
                                                     : arch.pe_rows,
                                axis == ArrayAxis::x ? "columns × MACs per PE" : "rows"),
                            a->origin};
                    }
                    break;
                }
            }
            if (fits && seen.insert(key).second) spatial_.push_back(c);
        }
    }
    if (spatial_.empty() && spatial_reason) empty_reason_ = spatial_reason;
}

void Mapspace::build_keep_choices(const ArchModel& arch, const MapspaceConstraints& constraints) {
    // Keep choices per level: what the level may hold, less what the
    // constraints require to bypass, with what they require kept.
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const DataSpaceSet may = arch.levels[i].may_hold;
        const auto& required = constraints.user.level(i).keep;
        auto honours = [&](const DataSpaceSet& keep) {
            for (DataSpace s : kAllDataSpaces) {
                const auto& r = required[s];
                if (r && keep.contains(s) != r->keep) return false;
            }
            return true;
        };
        if (i == 0 || !constraints.explore_bypass) {
            DataSpaceSet keep = i == 0 ? DataSpaceSet::all() : may;
            for (DataSpace s : kAllDataSpaces) {
                const auto& r = required[s];
                if (r && !r->keep) keep.erase(s);
            }
            keeps_[i] = {keep};
            continue;
        }
        for (int bits = 7; bits >= 0; --bits) {
            DataSpaceSet keep{{(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0}};
            bool allowed = true;
            for (DataSpace s : kAllDataSpaces)
                allowed = allowed && (!keep.contains(s) || may.contains(s));
            if (allowed && honours(keep)) keeps_[i].push_back(keep);
        }
    }
}

void Mapspace::build_factor_bounds(const ArchModel& arch, const IterationSpace& space,
                                   const MappingConstraints& user) {
    // Factor bounds and loop orders per level; a full order leaves the
    // dimensions it does not list factor 1 at its level.
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const LevelConstraints& level = user.level(i);
        orders_[i] = level.order;
        for (Dim d : kAllDims) {
            factor_min_[i][d] = 1;
            factor_max_[i][d] = space.bounds[d];
            if (const auto& b = level.factors[d]) {
                factor_min_[i][d] = effective_factor(b->min, space.bounds[d]);
                factor_max_[i][d] = effective_factor(b->max, space.bounds[d]);
            }
            if (level.order && level.order->full && !listed(level.order->dims, d)) {
                factor_max_[i][d] = 1;
            }
            if (factor_min_[i][d] > 1 || factor_max_[i][d] < space.bounds[d]) {
                bounded_[d] = true;
            }
        }
    }
}

void Mapspace::build_factorizations(const IterationSpace& space, const MappingConstraints& user) {
    // Factorizations of every bound a dimension can have left, within the
    // factor bounds; a spatial choice that leaves some dimension none is dropped.
    std::vector<SpatialChoice> kept;
    for (const SpatialChoice& c : spatial_) {
        bool possible = true;
        for (Dim d : kAllDims) {
            const std::int64_t bound =
                ceil_div(space.bounds[d], c.total[d]);  // padded when imperfect
            auto [it, added] = factorizations_.try_emplace(std::pair{d, bound});
            if (added) {
                const std::int64_t count =
                    ordered_factorization_count(bound, num_levels_, kMaxFactorizations + 1);
                if (count > kMaxFactorizations) {
                    throw SpecError(
                        {}, "",
                        fmt::format("{} = {} has more than {} ordered factorizations over {} "
                                    "levels: too many to enumerate",
                                    dim_name(d), bound, kMaxFactorizations, num_levels_),
                        "dimensions whose factorizations over the levels number at most 10^6",
                        "a smaller dimension (e.g. --batch), or a dimension with fewer prime "
                        "factors");
                }
                std::vector<std::int64_t> prefix;
                std::vector<std::vector<std::int64_t>> all;
                all.reserve(std::size_t(count));
                factorize(bound, num_levels_, divisors(bound), prefix, all);
                for (std::vector<std::int64_t>& f : all) {
                    bool ok = true;
                    for (std::size_t i = 0; i < num_levels_; ++i) {
                        ok = ok && factor_allowed(i, d, f[i]);
                    }
                    if (ok) it->second.push_back(std::move(f));
                }
            }
            if (it->second.empty()) {
                possible = false;
                if (!empty_reason_) empty_reason_ = factor_bounds_reason(user, d, bound);
            }
        }
        if (possible) kept.push_back(c);
    }
    spatial_ = std::move(kept);
}

MapspaceSize Mapspace::size() const {
    MapspaceSize s;
    s.spatial = double(spatial_.size());
    for (std::uint32_t c = 0; c < spatial_.size(); ++c) {
        double tilings = 1;
        for (Dim d : kAllDims) tilings *= double(factorizations(d, temporal_bound(c, d)).size());
        s.tilings += tilings;
    }
    // Orders: levels above the innermost, each with the orders its constraint
    // allows of the dimensions that may have a factor > 1 there, at most.
    s.orders = 1;
    for (std::size_t i = 0; i + 1 < num_levels_; ++i) {
        std::vector<Dim> loops;
        for (Dim d : kAllDims) {
            if (bounds_[d] > 1 && factor_max_[i][d] > 1) loops.push_back(d);
        }
        s.orders *= double(order_count(i, loops));
    }
    s.keeps = 1;
    for (std::size_t i = 0; i < num_levels_; ++i) s.keeps *= double(keeps_[i].size());
    return s;
}

EmptyMapspaceReason Mapspace::factor_bounds_reason(const MappingConstraints& user, Dim d,
                                                   std::int64_t bound) const {
    std::vector<std::string> limits;
    std::optional<ConstraintOrigin> first;
    for (std::size_t i = 0; i < num_levels_; ++i) {
        const LevelConstraints& level = user.level(i);
        const std::string name =
            i < user.level_names.size() ? user.level_names[i] : fmt::format("level {}", i);
        if (const auto& b = level.factors[d]) {
            if (!first) first = b->origin;
            limits.push_back(fmt::format("{} {} at {}, set at {}", dim_name(d),
                                         bound_text(factor_min_[i][d], factor_max_[i][d]), name,
                                         origin_text(b->origin)));
        } else if (factor_max_[i][d] == 1 && level.order) {
            if (!first) first = level.order->origin;
            limits.push_back(fmt::format("{} = 1 at {}: the full order at {} leaves it out",
                                         dim_name(d), name, origin_text(level.order->origin)));
        }
    }
    return {fmt::format("the factor bounds leave {} no split over the levels: {} = {} in this "
                        "problem ({} left for the temporal loops), and the bounds are {}",
                        dim_name(d), dim_name(d), bounds_[d], bound, fmt::join(limits, "; ")),
            first.value_or(ConstraintOrigin{})};
}

Mapping Mapspace::to_mapping(const MapPoint& p) const {
    Mapping m;
    m.num_levels = std::uint8_t(num_levels_);
    const SpatialChoice& s = spatial_[p.spatial];
    for (std::size_t i = 0; i < num_levels_; ++i) {
        LevelMapping& level = m.level(i);
        for (Dim d : p.order[i]) {
            if (p.factors[i][d] > 1) level.temporal.push_back({d, p.factors[i][d]});
        }
        level.spatial_x = s.x[i];
        level.spatial_y = s.y[i];
        level.keep = p.keep[i];
    }
    return m;
}

void Mapspace::random_factors(MapPoint& p, Dim d, std::mt19937_64& rng) const {
    if (bounded_[d]) {  // one of the factorizations the bounds allow
        const auto& choices = factorizations(d, temporal_bound(p.spatial, d));
        const std::vector<std::int64_t>& f = choices[rng() % choices.size()];
        for (std::size_t i = 0; i < num_levels_; ++i) p.factors[i][d] = f[i];
        return;
    }
    for (std::size_t i = 0; i < num_levels_; ++i) p.factors[i][d] = 1;
    for (std::int64_t prime : prime_factors(temporal_bound(p.spatial, d))) {
        p.factors[rng() % num_levels_][d] *= prime;
    }
}

MapPoint Mapspace::random_point(std::mt19937_64& rng) const {
    MapPoint p;
    p.spatial = std::uint32_t(rng() % spatial_.size());
    for (Dim d : kAllDims) random_factors(p, d, rng);
    for (std::size_t i = 0; i < num_levels_; ++i) {
        p.order[i] = kAllDims;
        std::shuffle(p.order[i].begin(), p.order[i].end(), rng);
        constrain_order(i, p.order[i]);
        p.keep[i] = keeps_[i][rng() % keeps_[i].size()];
    }
    return p;
}

MapPoint Mapspace::neighbor(const MapPoint& from, std::mt19937_64& rng, SpatialMove how) const {
    MapPoint p = from;
    // The remainder-tile move exists only with imperfect factors, so without
    // them the moves (and every result) are what they were.
    switch (rng() % (paddable_.empty() ? 5 : 6)) {
        case 0: {  // move one prime factor of a dimension to another level
            const Dim d = kAllDims[rng() % kNumDims];
            std::vector<std::size_t> holders;
            for (std::size_t i = 0; i < num_levels_; ++i) {
                if (p.factors[i][d] > 1) holders.push_back(i);
            }
            if (holders.empty() || num_levels_ < 2) break;
            const std::size_t from_level = holders[rng() % holders.size()];
            const std::vector<std::int64_t> primes = prime_factors(p.factors[from_level][d]);
            const std::int64_t prime = primes[rng() % primes.size()];
            std::size_t to_level = rng() % (num_levels_ - 1);
            if (to_level >= from_level) ++to_level;
            p.factors[from_level][d] /= prime;
            p.factors[to_level][d] *= prime;
            if (!factor_allowed(from_level, d, p.factors[from_level][d]) ||
                !factor_allowed(to_level, d, p.factors[to_level][d])) {
                random_factors(p, d, rng);  // the move left the bounds: another split
            }
            break;
        }
        case 1: {  // swap two loops of a level above the innermost
            if (num_levels_ < 2) break;
            const std::size_t level = rng() % (num_levels_ - 1);
            auto& order = p.order[level];
            std::swap(order[rng() % kNumDims], order[rng() % kNumDims]);
            constrain_order(level, order);
            break;
        }
        case 2: {  // another keep/bypass choice at one level
            const std::size_t level = rng() % num_levels_;
            p.keep[level] = keeps_[level][rng() % keeps_[level].size()];
            break;
        }
        case 3: {  // exchange prime factors of two dimensions between two levels
            if (auto q = exchange_factors(from, rng)) return *q;
            break;
        }
        case 5: {  // a tile that leaves a remainder at the outermost level
            if (auto q = remainder_tile(from, rng)) return *q;
            break;
        }
        default: {  // another spatial choice
            const std::uint32_t before = p.spatial;
            p.spatial = std::uint32_t(rng() % spatial_.size());
            if (how == SpatialMove::rescale) {
                if (auto q = with_spatial_choice(from, p.spatial)) return *q;
            }
            for (Dim d : kAllDims) {
                if (temporal_bound(p.spatial, d) != temporal_bound(before, d)) {
                    random_factors(p, d, rng);
                }
            }
            break;
        }
    }
    return p;
}

std::optional<MapPoint> Mapspace::exchange_factors(const MapPoint& from,
                                                   std::mt19937_64& rng) const {
    // Every (level, dimension) holding a factor > 1; the first pick at
    // random, the second among those of another level and dimension.
    std::vector<std::pair<std::size_t, Dim>> held;
    for (std::size_t i = 0; i < num_levels_; ++i) {
        for (Dim d : kAllDims) {
            if (from.factors[i][d] > 1) held.emplace_back(i, d);
        }
    }
    if (held.empty()) return std::nullopt;
    const auto [up, d] = held[rng() % held.size()];
    std::vector<std::pair<std::size_t, Dim>> partners;
    for (const auto& [level, e] : held) {
        if (level != up && e != d) partners.emplace_back(level, e);
    }
    if (partners.empty()) return std::nullopt;
    const auto [down, e] = partners[rng() % partners.size()];
    const std::vector<std::int64_t> d_primes = prime_factors(from.factors[up][d]);
    const std::vector<std::int64_t> e_primes = prime_factors(from.factors[down][e]);
    const std::int64_t pd = d_primes[rng() % d_primes.size()];
    const std::int64_t pe = e_primes[rng() % e_primes.size()];
    MapPoint p = from;
    p.factors[up][d] /= pd;
    p.factors[down][d] *= pd;
    p.factors[down][e] /= pe;
    p.factors[up][e] *= pe;
    for (std::size_t level : {up, down}) {
        for (Dim x : {d, e}) {
            if (!factor_allowed(level, x, p.factors[level][x])) return std::nullopt;
        }
    }
    return p;
}

std::optional<MapPoint> Mapspace::remainder_tile(const MapPoint& from, std::mt19937_64& rng) const {
    if (paddable_.empty() || num_levels_ < 2) return std::nullopt;
    // A temporal bound of 2 or less has no tile that leaves a remainder.
    std::vector<Dim> dims;
    for (Dim d : kAllDims) {
        if (paddable_.contains(d) && temporal_bound(from.spatial, d) > 2) dims.push_back(d);
    }
    if (dims.empty()) return std::nullopt;
    const Dim d = dims[rng() % dims.size()];
    const std::int64_t bound = temporal_bound(from.spatial, d);
    const std::size_t level = 1 + rng() % (num_levels_ - 1);
    MapPoint p = from;
    p.factors[level][d] = 1 + std::int64_t(rng() % std::uint64_t(bound));
    std::int64_t inner = 1;
    for (std::size_t i = 1; i < num_levels_; ++i) {
        inner = saturating_mul(inner, p.factors[i][d]);
        if (inner > bound) return std::nullopt;
    }
    p.factors[0][d] = ceil_div(bound, inner);
    const std::int64_t extent =
        saturating_mul(spatial_[from.spatial].total[d], saturating_mul(p.factors[0][d], inner));
    if (extent >= 2 * bounds_[d] || !factor_allowed(0, d, p.factors[0][d]) ||
        !factor_allowed(level, d, p.factors[level][d])) {
        return std::nullopt;
    }
    return p;
}

std::vector<MapPoint> Mapspace::single_moves(const MapPoint& from) const {
    std::vector<MapPoint> moves;
    for (Dim d : kAllDims) {
        for (std::size_t source = 0; source < num_levels_; ++source) {
            if (from.factors[source][d] <= 1) continue;
            std::vector<std::int64_t> primes = prime_factors(from.factors[source][d]);
            primes.erase(std::unique(primes.begin(), primes.end()), primes.end());
            for (std::int64_t prime : primes) {
                for (std::size_t target = 0; target < num_levels_; ++target) {
                    if (target == source) continue;
                    MapPoint p = from;
                    p.factors[source][d] /= prime;
                    p.factors[target][d] *= prime;
                    if (factor_allowed(source, d, p.factors[source][d]) &&
                        factor_allowed(target, d, p.factors[target][d])) {
                        moves.push_back(p);
                    }
                }
            }
        }
    }
    for (std::size_t level = 0; level + 1 < num_levels_; ++level) {
        // Only the order of the loops with factor > 1 makes a different nest.
        const auto nest = [&](const std::array<Dim, kNumDims>& order) {
            std::vector<Dim> loops;
            for (Dim d : order) {
                if (from.factors[level][d] > 1) loops.push_back(d);
            }
            return loops;
        };
        std::vector<std::vector<Dim>> seen = {nest(from.order[level])};
        for (std::size_t i = 0; i < kNumDims; ++i) {
            for (std::size_t j = i + 1; j < kNumDims; ++j) {
                MapPoint p = from;
                std::swap(p.order[level][i], p.order[level][j]);
                constrain_order(level, p.order[level]);
                std::vector<Dim> loops = nest(p.order[level]);
                if (std::find(seen.begin(), seen.end(), loops) != seen.end()) continue;
                seen.push_back(std::move(loops));
                moves.push_back(p);
            }
        }
    }
    for (std::size_t level = 0; level < num_levels_; ++level) {
        for (const DataSpaceSet& keep : keeps_[level]) {
            if (keep == from.keep[level]) continue;
            MapPoint p = from;
            p.keep[level] = keep;
            moves.push_back(p);
        }
    }
    const SpatialChoice& here = spatial_[from.spatial];
    for (std::uint32_t s = 0; s < spatial_.size(); ++s) {
        if (s == from.spatial) continue;
        const SpatialChoice& there = spatial_[s];
        if (here.x != there.x && here.y != there.y) continue;
        const auto outer = with_spatial_choice(from, s);
        if (outer) moves.push_back(*outer);
        const auto inner = with_spatial_choice(from, s, Absorb::innermost);
        if (inner && (!outer || !(inner->factors == outer->factors))) moves.push_back(*inner);
    }
    return moves;
}

std::optional<MapPoint> Mapspace::with_spatial_choice(const MapPoint& from, std::uint32_t spatial,
                                                      Absorb where) const {
    MapPoint p = from;
    p.spatial = spatial;
    for (Dim d : kAllDims) {
        const std::int64_t before = temporal_bound(from.spatial, d);
        const std::int64_t after = temporal_bound(spatial, d);
        if (before == after) continue;
        // The outermost (innermost) level whose factor can absorb the change takes it.
        bool absorbed = false;
        for (std::size_t k = 0; k < num_levels_ && !absorbed; ++k) {
            const std::size_t level = where == Absorb::outermost ? k : num_levels_ - 1 - k;
            const std::int64_t scaled = from.factors[level][d] * after;
            if (scaled % before != 0 || !factor_allowed(level, d, scaled / before)) continue;
            p.factors[level][d] = scaled / before;
            absorbed = true;
        }
        if (!absorbed) return std::nullopt;
    }
    return p;
}

}  // namespace trainloop
