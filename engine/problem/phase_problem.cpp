#include "problem/phase_problem.hpp"

namespace trainloop {

PhaseProblem make_phase_problem(std::string layer, Phase phase, const IterationSpace& space) {
    PhaseProblem problem;
    problem.layer = std::move(layer);
    problem.phase = phase;
    problem.space = space;
    for (DataSpace s : kAllDataSpaces) {
        problem.tensors[s] = TensorRole{tensor_in_phase(phase, s), s, s == output_space(phase)};
        problem.projections[s] = projection_for(s, space);
    }
    return problem;
}

}  // namespace trainloop
