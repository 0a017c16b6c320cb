#include "density/tensor_phases.hpp"

namespace trainloop {

std::vector<Phase> phases_of(TensorName t) {
    std::vector<Phase> out;
    for (Phase p : kAllPhases) {
        if (tensor_in_phase_at_all(t, p)) out.push_back(p);
    }
    return out;
}

std::string describe_phases(const std::vector<Phase>& phases) {
    std::string text;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        if (i > 0) text += i + 1 == phases.size() ? " and " : ", ";
        text += phase_name(phases[i]);
    }
    return text;
}

}  // namespace trainloop
