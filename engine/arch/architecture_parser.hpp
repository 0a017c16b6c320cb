// Reading an architecture YAML (top-level key `architecture:`, the spec's
// name; format in docs/arch_format.md). The file names its component library
// by a path relative to itself and may override library entries inline.
// The file's `constraints:` section is skipped here (it constrains mappings,
// which sit above the architecture): constraints/architecture_spec.hpp reads
// the architecture together with it.
// Every user error is a SpecError located at the offending node: unknown keys
// (with did-you-mean), missing keys, wrong types, non-positive sizes,
// duplicate names, a data space no level holds, a network or sparse entry
// naming an unknown level or component, unknown enumeration values.
#pragma once

#include <filesystem>

#include "arch/architecture.hpp"
#include "common/spec_node.hpp"

namespace trainloop {

Architecture load_architecture(const std::filesystem::path& path);
// `root.file()` locates the component library: its path is resolved against
// the directory of that file name.
Architecture parse_architecture(const SpecNode& root);

}  // namespace trainloop
