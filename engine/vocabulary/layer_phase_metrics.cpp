#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {

std::string metric_columns(std::string_view prefix) {
    std::string out;
    for (const MetricInfo& m : kLayerPhaseMetrics) {
        if (!out.empty()) out += ", ";
        out += prefix;
        out += m.name;
    }
    return out;
}

}  // namespace trainloop
