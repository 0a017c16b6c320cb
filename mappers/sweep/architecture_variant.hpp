// An architecture of a sweep: a file as it is, or a file with parameter
// overrides applied to its parsed YAML tree before the architecture parser
// runs — so an overridden architecture is validated exactly like a file, and
// is stored with the YAML text that was parsed (and its content hash).
#pragma once

#include <string>

#include "arch/architecture.hpp"
#include "constraints/mapping_constraints.hpp"
#include "sweep/sweep_spec.hpp"

namespace trainloop {

struct ArchitectureVariant {
    Architecture arch;
    MappingConstraints constraints;  // the file's `constraints:` section
    std::string yaml;                // the text the parser read
};

// Throws SpecError: at the override in the sweep file for a key path that
// does not lead into the file's tree; for an architecture the overrides make
// invalid, the parser's error, prefixed with the variant and the sweep
// file's location of its overrides.
ArchitectureVariant load_architecture_variant(const SweepArchitecture& entry);

}  // namespace trainloop
