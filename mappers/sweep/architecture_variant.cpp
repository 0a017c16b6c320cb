#include "sweep/architecture_variant.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>

#include "arch/architecture_parser.hpp"
#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"
#include "common/spec_node.hpp"
#include "constraints/architecture_spec.hpp"

namespace trainloop {
namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(path);
    while (std::getline(in, part, '.')) parts.push_back(part);
    return parts;
}

[[noreturn]] void fail_override(const ArchOverride& o, const std::string& message,
                                const std::string& expected, const std::string& hint = {}) {
    throw SpecError(o.location, o.path, message, expected, hint);
}

// The child of `node` named `key`: a map key, or in a list the element whose
// `name:` is `key` (or whose index it is). Only the last step may add a new
// map key.
YAML::Node step_into(YAML::Node node, const std::string& key, bool last, const ArchOverride& o) {
    if (node.IsMap()) {
        if (!node[key] && !last) {
            std::vector<std::string> keys;
            for (const auto& kv : node) keys.push_back(kv.first.as<std::string>());
            fail_override(o, fmt::format("the architecture has no key `{}` here", key),
                          "a key path into the architecture file", suggestion_hint(key, keys));
        }
        return node[key];
    }
    if (node.IsSequence()) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < node.size(); ++i) {
            if (node[i].IsMap() && node[i]["name"]) {
                const std::string name = node[i]["name"].as<std::string>();
                if (name == key) return node[i];
                names.push_back(name);
            }
        }
        if (!key.empty() && key.find_first_not_of("0123456789") == std::string::npos) {
            const std::size_t index = std::stoul(key);
            if (index < node.size()) return node[index];
        }
        fail_override(o, fmt::format("no list element named `{}`", key),
                      "the `name:` of an element of this list, or its index",
                      suggestion_hint(key, names));
    }
    fail_override(o, fmt::format("`{}` is below a plain value", key),
                  "a key path through mappings and lists");
}

void apply_override(YAML::Node root, const ArchOverride& o) {
    const std::vector<std::string> parts = split_path(o.path);
    if (parts.empty()) fail_override(o, "an empty key path", "e.g. `pe_array.rows`");
    YAML::Node node = root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        node.reset(step_into(node, parts[i], false, o));  // re-point, not overwrite
    }
    const std::string& last = parts.back();
    if (node.IsSequence()) {
        // Replacing a whole element: find it, then assign in place.
        YAML::Node element = step_into(node, last, true, o);
        element = YAML::Load(o.value_yaml);
        return;
    }
    if (!node.IsMap()) {
        fail_override(o, fmt::format("`{}` is below a plain value", last),
                      "a key path through mappings and lists");
    }
    node[last] = YAML::Load(o.value_yaml);
}

}  // namespace

ArchitectureVariant load_architecture_variant(const SweepArchitecture& entry) {
    std::string text = read_file_text(entry.file);
    if (entry.overrides.empty()) {
        ArchitectureSpec spec = parse_architecture_spec(SpecNode::load_string(text, entry.file));
        return {std::move(spec.arch), std::move(spec.constraints), text};
    }
    YAML::Node root = SpecNode::load_string(text, entry.file).raw();
    if (!root.IsMap()) {
        throw SpecError(entry.location, "",
                        fmt::format("{} is not an architecture file", entry.file),
                        "a mapping with `architecture: NAME` at the top");
    }
    for (const ArchOverride& o : entry.overrides) apply_override(root, o);
    root["architecture"] = *entry.name;
    YAML::Emitter out;
    out << root;
    text = std::string(out.c_str()) + "\n";
    try {
        // Named after the file, so its component library is found next to it.
        ArchitectureSpec spec = parse_architecture_spec(SpecNode::load_string(text, entry.file));
        return {std::move(spec.arch), std::move(spec.constraints), text};
    } catch (const SpecError& e) {
        // An override the parser refuses is blamed on the override itself.
        for (const ArchOverride& o : entry.overrides) {
            if (o.path == e.key_path()) {
                throw SpecError(o.location, o.key,
                                fmt::format("architecture `{}` ({} with this override) is "
                                            "invalid: {}",
                                            *entry.name, entry.file, e.message()),
                                e.expected(), e.hint());
            }
        }
        throw SpecError(entry.location, e.key_path(),
                        fmt::format("architecture `{}` ({} with the overrides given here) is "
                                    "invalid: {}",
                                    *entry.name, entry.file, e.message()),
                        e.expected(), e.hint());
    }
}

}  // namespace trainloop
