#include "problem/problem_lookup.hpp"

#include <fmt/format.h>

#include "common/did_you_mean.hpp"

namespace trainloop {

const PhaseProblem& find_phase_problem(const Network& network, const NetworkTraining& training,
                                       std::string_view layer, Phase phase,
                                       const SourceLocation& source) {
    std::vector<std::string> names;
    for (const LayerTraining& candidate : training.layers) {
        const std::string& name = candidate.layer->layer.name;
        names.push_back(name);
        if (name != layer) continue;
        if (const PhaseProblem* problem = candidate.find(phase)) return *problem;
        throw SpecError(source, "layer",
                        fmt::format("layer `{}` has no {} phase: no layer upstream of it trains, "
                                    "so the gradient of its input is never needed",
                                    layer, phase_name(phase)),
                        "fw or wu for this layer");
    }
    for (const AnalyzedLayer& other : network.layers()) {
        if (other.layer.name == layer) {
            throw SpecError(source, "layer",
                            fmt::format("layer `{}` of `{}` is a {} layer, which does no MACs",
                                        layer, network.name(), layer_type_name(other.layer.type)),
                            "a conv, fc, matmul or lstm_cell layer", suggestion_hint(layer, names));
        }
    }
    throw SpecError(source, "layer",
                    fmt::format("network `{}` has no layer `{}`", network.name(), layer),
                    "the name of one of its MAC layers (see `trainloop workload show`)",
                    suggestion_hint(layer, names));
}

}  // namespace trainloop
