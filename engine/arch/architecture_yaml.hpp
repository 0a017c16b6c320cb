// Writing an Architecture and a ComponentLibrary as the YAML files
// architecture_parser.hpp and component_library_parser.hpp read
// (docs/arch_format.md): the inverse of the parsers, for tools that produce
// specs (`trainloop import timeloop`).
//
// Round trip: component_library_to_yaml(library) parses back to a library
// equal to `library`, field by field. architecture_to_yaml(arch, path) names
// `path` as its component library (written as given: a path relative to where
// the architecture file will be stored) and writes no overrides, because
// `arch.components` already has the file's overrides applied; parsed next to
// a library holding `arch.components` (e.g. component_library_to_yaml's
// output), it gives back `arch` in every field but component_library_path.
// Numbers are written so they read back as the same doubles.
#pragma once

#include <string>

#include "arch/architecture.hpp"

namespace trainloop {

std::string architecture_to_yaml(const Architecture& arch, const std::string& component_library);

std::string component_library_to_yaml(const ComponentLibrary& library);

}  // namespace trainloop
