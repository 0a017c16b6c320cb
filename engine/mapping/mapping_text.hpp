// The one-line text form of a Mapping (logs, reports, the results database;
// docs/mapping_format.md). The vocabulary the three external forms share is
// in mapping/mapping_syntax.hpp.
//
//   DRAM[N16 K4 C4] GLB[P4 Q4 X:C16 Y:K16] RF[K2 C2 R3 S3 P7 Q7 bypass:inputs]
//
// mapping_to_text prints every level of the architecture, in order; within a
// level the temporal loops (outermost first), then the `X:` and `Y:` spatial
// loops, then `keep:` or `bypass:` (comma-separated data spaces) only when the
// level does not keep its default data spaces. parse_mapping_text reads that
// form back; it also accepts levels left out (no loops, default data spaces)
// and loop kinds in any order within a level. Every error is a SpecError whose
// location is the line and column of the bad token in the text.
//
// Only the spelling is checked (names, tokens, order of levels, repeats), not
// whether the factors fit the problem or the hardware: that is eval/mapping_check.hpp.
//
#pragma once

#include <string>
#include <string_view>

#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

// Stands in for the file name in errors about a text mapping.
inline constexpr std::string_view kMappingTextSource = "<mapping text>";

// Precondition: mapping.num_levels == arch.levels.size(). Loops are named as
// `shape` names its dimensions (the conv letters by default).
std::string mapping_to_text(const Mapping& mapping, const Architecture& arch,
                            const ProblemShape& shape = conv_family_shape());

Mapping parse_mapping_text(std::string_view text, const Architecture& arch,
                           std::string_view source_name = kMappingTextSource,
                           const ProblemShape& shape = conv_family_shape());

}  // namespace trainloop
