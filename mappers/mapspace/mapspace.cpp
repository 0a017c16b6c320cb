#include "mapspace/mapspace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

std::vector<std::int64_t> divisors(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t d = 1; d <= n; ++d) {
        if (n % d == 0) out.push_back(d);
    }
    return out;
}

std::vector<std::int64_t> prime_factors(std::int64_t n) {
    std::vector<std::int64_t> out;
    for (std::int64_t p = 2; p * p <= n; ++p) {
        while (n % p == 0) {
            out.push_back(p);
            n /= p;
        }
    }
    if (n > 1) out.push_back(n);
    return out;
}

void factorize(std::int64_t rest, std::size_t slots, std::vector<std::int64_t>& prefix,
               std::vector<std::vector<std::int64_t>>& out) {
    if (slots == 1) {
        prefix.push_back(rest);
        out.push_back(prefix);
        prefix.pop_back();
        return;
    }
    for (std::int64_t f : divisors(rest)) {
        prefix.push_back(f);
        factorize(rest / f, slots - 1, prefix, out);
        prefix.pop_back();
    }
}

// All (dims, factors) for one axis: each dimension a divisor of its bound,
// the product within `fanout`.
std::vector<LoopList> axis_choices(const std::vector<Dim>& dims, const DimBounds& bounds,
                                   std::int64_t fanout) {
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
        for (std::int64_t d : divisors(bounds[dims[k]])) {
            if (used * d > fanout) break;
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

}  // namespace

const std::vector<std::vector<std::int64_t>>& Mapspace::factorizations(std::int64_t bound) const {
    return factorizations_.at(bound);
}

Mapspace Mapspace::build(const ArchModel& arch, const IterationSpace& space,
                         const MapspaceConstraints& constraints) {
    Mapspace m;
    m.num_levels_ = arch.num_levels;
    m.bounds_ = space.bounds;
    // Spatial choices: the dataflow at every level that fans out over the array.
    std::vector<Dataflow> dataflows = constraints.dataflow
                                          ? std::vector<Dataflow>{*constraints.dataflow}
                                          : all_dataflows(space.bounds);
    std::set<std::vector<std::int64_t>> seen;  // canonical form, to drop duplicates
    for (const Dataflow& flow : dataflows) {
        std::vector<SpatialChoice> partial(1);
        for (std::size_t i = 0; i < arch.num_levels; ++i) {
            if (arch.fanout_x(i) == 1 && arch.fanout_y(i) == 1) continue;
            std::vector<SpatialChoice> next;
            for (const SpatialChoice& base : partial) {
                for (const LoopList& x : axis_choices(flow.x, space.bounds, arch.fanout_x(i))) {
                    for (const LoopList& y : axis_choices(flow.y, space.bounds, arch.fanout_y(i))) {
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
            for (Dim d : kAllDims) fits = fits && space.bounds[d] % c.total[d] == 0;
            if (fits && seen.insert(key).second) m.spatial_.push_back(c);
        }
    }
    // Keep choices per level.
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        const DataSpaceSet may = arch.levels[i].may_hold;
        if (i == 0 || !constraints.explore_bypass) {
            m.keeps_[i] = {i == 0 ? DataSpaceSet::all() : may};
            continue;
        }
        for (int bits = 7; bits >= 0; --bits) {
            DataSpaceSet keep{{(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0}};
            bool allowed = true;
            for (DataSpace s : kAllDataSpaces)
                allowed = allowed && (!keep.contains(s) || may.contains(s));
            if (allowed) m.keeps_[i].push_back(keep);
        }
    }
    // Factorizations of every bound a dimension can have left.
    for (const SpatialChoice& c : m.spatial_) {
        for (Dim d : kAllDims) {
            const std::int64_t bound = space.bounds[d] / c.total[d];
            if (m.factorizations_.count(bound)) continue;
            std::vector<std::int64_t> prefix;
            factorize(bound, m.num_levels_, prefix, m.factorizations_[bound]);
        }
    }
    return m;
}

MapspaceSize Mapspace::size() const {
    MapspaceSize s;
    s.spatial = double(spatial_.size());
    for (std::uint32_t c = 0; c < spatial_.size(); ++c) {
        double tilings = 1;
        for (Dim d : kAllDims) tilings *= double(factorizations(temporal_bound(c, d)).size());
        s.tilings += tilings;
    }
    // Orders: levels above the innermost, each with (dimensions with a bound > 1)! at most.
    int dims = 0;
    for (Dim d : kAllDims) dims += bounds_[d] > 1 ? 1 : 0;
    s.orders =
        std::pow(std::tgamma(double(dims) + 1), double(num_levels_ > 1 ? num_levels_ - 1 : 0));
    s.keeps = 1;
    for (std::size_t i = 0; i < num_levels_; ++i) s.keeps *= double(keeps_[i].size());
    return s;
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
        p.keep[i] = keeps_[i][rng() % keeps_[i].size()];
    }
    return p;
}

MapPoint Mapspace::neighbor(const MapPoint& from, std::mt19937_64& rng) const {
    MapPoint p = from;
    switch (rng() % 4) {
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
            break;
        }
        case 1: {  // swap two loops of a level above the innermost
            if (num_levels_ < 2) break;
            auto& order = p.order[rng() % (num_levels_ - 1)];
            std::swap(order[rng() % kNumDims], order[rng() % kNumDims]);
            break;
        }
        case 2: {  // another keep/bypass choice at one level
            const std::size_t level = rng() % num_levels_;
            p.keep[level] = keeps_[level][rng() % keeps_[level].size()];
            break;
        }
        default: {  // another spatial choice
            const std::uint32_t before = p.spatial;
            p.spatial = std::uint32_t(rng() % spatial_.size());
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

}  // namespace trainloop
