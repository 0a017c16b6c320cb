#include "bounds/mac_serving_bound.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "nest/padding.hpp"

namespace trainloop {
namespace {

// One way to serve a data space: from a level, at `a` pJ per MAC-serving
// access times the MACs, with multicast up to `cap` (at least 1), plus
// `fixed` pJ.
struct Keeper {
    double a = 0;
    double fixed = 0;
    double cap = 1;
};

// The most multicast (spatial reduction) array axis `axis` can give data space
// `s`: the spread of the dimensions that do not index s (inputs: and a
// sliding window's overlap, at most min(f_P, f_R) and min(f_Q, f_S), counted
// on every axis that may hold one of the pair), at most the axis's instances
// over all levels; with `constraints`, only over the dimensions they let
// across the axis.
double axis_multicast_cap(const ArchModel& arch, const PhaseProblem& problem, ArrayAxis axis,
                          DataSpace s, const MappingConstraints* constraints,
                          const std::function<double(Dim)>& extent) {
    double fanout = 1;
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        fanout *= double(axis == ArrayAxis::x ? arch.fanout_x(i) : arch.fanout_y(i));
    }
    const auto& fixed = constraints ? constraints->axis(axis) : std::nullopt;
    const auto allowed = [&](Dim d) {
        return !fixed || std::find(fixed->dims.begin(), fixed->dims.end(), d) != fixed->dims.end();
    };
    double spread = 1;
    for (Dim d : kAllDims) {
        if (allowed(d) && problem.projection(s).axis_of[d] < 0) spread *= extent(d);
    }
    const Projection& projection = problem.projection(s);
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        const TensorAxis& axis = projection.axes[a];
        if (axis.num_terms < 2) continue;
        const Dim p = axis.terms[0].dim;
        const Dim r = axis.terms[1].dim;
        if (allowed(p) || allowed(r)) spread *= std::min(extent(p), extent(r));
    }
    return std::min(fanout, spread);
}

}  // namespace

double least_serving_sum(const std::array<double, 3>& a, const std::array<double, 3>& cap,
                         double product) {
    // Each m_s at 1, at its cap, or free (then every free one has a_s / m_s = λ
    // with the product constraint met exactly): 27 candidates, each checked
    // to be feasible; the convex problem's optimum is one of them.
    double best = std::numeric_limits<double>::infinity();
    constexpr double kSlack = 1e-12;
    for (int state = 0; state < 27; ++state) {
        std::array<int, 3> kind{state % 3, state / 3 % 3, state / 9};  // 0: 1, 1: cap, 2: free
        std::array<double, 3> m{};
        double fixed_product = 1;
        double free_a_product = 1;
        int free_count = 0;
        for (std::size_t s = 0; s < 3; ++s) {
            if (kind[s] == 2) {
                free_a_product *= a[s];
                ++free_count;
            } else {
                m[s] = kind[s] == 0 ? 1.0 : cap[s];
                fixed_product *= m[s];
            }
        }
        bool feasible = true;
        if (free_count > 0) {
            const double budget = product / fixed_product;
            const double lambda = std::pow(free_a_product / budget, 1.0 / free_count);
            for (std::size_t s = 0; s < 3; ++s) {
                if (kind[s] != 2) continue;
                m[s] = lambda > 0 ? a[s] / lambda : 0;
                feasible = feasible && m[s] >= 1 - kSlack && m[s] <= cap[s] * (1 + kSlack);
            }
        } else {
            feasible = fixed_product <= product * (1 + kSlack);
        }
        if (!feasible) continue;
        double sum = 0;
        for (std::size_t s = 0; s < 3; ++s) sum += a[s] / m[s];
        best = std::min(best, sum);
    }
    return best;
}

double mac_serving_lower_bound_pj(const ArchModel& arch, const PhaseProblem& problem,
                                  const PerDataSpace<double>& distinct,
                                  const MappingConstraints* constraints,
                                  std::optional<DimSet> padded_dims) {
    const DimBounds& b = problem.space.bounds;
    const DimSet paddable = padded_dims.value_or(one_term_dims(problem.space.shape));
    const std::function<double(Dim)> extent = [&](Dim d) {
        return double(paddable.contains(d) ? 2 * b[d] - 1 : b[d]);
    };
    const double macs = double(problem.macs());
    const double units = double(arch.num_macs());
    // A data space's word serves at most the MACs of the dimensions that do
    // not index it, times, along a sliding window's axis, the overlap of its
    // two dimensions (conv: weights N·P·Q, outputs C·R·S, inputs
    // K·min(R,P)·min(S,Q)).
    PerDataSpace<double> cap{};
    double window = 1;  // Π of every window axis's overlap
    for (DataSpace s : kAllDataSpaces) {
        const Projection& projection = problem.projection(s);
        double serving = 1;
        for (Dim d : kAllDims) {
            if (projection.axis_of[d] < 0) serving *= extent(d);
        }
        for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
            const TensorAxis& axis = projection.axes[a];
            if (axis.num_terms == 2) {
                const double overlap =
                    std::min(extent(axis.terms[1].dim), extent(axis.terms[0].dim));
                serving *= overlap;
                window *= overlap;
            }
        }
        cap[s] = serving;
    }
    for (DataSpace s : kAllDataSpaces) {
        cap[s] = std::min(
            cap[s], axis_multicast_cap(arch, problem, ArrayAxis::x, s, constraints, extent) *
                        axis_multicast_cap(arch, problem, ArrayAxis::y, s, constraints, extent));
    }

    PerDataSpace<std::vector<Keeper>> keepers{};
    const LevelModel& outermost = arch.levels[0];
    for (DataSpace s : kAllDataSpaces) {
        const bool reduced_into = s == problem.output();
        // The keeper reads (is updated with) every word at least once.
        cap[s] = std::min(cap[s], macs / std::max(1.0, distinct[s]));
        // The outermost level: its accesses beyond the compulsory ones.
        Keeper top;
        top.a = (reduced_into ? outermost.update_pj : outermost.read_pj) * macs;
        top.fixed = -distinct[s] * (reduced_into ? std::min(outermost.write_pj, outermost.update_pj)
                                                 : outermost.read_pj);
        top.cap = std::max(1.0, std::min(cap[s], units / double(outermost.instances)));
        keepers[s].push_back(top);
        for (std::size_t i = 1; i < arch.num_levels; ++i) {
            const LevelModel& level = arch.levels[i];
            if (!level.may_hold.contains(s)) continue;
            // A level the constraints make bypass s never serves it.
            if (constraints) {
                const auto& keep = constraints->level(i).keep[s];
                if (keep && !keep->keep) continue;
            }
            Keeper k;
            k.a = (reduced_into ? level.update_pj : level.read_pj) * macs;
            k.fixed = reduced_into ? 0.0 : level.write_pj * distinct[s];
            k.cap = std::max(1.0, std::min(cap[s], units / double(level.instances)));
            keepers[s].push_back(k);
        }
    }
    const double product = units * window;
    double best = std::numeric_limits<double>::infinity();
    for (const Keeper& w : keepers[DataSpace::weights]) {
        for (const Keeper& in : keepers[DataSpace::inputs]) {
            for (const Keeper& out : keepers[DataSpace::outputs]) {
                const double sum =
                    least_serving_sum({w.a, in.a, out.a}, {w.cap, in.cap, out.cap}, product);
                best = std::min(best, sum + w.fixed + in.fixed + out.fixed);
            }
        }
    }
    return std::max(0.0, best);
}

}  // namespace trainloop
