#include "problem/training_problems.hpp"

#include <fmt/format.h>

#include <cassert>

#include "common/checked_math.hpp"
#include "common/spec_error.hpp"

namespace trainloop {

const PhaseProblem* LayerTraining::find(Phase phase) const {
    for (const PhaseProblem& problem : phases) {
        if (problem.phase == phase) return &problem;
    }
    return nullptr;
}

const LayerTraining* NetworkTraining::find(std::string_view name) const {
    for (const LayerTraining& layer : layers) {
        if (layer.layer->layer.name == name) return &layer;
    }
    return nullptr;
}

std::int64_t NetworkTraining::total_weights() const {
    std::int64_t total = 0;
    for (const LayerTraining& layer : layers) {
        total = add_to_total(total, layer.space.weights(), "weights");
    }
    return total;
}

std::int64_t NetworkTraining::forward_macs() const { return phase_macs(Phase::fw); }

std::int64_t NetworkTraining::phase_macs(Phase phase) const {
    std::int64_t total = 0;
    for (const LayerTraining& layer : layers) {
        if (const PhaseProblem* problem = layer.find(phase)) {
            total = add_to_total(total, problem->macs(), "MACs");
        }
    }
    return total;
}

NetworkTraining derive_training_problems(const Network& network, std::int64_t batch) {
    assert(batch >= 1);
    NetworkTraining training;
    for (const AnalyzedLayer& analyzed : network.layers()) {
        if (!is_mac_layer(analyzed.layer.type)) continue;
        LayerTraining layer;
        layer.layer = &analyzed;
        layer.space = iteration_space_of(analyzed.layer, analyzed.input_shapes.front(),
                                         analyzed.output_shape, batch);
        if (const auto reason = oversize_reason(layer.space)) {
            throw SpecError(analyzed.layer.location, "",
                            fmt::format("layer `{}` at batch {} is too large to model exactly: {}",
                                        analyzed.layer.name, batch, *reason),
                            "a layer whose MACs and tensors number at most 2^53",
                            "a smaller batch (--batch) or smaller layer dimensions");
        }
        for (Phase phase : kAllPhases) {
            if (phase == Phase::bw && !analyzed.needs_input_gradient) continue;
            layer.phases.push_back(make_phase_problem(analyzed.layer.name, phase, layer.space));
        }
        training.layers.push_back(std::move(layer));
    }
    return training;
}

}  // namespace trainloop
