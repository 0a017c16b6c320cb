#include "training_run/cartesian_costs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

double density_of(const PlannedProblem& p, DataSpace space) {
    return p.densities ? p.densities->of(space).density : 1.0;
}

}  // namespace

std::optional<std::int64_t> cartesian_whole_cycles(double cycles) {
    // The evaluator's expected cycles carry rounding noise: 3 + 1e-12 is 3.
    const double whole = std::ceil(cycles - 1e-9);
    // 2^63 and past (and NaN): the cast to int64 would be undefined.
    if (!(whole < static_cast<double>(std::numeric_limits<std::int64_t>::max())))
        return std::nullopt;
    return static_cast<std::int64_t>(std::max(whole, 0.0));
}

std::int64_t cartesian_layer_phase_cycles(double cycles, std::string_view layer, Phase phase) {
    const std::optional<std::int64_t> whole = cartesian_whole_cycles(cycles);
    if (!whole)
        throw SpecError({}, "--batch",
                        fmt::format("layer '{}' {} takes {:.3g} cycles, more than 64 bits hold",
                                    layer, phase_name(phase), cycles),
                        "a layer-phase whose cycles fit in 64 bits", "a smaller --batch");
    return *whole;
}

CartesianProblemCost cartesian_layer_phase_cost(const CartesianCost& counts,
                                                const CartesianOffchip& offchip,
                                                std::string_view layer, Phase phase,
                                                const CartesianArray& array, std::int64_t batch,
                                                const ArchModel& arch) {
    // evaluation.cpp's bound for the outermost level: its words over its bandwidth, per instance.
    const LevelModel& outer = arch.levels.at(0);
    const double reads = (offchip.tiled_words + offchip.broadcast_words) / double(outer.instances);
    const double writes = offchip.output_words / double(outer.instances);
    const auto at = [](double words, double bandwidth) {
        return bandwidth > 0 ? words / bandwidth : 0.0;
    };
    const double memory_cycles =
        std::max({at(reads, outer.read_bandwidth), at(writes, outer.write_bandwidth),
                  at(reads + writes, outer.shared_bandwidth)});
    CartesianProblemCost out;
    out.counts = counts;
    out.cost.cycles = cartesian_layer_phase_cycles(
        std::max(counts.slowest_pe_cycles, memory_cycles), layer, phase);
    out.energy = price_cartesian(counts, offchip, {phase, array, batch, out.cost.cycles}, arch);
    out.cost.energy_pj = out.energy.total_pj();
    out.cost.offchip_words = offchip.total();
    return out;
}

std::vector<CartesianProblemCost> cartesian_problem_costs(const TrainingRunPlan& plan,
                                                          const NetworkTraining& training,
                                                          const CartesianArray& array,
                                                          const ArchModel& arch, std::int64_t batch,
                                                          CartesianZeros zeros) {
    std::vector<const PlannedLayerPhase*> first(plan.problems.size(), nullptr);
    const auto note = [&first](const PlannedLayerPhase& lp, std::size_t problem) {
        if (first.at(problem) == nullptr) first[problem] = &lp;
    };
    for (const PlannedLayerPhase& lp : plan.layer_phases) note(lp, lp.problem);
    for (const auto& sample : plan.sample_problems)
        for (std::size_t i = 0; i < sample.size(); ++i) note(plan.layer_phases.at(i), sample[i]);

    std::vector<CartesianProblemCost> costs;
    costs.reserve(plan.problems.size());
    for (std::size_t p = 0; p < plan.problems.size(); ++p) {
        const PlannedProblem& planned = plan.problems[p];
        if (first.at(p) == nullptr)
            throw std::logic_error("cartesian_problem_costs: a problem no layer-phase has");
        const PlannedLayerPhase& lp = *first[p];
        const AnalyzedLayer& layer = *training.layers.at(lp.layer).layer;
        CartesianConv conv;
        try {
            conv = cartesian_conv_of(layer.layer, layer.input_shapes.at(0), layer.output_shape,
                                     batch, lp.phase);
        } catch (const std::invalid_argument& e) {
            throw SpecError({}, "--evaluator", e.what(), "conv, fc and matmul layers",
                            "--evaluator loop-nest");
        }
        const auto [tiled, broadcast] = cartesian_operands(lp.phase);
        CartesianConfig config;
        static_cast<CartesianArray&>(config) = array;
        config.input_density = cartesian_density(density_of(planned, tiled));
        config.filter_density = cartesian_density(density_of(planned, broadcast));
        config.zeros = zeros;
        // The parser keeps the array within the evaluator's limits, a profile its densities.
        if (const std::string problem = cartesian_config_problem(config); !problem.empty())
            throw std::logic_error("cartesian_problem_costs: " + problem);
        const CartesianCost cost = evaluate_cartesian(conv, config);
        const CartesianOffchip offchip =
            cartesian_offchip(planned.problem, config.input_density, config.filter_density,
                              density_of(planned, planned.problem.output()));
        costs.push_back(cartesian_layer_phase_cost(cost, offchip, layer.layer.name, lp.phase, array,
                                                   batch, arch));
    }
    return costs;
}

std::vector<ProblemCost> integrated_costs(const std::vector<CartesianProblemCost>& problems) {
    std::vector<ProblemCost> costs;
    costs.reserve(problems.size());
    for (const CartesianProblemCost& p : problems) costs.push_back(p.cost);
    return costs;
}

}  // namespace trainloop
