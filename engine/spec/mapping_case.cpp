#include "spec/mapping_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <nlohmann/json.hpp>

#include "arch/architecture_library.hpp"
#include "arch/architecture_parser.hpp"
#include "common/file_text.hpp"
#include "common/spec_error.hpp"
#include "constraints/architecture_spec.hpp"
#include "mapping/mapping_json.hpp"
#include "mapping/mapping_text.hpp"
#include "mapping/mapping_yaml.hpp"
#include "problem/problem_lookup.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

// Where "no X given" points: the YAML document, or the file for the other forms.
using FailMissing = std::function<void(const std::string& message, const std::string& expected)>;

template <typename T>
T pick(const std::optional<T>& from_option, const std::optional<T>& from_file,
       const FailMissing& fail, const char* key, const char* in_file) {
    if (from_option) return *from_option;
    if (from_file) return *from_file;
    fail(fmt::format("no {} given for this mapping", key),
         fmt::format("`--{}` on the command line{}", key, in_file));
    std::abort();  // fail throws
}

// The file's entry for a level, so an error can point at its line.
SpecNode level_entry(const SpecNode& root, const std::string& level) {
    const YAML::Node list = root.raw()["mapping"];
    if (list && list.IsSequence()) {
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (list[i].IsMap() && list[i]["level"] && list[i]["level"].Scalar() == level) {
                return root.sibling(list[i], fmt::format("mapping[{}]", i));
            }
        }
    }
    return root.sibling(list ? list : root.raw(), "mapping");
}

std::string fix_for(ViolationKind kind) {
    switch (kind) {
        case ViolationKind::factor_product:
            return "over all levels, temporal and spatial, a dimension's factors must multiply "
                   "to its size (N, K, C and G: or pad it to less than twice its size)";
        case ViolationKind::fanout_x:
        case ViolationKind::fanout_y:
            return "spread fewer or smaller factors over the array at this level";
        case ViolationKind::capacity:
            return "move a loop to an outer level, or bypass a tensor at this level";
        case ViolationKind::metadata_capacity:
            return "smaller tiles at this level, a format with less metadata, or a larger "
                   "metadata_share";
        case ViolationKind::keep_forbidden:
        case ViolationKind::outermost_bypass:
            return "change the level's keep/bypass list";
        case ViolationKind::level_count:
            return "map every level of the architecture";
        case ViolationKind::network:
            return "spread the dimensions across the array so each tensor's multicast or "
                   "reduction runs along an axis a network of its kind covers, or declare such a "
                   "network (or a unicast one) in the architecture";
    }
    return {};
}

// A text that opens with `{` is the YAML form written in flow style (JSON is
// flow YAML too) when it has the YAML form's keys: a `for:` block, or a
// `mapping:` list of levels. Then the YAML reader reads it whole, so `for:`
// means the same in every form. The JSON forms have neither (docs/mapping_format.md).
bool is_flow_yaml_mapping(std::string_view text) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_discarded()) {
        return doc.is_object() &&
               (doc.contains("for") || (doc.contains("mapping") && doc["mapping"].is_array()));
    }
    // Not JSON: flow YAML (unquoted keys, ...) when it reads as YAML.
    try {
        const SpecNode root = SpecNode::load_string(std::string(text), "<mapping>");
        const YAML::Node& node = root.raw();
        const YAML::Node mapping = node.IsMap() ? node["mapping"] : YAML::Node();
        return node.IsMap() && (node["for"] || (mapping && mapping.IsSequence()));
    } catch (const SpecError&) {
        return false;  // the JSON reader reports the error
    } catch (const YAML::Exception&) {
        return false;
    }
}

}  // namespace

MappingForm detect_mapping_form(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = text.substr(at, end - at);
        const std::size_t first = line.find_first_not_of(" \t\r");
        at = end + 1;
        if (first == std::string_view::npos || line[first] == '#') continue;
        line.remove_prefix(first);
        if (line.front() == '{') {
            return is_flow_yaml_mapping(text) ? MappingForm::yaml : MappingForm::json;
        }
        const std::size_t bracket = line.find('[');
        const std::size_t colon = line.find(':');
        const bool name_then_bracket =
            bracket != std::string_view::npos && bracket > 0 &&
            (colon == std::string_view::npos || colon > bracket) &&
            line.substr(0, bracket).find_first_of(" \t-") == std::string_view::npos &&
            std::none_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(bracket),
                         [](char c) { return std::iscntrl(static_cast<unsigned char>(c)) != 0; });
        return name_then_bracket ? MappingForm::text : MappingForm::yaml;
    }
    return MappingForm::yaml;
}

namespace {

// The JSON document's mapping object and what it says it is for.
struct JsonMapping {
    nlohmann::json mapping;
    std::string key_path;  // of the mapping object, for errors
    MappingTarget target;
};

[[noreturn]] void json_fail(const std::string& source, const std::string& key,
                            const std::string& message, const std::string& expected) {
    throw SpecError({source, 0, 0}, key, message, expected);
}

// `map --format json`'s output: the layer-phase named by --layer and --phase
// (both required: the document holds every layer-phase of a network).
JsonMapping from_map_output(const nlohmann::json& doc, const MappingTarget& overrides,
                            const std::string& source) {
    JsonMapping out;
    if (!overrides.layer || !overrides.phase) {
        json_fail(source, "layers",
                  "this is `trainloop map --format json` output: it holds a mapping per "
                  "layer-phase",
                  "--layer NAME and --phase fw|bw|wu to pick one");
    }
    const std::string phase(phase_name(*overrides.phase));
    const nlohmann::json& layers = doc["layers"];
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const nlohmann::json& layer = layers[i];
        if (!layer.is_object() || layer.value("name", "") != *overrides.layer) continue;
        const auto phases = layer.find("phases");
        if (phases == layer.end() || !phases->is_object() || !phases->contains(phase)) {
            json_fail(source, fmt::format("layers[{}].phases", i),
                      fmt::format("layer `{}` has no {} result here", *overrides.layer, phase),
                      "a phase the map run mapped");
        }
        out.mapping = (*phases)[phase].value("mapping", nlohmann::json());
        out.key_path = fmt::format("layers[{}].phases.{}.mapping", i, phase);
        break;
    }
    if (out.key_path.empty()) {
        json_fail(source, "layers", fmt::format("no layer named `{}`", *overrides.layer),
                  "a layer of the map run's network");
    }
    // The run's architecture and network are names: shipped ones resolve.
    if (doc.contains("arch") && doc["arch"].is_string()) {
        try {
            out.target.arch = resolve_architecture(doc["arch"].get<std::string>());
        } catch (const SpecError&) {
            // Not shipped: --arch must name the file (pick() says so).
        }
    }
    if (doc.contains("network") && doc["network"].is_string()) {
        out.target.workload = doc["network"].get<std::string>();
    }
    if (doc.contains("batch") && doc["batch"].is_number_integer()) {
        out.target.batch = doc["batch"].get<std::int64_t>();
    }
    return out;
}

JsonMapping read_json_mapping(const std::string& text, const MappingTarget& overrides,
                              const std::string& source) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        json_fail(source, "", fmt::format("not valid JSON: {}", e.what()),
                  "a mapping in JSON (docs/mapping_format.md)");
    }
    if (doc.is_object() && doc.contains("layers") && doc.contains("network")) {
        return from_map_output(doc, overrides, source);
    }
    if (doc.is_object() && doc.contains("mapping")) return {doc["mapping"], "mapping", {}};
    return {doc, "", {}};
}

}  // namespace

MappingCase load_mapping_case_text(std::string text, const std::string& source,
                                   const MappingTarget& overrides) {
    MappingCase c;
    c.file = source;
    c.form = detect_mapping_form(text);
    c.text = std::move(text);

    MappingTarget from_file;
    std::optional<SpecNode> root;
    std::optional<JsonMapping> json;
    const char* in_file = "";
    FailMissing fail = [&source](const std::string& message, const std::string& expected) {
        throw SpecError({source, 0, 0}, "", message, expected);
    };
    switch (c.form) {
        case MappingForm::yaml:
            root = SpecNode::load_string(c.text, source);
            from_file = read_mapping_target(*root);
            in_file = ", or `for: {...}` in the mapping file";
            fail = [&root](const std::string& message, const std::string& expected) {
                root->fail(message, expected);
            };
            break;
        case MappingForm::json:
            json = read_json_mapping(c.text, overrides, source);
            from_file = json->target;
            break;
        case MappingForm::text:
            break;
    }
    c.target.arch = pick(overrides.arch, from_file.arch, fail, "arch", in_file);
    c.target.workload = pick(overrides.workload, from_file.workload, fail, "workload", in_file);
    c.target.layer = pick(overrides.layer, from_file.layer, fail, "layer", in_file);
    c.target.phase = pick(overrides.phase, from_file.phase, fail, "phase", in_file);
    c.target.batch = overrides.batch.value_or(from_file.batch.value_or(kDefaultBatch));

    // A spec the file's `for:` names is blamed on that key when it is broken.
    auto load = [&](const std::optional<std::string>& given, const char* key, const char* what,
                    auto&& read) {
        // Only the YAML form has a `for:` section to blame.
        if (given || !root) return read();
        const YAML::Node target = root->raw()["for"];
        if (!target.IsMap() || !target[key]) return read();
        return load_referenced(root->sibling(target[key], fmt::format("for.{}", key)), what, read);
    };
    // Read with its constraints section, so a bad one is reported here too.
    c.arch = load(overrides.arch, "arch", "architecture",
                  [&] { return load_architecture_spec(*c.target.arch).arch; });
    c.arch_model = build_arch_model(c.arch);
    c.network = load(overrides.workload, "workload", "network", [&] {
        return std::make_shared<const Network>(load_network(*c.target.workload));
    });
    c.training = derive_training_problems(*c.network, *c.target.batch);
    c.problem = &find_phase_problem(*c.network, c.training, *c.target.layer, *c.target.phase,
                                    {source, 0, 0});
    switch (c.form) {
        case MappingForm::yaml:
            c.mapping = parse_mapping_yaml(*root, c.arch, c.problem->space.shape).mapping;
            break;
        case MappingForm::json: {
            const std::string name =
                json->key_path.empty() ? source : fmt::format("{} ({})", source, json->key_path);
            c.mapping = mapping_from_json(json->mapping, c.arch, name, c.problem->space.shape);
            break;
        }
        case MappingForm::text: {
            // The first line that is not blank or a comment.
            std::string_view line = c.text;
            for (std::size_t at = 0; at < c.text.size();) {
                const std::size_t end = std::min(c.text.find('\n', at), c.text.size());
                const std::string_view candidate = std::string_view(c.text).substr(at, end - at);
                const std::size_t first = candidate.find_first_not_of(" \t\r");
                at = end + 1;
                if (first == std::string_view::npos || candidate[first] == '#') continue;
                line = candidate;
                break;
            }
            c.mapping = parse_mapping_text(line, c.arch, source, c.problem->space.shape);
            break;
        }
    }
    return c;
}

MappingCase load_mapping_case(const std::filesystem::path& file, const MappingTarget& overrides) {
    return load_mapping_case_text(read_file_text(file), file.string(), overrides);
}

MappingCase load_mapping_argument(const std::string& argument, const MappingTarget& overrides) {
    if (is_regular_file_path(argument)) return load_mapping_case(argument, overrides);
    if (detect_mapping_form(argument) == MappingForm::text &&
        argument.find('\n') == std::string::npos) {
        return load_mapping_case_text(argument, std::string(kMappingTextSource), overrides);
    }
    throw SpecError({argument, 0, 0}, "--mapping", "no such mapping file",
                    "a mapping file (YAML, JSON or the one-line form), or a one-line mapping "
                    "such as \"DRAM[N16 K4] GLB[X:C16 Y:K16] RF[R3 S3]\"");
}

namespace {

// For a network violation: the `spatial_x` / `spatial_y` key, at the level or
// below it, whose loops spread the tensor along the axis no network covers.
SpecNode network_key(const MappingCase& c, const MappingViolation& v, const SpecNode& entry) {
    const bool along_x = (v.actual & kAxisX) != 0;
    const char* key = along_x ? "spatial_x" : "spatial_y";
    for (std::size_t l = std::size_t(v.level); l < c.mapping.num_levels; ++l) {
        const LoopList& loops =
            along_x ? c.mapping.level(l).spatial_x : c.mapping.level(l).spatial_y;
        if (loops.empty()) continue;
        const SpecNode level = l == std::size_t(v.level)
                                   ? entry
                                   : level_entry(SpecNode::load_string(c.text, c.file.string()),
                                                 c.arch.levels[l].name);
        if (const YAML::Node node = level.raw()[key])
            return level.sibling(node, level.path() + "." + key);
        return level;
    }
    return entry;
}

// Turns an invalid evaluation into a SpecError at the file's entry for the level at fault.
Evaluation valid_or_throw(const MappingCase& c, Evaluation e) {
    if (e.valid()) return e;
    const MappingViolation& v = *e.violation;
    const std::string level = v.level >= 0 ? c.arch.levels[std::size_t(v.level)].name : "";
    const std::string message = fmt::format("invalid mapping ({}): {}", violation_kind_name(v.kind),
                                            describe(v, c.arch, *c.problem));
    const std::string expected = "a mapping that fits the problem and the architecture";
    if (c.form == MappingForm::yaml) {
        const SpecNode root = SpecNode::load_string(c.text, c.file.string());
        // A violation of the whole mapping (e.g. a factor product) points at the list.
        const SpecNode entry = level_entry(root, level);
        if (v.kind == ViolationKind::network)
            network_key(c, v, entry).fail(message, expected, fix_for(v.kind));
        entry.fail(message, expected, fix_for(v.kind));
    }
    // JSON and text: the level by name (their parsers checked the spelling).
    throw SpecError({c.file.string(), 0, 0}, level.empty() ? "mapping" : level, message, expected,
                    fix_for(v.kind));
}

}  // namespace

Evaluation evaluate_case(const MappingCase& c) {
    return valid_or_throw(c, evaluate(c.arch_model, *c.problem, c.mapping));
}

Evaluation evaluate_case(const MappingCase& c, const PhaseDensities& densities,
                         const ImbalanceOptions& imbalance) {
    return valid_or_throw(c, evaluate(c.arch_model, *c.problem, c.mapping, densities, imbalance));
}

}  // namespace trainloop
