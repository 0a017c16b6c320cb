// `trainloop export timeloop` (and the mapper's `--export timeloop DIR`): one
// evaluated case — architecture, phase problem, mapping — written as
// timeloop-model's inputs (docs/timeloop_interop.md), so the numbers can be
// cross-checked in Timeloop:
//   map.yaml      per storage level a temporal entry (`factors` for all 7
//                 CNN dimensions, `permutation` innermost first listing all 7,
//                 factor-1 dimensions after the others); a spatial entry for a
//                 level with spatial loops (`split` = its X dimensions, which
//                 come first in the permutation); a datatype entry with
//                 keep/bypass where the level does not keep all three;
//   problem.yaml  the standard CNN-Layer shape and its instance; trainloop's
//                 stride.h/dilation.h (P with R) are Wstride/Wdilation;
//   arch.yaml     v0.3 subtree/local form: `system` with the outermost level,
//                 `chip` with the other shared levels, `PE[0..n-1]` with the
//                 per-PE levels and the MAC (meshX = the array's columns);
//                 block size 1 (width = datawidth = the level's word bits);
//   ERT.yaml      per component: read/write/update energy per (one-word)
//                 vector access as trainloop prices it at the level's
//                 capacity and width, leak = leakage power / clock;
//   ART.yaml      area per instance.
// Reading these back with read_timeloop_spec + import_timeloop gives the same
// Mapping (loops with factor 1 dropped) and the same nest analysis for fw.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "arch/architecture.hpp"
#include "common/output_files.hpp"
#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"

namespace trainloop {

struct ExportedFiles {
    std::vector<OutputFile> files;   // map.yaml, problem.yaml, arch.yaml, ERT.yaml, ART.yaml
    std::vector<std::string> notes;  // what Timeloop will not see as trainloop does
};

// Precondition: the mapping is valid for the problem on the architecture
// (evaluate() gives no violation). Throws SpecError, located at `origin`
// (e.g. the mapping file), for what Timeloop's CNN-Layer and v0.3 tree
// cannot express: grouped convolutions (G > 1), a dimension spread over both
// array axes at one level, a level shared by a group of PEs (neither one
// instance nor one per PE), an array of several PEs without a per-PE level,
// level names Timeloop cannot use. Notes: a bw or wu phase (Timeloop's
// CNN-Layer always reduces into Outputs, so it models the fw phase of the
// same loop nest), networks and sparse features (not exported), a bf16 MAC
// (exported as fpmac, read back as fp16), a clock other than 1 GHz.
ExportedFiles native_to_timeloop_files(const Architecture& arch, const PhaseProblem& problem,
                                       const Mapping& mapping, const SourceLocation& origin = {});

// For the mapper (`trainloop map ... --export timeloop DIR`):
// native_to_timeloop_files, then write_output_files into `dir`. Returns the
// notes; the paths written are `dir` / each file's name.
std::vector<std::string> export_timeloop(const std::filesystem::path& dir, const Architecture& arch,
                                         const PhaseProblem& problem, const Mapping& mapping,
                                         bool force, const SourceLocation& origin = {});

}  // namespace trainloop
