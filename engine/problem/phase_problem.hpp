// PhaseProblem: one training phase of one MAC layer, ready for mapping.
//
// The three phases share the iteration space (same MAC count) and differ only
// in tensor roles (phase.hpp): which tensor sits on each data space and which
// is the output. Every later stage (nest analysis, sparsity, mapper) works
// from these roles, with no per-phase special cases.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "problem/iteration_space.hpp"
#include "vocabulary/per_space.hpp"
#include "vocabulary/phase.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {

struct TensorRole {
    TensorName tensor;
    DataSpace space;
    bool is_output = false;  // reduced into (read-modify-write), not only read
};

struct PhaseProblem {
    std::string layer;
    Phase phase = Phase::fw;
    IterationSpace space;
    PerDataSpace<TensorRole> tensors;
    // How each data space is indexed (the shape's projections, copied beside
    // the roles because the evaluator reads them for every mapping).
    PerDataSpace<Projection> projections;

    const TensorRole& role(DataSpace s) const { return tensors[s]; }
    const Projection& projection(DataSpace s) const { return projections[s]; }
    DataSpace output() const { return output_space(phase); }
    TensorName output_tensor() const { return tensor_in_phase(phase, output()); }
    // Dimensions summed over into each output element: those that do not
    // index the output (fw: C,R,S; bw: K, plus the sliding-window overlap of
    // P,Q with R,S; wu: N,P,Q), and the slots the shape leaves unused (bound 1).
    DimSet reduced_dims() const { return projections[output()].relevant.complement(); }
    std::int64_t macs() const { return space.macs(); }
};

PhaseProblem make_phase_problem(std::string layer, Phase phase, const IterationSpace& space);

}  // namespace trainloop
