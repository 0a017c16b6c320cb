// Sparseloop's sparse optimizations and problem densities as trainloop's
// sparse features (arch/sparse_features.hpp) and phase densities
// (sparse/phase_densities.hpp); docs/timeloop_interop.md, "Sparse inputs".
//
//   representation format, ranks top first   a fibertree format with those
//     (UOP, UB, CP, B, RLE)                     ranks (sparse/fibertree.hpp;
//                                               the outermost beyond 16 left
//                                               out, a note)
//   action-optimization skipping / gating     a skipping / gating entry at
//     {target, condition-on} at a level         that level
//   compute-optimization gating               gating at `compute` on a zero
//                                             weight or input
//   compute-optimization skipping             skipping at `compute` on the
//                                             operands that are not there
//                                             (compressed or skipped at the
//                                             innermost level keeping them)
//   action at the level serving the MACs,     also a `compute` entry of the
//     one condition element per read            same kind and condition
//   density fixed-structured                  the same density, model even
//   density hypergeometric                    the same density, model
//                                             hypergeometric
//   index widths (CP, RLE metadata-word-bits; `index_bits`, when one width;
//     UOP and upper payload-word-bits), else    else none: sized from the
//     the level's metadata_datawidth            tile
//
// Everything else (the `banded` distribution, an Outputs density below 1,
// ...) is a located SpecError naming what trainloop offers instead;
// approximations are returned as notes.
#pragma once

#include <string>
#include <vector>

#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"
#include "sparse/phase_densities.hpp"
#include "timeloop/timeloop_spec.hpp"

namespace trainloop {

struct ImportedSparsity {
    SparseFeatures features;
    PhaseDensities densities;  // fw: weights w, inputs x, outputs y
    std::vector<std::string> notes;
};

// `mapping` is the imported mapping on `arch` (its keep sets decide which
// level serves each operand to the MACs).
ImportedSparsity import_sparsity(const TimeloopSpec& spec, const Architecture& arch,
                                 const PhaseProblem& problem, const Mapping& mapping);

}  // namespace trainloop
