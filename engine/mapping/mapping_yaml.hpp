// The YAML form of a Mapping: the files users write and the tool prints
// (docs/mapping_format.md).
//
//   for:                      # optional: arch, workload, layer, phase, batch
//     arch: ../arch_specs/procrustes_baseline_16x16.yaml
//   mapping:                  # levels from the outermost inward
//     - level: GLB
//       temporal: [P4, Q4]    # outermost first
//       spatial_x: [C16]
//       spatial_y: [K16]
//       bypass: [inputs]      # or keep: [...]; default: what the level may hold
//
// parse_mapping_yaml checks the spelling only — level names in the
// architecture's order without repeats, loop tokens, one loop per dimension
// in a list, keep/bypass data spaces the level may hold, unknown keys, types —
// each as a SpecError at the offending node, with did-you-mean for names.
// Factor products, array fan-out and capacities are eval/mapping_check.hpp's.
//
// mapping_to_yaml prints a stable layout that parse_mapping_yaml reads back to
// the same Mapping: every level, `temporal:` always, the spatial lists when
// not empty, `keep:`/`bypass:` only when the level does not keep its default
// data spaces (whichever lists fewer).
#pragma once

#include <optional>
#include <string>

#include "arch/architecture.hpp"
#include "common/spec_node.hpp"
#include "mapping/mapping.hpp"
#include "mapping/mapping_target.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

struct ParsedMapping {
    Mapping mapping;  // num_levels == arch.levels.size(); levels by architecture index
    std::optional<MappingTarget> target;  // the `for:` block, if the file has one
};

// `root` is the whole document; `root.file()` locates relative paths in `for:`.
// Loops are read by the names `shape` gives its dimensions (the conv letters
// by default; read_mapping_target first to find the problem).
ParsedMapping parse_mapping_yaml(const SpecNode& root, const Architecture& arch,
                                 const ProblemShape& shape = conv_family_shape());

// Only the `for:` block (empty when there is none), for a caller that needs
// the architecture before it can parse the rest. Also rejects unknown
// top-level keys.
MappingTarget read_mapping_target(const SpecNode& root);

// Precondition: mapping.num_levels == arch.levels.size(). An empty target
// (or none) prints no `for:` block.
std::string mapping_to_yaml(const Mapping& mapping, const Architecture& arch,
                            const std::optional<MappingTarget>& target = {},
                            const ProblemShape& shape = conv_family_shape());

}  // namespace trainloop
