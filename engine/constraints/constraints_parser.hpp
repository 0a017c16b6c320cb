// Reading mapping constraints (docs/mapping_constraints.md) from YAML, at the
// edge: an architecture's `constraints:` section, or a constraints file (top
// level key `mapping_constraints:`, its name). Both have the same body:
// `spatial:` (per axis x / y: a list of dimensions, or {dims, factors}) and
// `levels:` (per storage level name: `factors`, `order` or `partial_order`,
// `keep`, `bypass`). Level names resolve against the architecture; every
// user error is a SpecError at the offending node: unknown keys, levels and
// dimensions (with did-you-mean), contradictory bounds (min > max, both
// `order` and `partial_order`, a data space both kept and bypassed, a full
// order that leaves out a dimension a factor bound requires > 1, a dimension
// on both axes), and conflicts with the architecture (keeping a data space a
// level may not hold, bypassing the outermost level, fixed spatial factors
// beyond the array's size).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "arch/pe_array.hpp"
#include "arch/storage_level.hpp"
#include "common/spec_node.hpp"
#include "constraints/mapping_constraints.hpp"

namespace trainloop {

// The `constraints:` section of an architecture file.
MappingConstraints parse_constraints_section(const SpecNode& node,
                                             const std::vector<StorageLevel>& levels,
                                             const PeArray& array);

struct ConstraintsFile {
    std::string name;
    std::string description;
    // The `for: {arch: PATH}` block, resolved against the file's directory:
    // the architecture `spec check` reads the level names from.
    std::optional<std::filesystem::path> arch;
    MappingConstraints constraints;
};

// Only the `for:` block's architecture path (resolved), to load it first.
std::optional<std::filesystem::path> read_constraints_target(const SpecNode& root);

// A whole constraints file, its level names resolved against `levels`.
ConstraintsFile parse_constraints_file(const SpecNode& root,
                                       const std::vector<StorageLevel>& levels,
                                       const PeArray& array);
ConstraintsFile load_constraints_file(const std::filesystem::path& path,
                                      const std::vector<StorageLevel>& levels,
                                      const PeArray& array);

// Contradictions between entries, which a merge of two sources can create:
// a full order leaving out a dimension whose factor must be > 1 at that
// level. Throws SpecError located at the later entry. (The parsers call it;
// call it again after merge_constraints.)
void check_constraints_consistent(const MappingConstraints& constraints);

}  // namespace trainloop
