#include "bounds/lower_bound.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "bounds/mac_serving_bound.hpp"

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

double on_chip_capacity_words(const ArchModel& arch) {
    double words = 0;
    for (std::size_t i = 1; i < arch.num_levels; ++i) {
        const LevelModel& level = arch.levels[i];
        if (level.capacity_words < 0) return -1;
        words += double(level.capacity_words) * double(level.instances);
    }
    return words;
}

double capacity_traffic_words(const PhaseProblem& problem, double on_chip_words) {
    if (on_chip_words <= 0) return 0;
    const DimBounds& b = problem.space.bounds;
    // Loomis–Whitney over the MACs' three projections (weights, outputs, the
    // input window's elements, each ≤ R·S per input word: the filter extent of
    // each sliding-window axis): MACs per segment ≤ √(R·S · |W|·|O|·|I|) with
    // |W| + |I| + |O| ≤ 3S.
    double window_elements = 1;
    for (DataSpace s : kAllDataSpaces) {
        const Projection& projection = problem.projection(s);
        for (std::uint8_t a = 0; a < projection.num_axes; ++a) {
            const TensorAxis& axis = projection.axes[a];
            if (axis.num_terms == 2) window_elements *= double(b[axis.terms[1].dim]);
        }
    }
    const double per_segment = std::sqrt(window_elements) * std::pow(on_chip_words, 1.5);
    const double segments = std::ceil(double(problem.macs()) / per_segment);
    return on_chip_words * std::max(0.0, segments - 1);
}

CostLowerBound cost_lower_bound(const ArchModel& arch, const PhaseProblem& problem,
                                const MappingConstraints* constraints,
                                std::optional<DimSet> paddable) {
    CostLowerBound bound;
    const std::int64_t macs = problem.macs();
    const std::int64_t units = arch.num_macs();
    const LevelModel& outermost = arch.levels[0];

    // Compulsory off-chip traffic: every word once.
    double operand_words = 0;
    double output_words = 0;
    double energy = double(macs) * arch.mac_pj;
    PerDataSpace<double> distinct{};
    for (DataSpace s : kAllDataSpaces) {
        distinct[s] = double(distinct_words(problem.projection(s), problem.space.bounds));
        if (s == problem.output()) {
            output_words += distinct[s];
            energy += distinct[s] * std::min(outermost.write_pj, outermost.update_pj);
        } else {
            operand_words += distinct[s];
            energy += distinct[s] * outermost.read_pj;
        }
    }
    const double compulsory = operand_words + output_words;
    // What the on-chip capacity forces beyond it, and what serving the MACs
    // from the levels inside costs; either may be the DRAM's own extra reads,
    // so only the larger of the two is added.
    const double capacity_words = on_chip_capacity_words(arch);
    bound.offchip_words = std::max(
        compulsory, capacity_words < 0 ? 0.0 : capacity_traffic_words(problem, capacity_words));
    const double extra_offchip_pj =
        (bound.offchip_words - compulsory) *
        std::min({outermost.read_pj, outermost.write_pj, outermost.update_pj});
    energy += std::max(extra_offchip_pj,
                       mac_serving_lower_bound_pj(arch, problem, distinct, constraints, paddable));

    // Cycles: the array's peak, and the outermost level's bandwidth (per
    // instance) for the words that must cross it.
    double cycles = std::ceil(double(macs) / double(units));
    const double instances = double(outermost.instances);
    const double read_bw = outermost.read_bandwidth * instances;
    const double write_bw = outermost.write_bandwidth * instances;
    if (read_bw > 0) cycles = std::max(cycles, std::ceil(operand_words / read_bw));
    if (write_bw > 0) cycles = std::max(cycles, std::ceil(output_words / write_bw));
    if (read_bw > 0 && write_bw > 0) {
        cycles = std::max(cycles, std::ceil(bound.offchip_words / (read_bw + write_bw)));
    }
    // A bus that reads and writes share carries every word that must cross it.
    const double shared_bw = outermost.shared_bandwidth * instances;
    if (shared_bw > 0) cycles = std::max(cycles, std::ceil(bound.offchip_words / shared_bw));
    bound.cycles = std::int64_t(cycles);

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
