#include "spec/spec_check.hpp"

#include <fmt/format.h>

#include "arch/architecture_parser.hpp"
#include "common/did_you_mean.hpp"
#include "components/component_library_parser.hpp"
#include "constraints/architecture_spec.hpp"
#include "constraints/constraints_parser.hpp"
#include "density/sparsity_profile.hpp"
#include "problem/training_problems.hpp"
#include "spec/mapping_case.hpp"
#include "workload/network.hpp"

namespace trainloop {
namespace {

struct KindKey {
    SpecKind kind;
    std::string key;
};

const std::vector<KindKey>& kind_keys() {
    static const std::vector<KindKey> keys = {
        {SpecKind::network, "network"},
        {SpecKind::architecture, "architecture"},
        {SpecKind::component_library, "components"},
        {SpecKind::sparsity_profile, "sparsity_profile"},
        {SpecKind::mapping, "mapping"},
        {SpecKind::mapping_constraints, "mapping_constraints"}};
    return keys;
}

SpecCheckResult check_network(const SpecNode& root) {
    const Network network = Network::build(parse_network_spec(root));
    const NetworkTraining training = derive_training_problems(network, kDefaultBatch);
    return {SpecKind::network, network.name(),
            fmt::format("{} layers, {} MAC layers, {} weights", network.layers().size(),
                        training.layers.size(), training.total_weights())};
}

SpecCheckResult check_architecture(const SpecNode& root) {
    const ArchitectureSpec spec = parse_architecture_spec(root);
    const Architecture& arch = spec.arch;
    return {SpecKind::architecture, arch.name,
            fmt::format("{}×{} PEs, {} storage levels, {} networks, components from {}{}",
                        arch.pe_array.rows, arch.pe_array.columns, arch.levels.size(),
                        arch.networks.size(), arch.components.name,
                        spec.constraints.empty()
                            ? ""
                            : ", mapping constraints: " + constraints_summary(spec.constraints))};
}

SpecCheckResult check_component_library(const SpecNode& root) {
    const ComponentLibrary library = parse_component_library(root);
    return {SpecKind::component_library, library.name,
            fmt::format("{} components ({})", library.components.size(), library.technology)};
}

SpecCheckResult check_mapping(const std::filesystem::path& path) {
    const MappingCase c = load_mapping_case(path);
    const Evaluation e = evaluate_case(c);
    return {SpecKind::mapping, c.problem->layer,
            fmt::format("{} of {} on {}: {} cycles, {:.4g} pJ", phase_name(c.problem->phase),
                        c.network->name(), c.arch.name, e.cycles, e.energy_pj)};
}

SpecCheckResult check_constraints(const SpecNode& root) {
    const auto arch_path = read_constraints_target(root);
    if (!arch_path && root.is_map()) {
        // A misspelled `for:` is reported as such, at the key.
        for (const auto& entry : root.raw()) {
            if (entry.first.IsScalar() && entry.first.Scalar() != "for" &&
                nearest_name(entry.first.Scalar(), {"for"})) {
                MapReader(root).required("for");
            }
        }
    }
    if (!arch_path) {
        root.fail("a constraints file without `for: {arch: FILE}`",
                  "a `for:` block naming the architecture whose level names it uses",
                  "`trainloop map --constraints` resolves the names in `--arch` instead; "
                  "`spec check` needs the `for:` block");
    }
    const YAML::Node target = root.raw()["for"];
    const SpecNode reference =
        target.IsMap() && target["arch"] ? root.sibling(target["arch"], "for.arch") : root;
    const ArchitectureSpec spec = load_referenced(
        reference, "architecture", [&] { return load_architecture_spec(*arch_path); });
    const Architecture& arch = spec.arch;
    const ConstraintsFile file = parse_constraints_file(root, arch.levels, arch.pe_array);
    const MappingConstraints merged = merge_constraints(spec.constraints, file.constraints);
    check_constraints_consistent(merged);
    return {SpecKind::mapping_constraints, file.name,
            fmt::format("for {}: {}", arch.name, constraints_summary(merged))};
}

SpecCheckResult check_sparsity(const SpecNode& root) {
    const SparsityProfile profile = parse_sparsity_profile(root);
    return {SpecKind::sparsity_profile, profile.name,
            fmt::format("{} rules", profile.rules.size())};
}

}  // namespace

std::string_view spec_kind_name(SpecKind kind) {
    switch (kind) {
        case SpecKind::network:
            return "network";
        case SpecKind::architecture:
            return "architecture";
        case SpecKind::component_library:
            return "component library";
        case SpecKind::sparsity_profile:
            return "sparsity profile";
        case SpecKind::mapping:
            return "mapping";
        case SpecKind::mapping_constraints:
            return "mapping constraints";
    }
    return "spec";
}

SpecKind detect_spec_kind(const SpecNode& root) {
    std::vector<std::string> names;
    for (const auto& k : kind_keys()) names.push_back(k.key);
    if (root.is_map()) {
        for (const auto& k : kind_keys()) {
            if (root.raw()[k.key]) return k.kind;
        }
        // A misspelled kind key gets a did-you-mean.
        for (const auto& entry : root.raw()) {
            const std::string key = entry.first.Scalar();
            if (auto near = nearest_name(key, names)) {
                root.sibling(entry.first, child_key_path("", key))
                    .fail(fmt::format("unknown top-level key `{}`", quoted_excerpt(key)),
                          "a spec whose first key names its kind", suggestion_hint(key, names));
            }
        }
    }
    root.fail("cannot tell what kind of spec this is",
              "a top-level key `network:`, `architecture:`, `components:`, `sparsity_profile:`, "
              "`mapping:` or `mapping_constraints:`");
}

SpecCheckResult check_spec_file(const std::filesystem::path& path) {
    const SpecNode root = SpecNode::load_file(path);
    switch (detect_spec_kind(root)) {
        case SpecKind::network:
            return check_network(root);
        case SpecKind::architecture:
            return check_architecture(root);
        case SpecKind::component_library:
            return check_component_library(root);
        case SpecKind::sparsity_profile:
            return check_sparsity(root);
        case SpecKind::mapping:
            return check_mapping(path);
        case SpecKind::mapping_constraints:
            return check_constraints(root);
    }
    root.fail("unknown kind of spec");
}

}  // namespace trainloop
