// `trainloop import timeloop`: timeloop-model's inputs rewritten once as
// trainloop-native spec files (docs/timeloop_interop.md), so a user migrates
// and from then on edits trainloop's own files:
//   arch.yaml        the architecture import_timeloop builds (levels with
//                    capacity, word bits, bandwidths, instances/per_pe,
//                    `networks: []`, clock 1 GHz), naming components.yaml;
//   components.yaml  one entry per Timeloop component, priced from the
//                    ERT/ART as import_timeloop prices it (energy per word,
//                    leakage, area);
//   workload.yaml    a one-layer network: an input of C channels, height
//                    (P−1)·Wstride + (R−1)·Wdilation + 1 and width
//                    (Q−1)·Hstride + (S−1)·Hdilation + 1, and one unpadded
//                    conv layer (K, [R, S], stride [Wstride, Hstride],
//                    dilation [Wdilation, Hdilation]) — checked to give back
//                    the problem's iteration space;
//   mapping.yaml     the mapping, with a `for:` block naming ./arch.yaml,
//                    ./workload.yaml, the layer, phase fw and batch N.
// Evaluating mapping.yaml gives the numbers import_timeloop's case gives.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "common/output_files.hpp"
#include "timeloop/timeloop_spec.hpp"

namespace trainloop {

// The names the imported network gives its input and its layer.
inline constexpr const char* kImportedInputName = "input";
inline constexpr const char* kImportedLayerName = "conv";

struct ImportedFiles {
    std::vector<OutputFile> files;   // arch.yaml, components.yaml, workload.yaml, mapping.yaml
    std::vector<std::string> notes;  // the reader's notes: what was read and ignored
};

// Throws SpecError for everything import_timeloop refuses, and for an ERT
// energy that is not positive (trainloop's component library needs energies
// > 0), located at the Timeloop component it prices.
ImportedFiles timeloop_to_native_files(const TimeloopSpec& spec);

}  // namespace trainloop
