#include "eval/lower_bound.hpp"

#include <algorithm>
#include <vector>

namespace trainloop {
namespace {

// Distinct values of Σ coef_t · i_t over 0 ≤ i_t < bound_t (one tensor axis).
std::int64_t distinct_axis_values(const TensorAxis& axis, const DimBounds& bounds) {
    if (axis.num_terms == 1) return bounds[axis.terms[0].dim];
    const AxisTerm& a = axis.terms[0];
    const AxisTerm& b = axis.terms[1];
    const std::int64_t span = (bounds[a.dim] - 1) * a.coef + (bounds[b.dim] - 1) * b.coef + 1;
    std::vector<bool> seen(std::size_t(span), false);
    for (std::int64_t i = 0; i < bounds[a.dim]; ++i) {
        for (std::int64_t j = 0; j < bounds[b.dim]; ++j) {
            seen[std::size_t(i * a.coef + j * b.coef)] = true;
        }
    }
    return std::int64_t(std::count(seen.begin(), seen.end(), true));
}

}  // namespace

std::int64_t distinct_words(const Projection& projection, const DimBounds& bounds) {
    std::int64_t words = 1;
    for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
        words *= distinct_axis_values(projection.axes[a], bounds);
    }
    return words;
}

CostLowerBound cost_lower_bound(const ArchModel& arch, const PhaseProblem& problem) {
    CostLowerBound bound;
    const std::int64_t macs = problem.macs();
    const std::int64_t units = arch.num_macs();
    bound.cycles = (macs + units - 1) / units;

    const LevelModel& outermost = arch.levels[0];
    double energy = double(macs) * arch.mac_pj;
    for (DataSpace s : kAllDataSpaces) {
        const double words = double(distinct_words(problem.projection(s), problem.space.bounds));
        bound.offchip_words += words;
        energy += s == problem.output() ? words * std::min(outermost.write_pj, outermost.update_pj)
                                        : words * outermost.read_pj;
    }
    // Leakage (evaluation.cpp): mW × cycles / GHz is pJ; every instance leaks.
    double leakage_mw = arch.mac_leakage_mw * double(units);
    for (std::size_t i = 0; i < arch.num_levels; ++i) {
        leakage_mw += arch.levels[i].leakage_mw * double(arch.levels[i].instances);
    }
    energy += leakage_mw * double(bound.cycles) / arch.clock_ghz;
    bound.energy_pj = energy;
    return bound;
}

}  // namespace trainloop
