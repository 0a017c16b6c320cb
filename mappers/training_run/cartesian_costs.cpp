#include "training_run/cartesian_costs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/spec_error.hpp"
#include "eval/cartesian_energy.hpp"
#include "eval/cartesian_product.hpp"
#include "problem/projection.hpp"

namespace trainloop {
namespace {

// The data spaces of the tiled (A) and broadcast (B) operands in `phase`
// (eval/cartesian_product.hpp): fw x and w, bw dy and w, wu x and dy. x sits on
// inputs, w on weights, dy on outputs (vocabulary/phase.hpp).
std::pair<DataSpace, DataSpace> operand_spaces(Phase phase) {
    switch (phase) {
        case Phase::fw:
            return {DataSpace::inputs, DataSpace::weights};
        case Phase::bw:
            return {DataSpace::outputs, DataSpace::weights};
        case Phase::wu:
            return {DataSpace::inputs, DataSpace::outputs};
    }
    return {DataSpace::inputs, DataSpace::weights};
}

double density_of(const PlannedProblem& p, DataSpace space) {
    // A density of 0 (a tensor known all-zero) is no work: the smallest density the
    // evaluator accepts stands for it.
    return p.densities ? std::max(p.densities->of(space).density, 1e-9) : 1.0;
}

double tensor_words(const PhaseProblem& problem, DataSpace space) {
    return static_cast<double>(footprint(problem.projection(space), problem.space.bounds));
}

}  // namespace

std::vector<ProblemCost> cartesian_problem_costs(const TrainingRunPlan& plan,
                                                 const NetworkTraining& training,
                                                 const CartesianArray& array, const ArchModel& arch,
                                                 std::int64_t batch) {
    std::vector<const PlannedLayerPhase*> first(plan.problems.size(), nullptr);
    const auto note = [&first](const PlannedLayerPhase& lp, std::size_t problem) {
        if (first.at(problem) == nullptr) first[problem] = &lp;
    };
    for (const PlannedLayerPhase& lp : plan.layer_phases) note(lp, lp.problem);
    for (const auto& sample : plan.sample_problems)
        for (std::size_t i = 0; i < sample.size(); ++i) note(plan.layer_phases.at(i), sample[i]);

    std::vector<ProblemCost> costs;
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
            throw SpecError({}, "--evaluator", e.what(), "conv and fc layers",
                            "--evaluator loop-nest");
        }
        const auto [tiled, broadcast] = operand_spaces(lp.phase);
        CartesianConfig config;
        static_cast<CartesianArray&>(config) = array;
        config.input_density = density_of(planned, tiled);
        config.filter_density = density_of(planned, broadcast);
        if (const std::string problem = cartesian_config_problem(config); !problem.empty())
            throw SpecError({}, "cartesian_product", problem);
        const CartesianCost cost = evaluate_cartesian(conv, config);
        const PhaseProblem& problem = planned.problem;
        const DataSpace output = problem.output();
        const CartesianOffchip offchip{
            tensor_words(problem, tiled) * config.input_density,
            tensor_words(problem, broadcast) * config.filter_density,
            tensor_words(problem, output) *
                (planned.densities ? planned.densities->of(output).density : 1.0)};
        const double cycles = std::ceil(cost.slowest_pe_cycles - 1e-9);
        if (!(cycles < 9.2e18))  // past int64: the cast would be undefined
            throw SpecError({}, "--batch",
                            fmt::format("layer '{}' {} takes {:.3g} cycles, more than 64 bits hold",
                                        layer.layer.name, phase_name(lp.phase), cycles),
                            "a layer-phase whose cycles fit in 64 bits", "a smaller --batch");
        ProblemCost out;
        out.cycles = static_cast<std::int64_t>(cycles);
        out.energy_pj = price_cartesian(cost, offchip, arch).total_pj();
        out.offchip_words = offchip.total();
        costs.push_back(out);
    }
    return costs;
}

}  // namespace trainloop
