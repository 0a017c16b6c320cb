// Validates any trainloop YAML spec. The kind is told by the file's
// top-level key: `network` (a network), `architecture`, `components` (an
// energy/area component library), `sparsity_profile` or `mapping` (checked
// against its `for:` target: parsed and evaluated). Each kind is
// checked completely, as the commands that use it would (a network is built
// as a graph with its shapes; an architecture with its component library).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "common/spec_node.hpp"

namespace trainloop {

enum class SpecKind {
    network,
    architecture,
    component_library,
    sparsity_profile,
    mapping,
    mapping_constraints
};

std::string_view spec_kind_name(SpecKind kind);

// Throws SpecError when the top-level key names no kind.
SpecKind detect_spec_kind(const SpecNode& root);

struct SpecCheckResult {
    SpecKind kind;
    std::string name;     // the spec's own name
    std::string summary;  // one line about what it holds
};

// Throws SpecError on the first problem found.
SpecCheckResult check_spec_file(const std::filesystem::path& path);

}  // namespace trainloop
