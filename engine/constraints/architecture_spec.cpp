#include "constraints/architecture_spec.hpp"

#include "arch/architecture_parser.hpp"
#include "constraints/constraints_parser.hpp"

namespace trainloop {

ArchitectureSpec parse_architecture_spec(const SpecNode& root) {
    ArchitectureSpec spec{parse_architecture(root), {}};
    MapReader top(root);
    top.allow({"architecture", "description", "source", "clock_ghz", "component_library",
               "component_overrides", "storage", "pe_array", "networks", "sparse"});
    if (const auto section = top.optional("constraints")) {
        spec.constraints =
            parse_constraints_section(*section, spec.arch.levels, spec.arch.pe_array);
    }
    return spec;
}

ArchitectureSpec load_architecture_spec(const std::filesystem::path& path) {
    return parse_architecture_spec(SpecNode::load_file(path));
}

}  // namespace trainloop
