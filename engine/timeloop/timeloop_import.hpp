// Turns a TimeloopSpec into trainloop's own specs: an Architecture whose
// component entries come from the ERT/ART (energy per word = the ERT's
// energy per vector access ÷ the level's block size; leak energy per cycle
// becomes leakage power at the 1 GHz clock the import sets), the CNN layer's
// forward problem, and the Mapping (Timeloop permutations are innermost
// first; a spatial entry's first `split` permutation positions go to X).
// Timeloop's W-stride/dilation pair P with R: they become trainloop's
// stride.h/dilation.h; H-stride/dilation (Q with S) stride.w/dilation.w.
#pragma once

#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"
#include "sparse/phase_densities.hpp"
#include "timeloop/timeloop_spec.hpp"

namespace trainloop {

struct TimeloopCase {
    Architecture arch;     // with Sparseloop's optimizations as `arch.sparse`
    PhaseProblem problem;  // fw: Outputs are read-write, as in Timeloop
    Mapping mapping;
    PhaseDensities densities;        // the problem's densities (all 1: dense)
    std::vector<std::string> notes;  // approximations the sparse import made

    // A sparse optimization or a density below 1: evaluate with `densities`.
    bool sparse() const { return !arch.sparse.dense() || !densities.all_dense(); }
};

// Throws SpecError for what trainloop cannot represent (located at the
// Timeloop file's line): imperfect factors, a permutation that leaves out a
// dimension with a factor, a mesh shape that differs from trainloop's, an
// unknown mapping target, missing ERT entries.
TimeloopCase import_timeloop(const TimeloopSpec& spec);

}  // namespace trainloop
