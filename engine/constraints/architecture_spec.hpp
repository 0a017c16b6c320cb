// An architecture file read whole: the Architecture and its `constraints:`
// section (docs/mapping_constraints.md), what every mapping on it must honour
// (empty when the file has none). The architecture parser skips that section
// because constraints are about mappings, a later stage of the pipeline; the
// commands that map (map, sweep) and `spec check` read both through here.
#pragma once

#include <filesystem>

#include "arch/architecture.hpp"
#include "common/spec_node.hpp"
#include "constraints/mapping_constraints.hpp"

namespace trainloop {

struct ArchitectureSpec {
    Architecture arch;
    MappingConstraints constraints;
};

// Errors are located as parse_architecture's, then as the constraints
// section's (constraints_parser.hpp).
ArchitectureSpec parse_architecture_spec(const SpecNode& root);
ArchitectureSpec load_architecture_spec(const std::filesystem::path& path);

}  // namespace trainloop
