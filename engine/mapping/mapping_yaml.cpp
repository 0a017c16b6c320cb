#include "mapping/mapping_yaml.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <vector>

#include "common/yaml_text.hpp"
#include "mapping/mapping_syntax.hpp"

namespace trainloop {
namespace {

using namespace mapping_syntax;

template <typename T>
T take(Parsed<T> parsed, const SpecNode& node) {
    if (const auto* problem = std::get_if<SyntaxProblem>(&parsed)) {
        node.fail(problem->message, problem->expected, problem->hint);
    }
    return std::get<T>(std::move(parsed));
}

std::string describe(const SpecNode& node) {
    if (node.is_null()) return "nothing";
    if (node.is_map()) return "a mapping";
    if (node.is_sequence()) return "a list";
    return fmt::format("`{}`", quoted_excerpt(node.raw().Scalar()));
}

// ---- `for:` ---------------------------------------------------------------

std::string read_text(const SpecNode& node) {
    std::string text = node.as_string();
    if (text.empty()) node.fail("empty value", "a non-empty name or path");
    return text;
}

std::filesystem::path resolve(const SpecNode& root, const std::string& relative) {
    // operator/ keeps an absolute right-hand side as is.
    return (std::filesystem::path(root.file()).parent_path() / relative).lexically_normal();
}

MappingTarget read_target(const SpecNode& node, const SpecNode& root) {
    MapReader reader(node);
    reader.allow({"arch", "workload", "layer", "phase", "batch"});
    reader.finish();
    MappingTarget target;
    if (const auto arch = reader.optional("arch")) target.arch = resolve(root, read_text(*arch));
    if (const auto workload = reader.optional("workload")) {
        const std::string text = read_text(*workload);
        target.workload = workload_is_path(text) ? resolve(root, text).string() : text;
    }
    if (const auto layer = reader.optional("layer")) target.layer = read_text(*layer);
    if (const auto phase = reader.optional("phase")) {
        std::vector<std::string> choices;
        for (Phase p : kAllPhases) choices.emplace_back(phase_name(p));
        target.phase = phase_from_name(phase->as_choice(choices));
    }
    if (const auto batch = reader.optional("batch")) target.batch = batch->as_positive_int();
    return target;
}

MapReader top_reader(const SpecNode& root) {
    MapReader top(root);
    top.allow({"for", "mapping"});
    top.finish();
    return top;
}

// ---- `mapping:` -----------------------------------------------------------

void read_loops(const SpecNode& node, std::string_view key, LoopList& list,
                const ProblemShape& shape) {
    if (!node.is_sequence()) {
        std::string hint;
        if (node.is_null()) {
            hint = fmt::format("write `{}: []` for no loops, or leave the key out", key);
        } else if (node.is_scalar()) {
            hint = fmt::format("write it as a list: `{}: [{}]`", key, node.raw().Scalar());
        }
        node.fail(fmt::format("expected a list of loops, got {}", describe(node)),
                  "a list of loops such as [K4, C2]", hint);
    }
    for (const SpecNode& item : node.items()) {
        const Loop loop = take(parse_loop_token(item.as_string(), shape), item);
        if (auto problem = append_loop(list, loop, key, shape)) {
            item.fail(problem->message, problem->expected, problem->hint);
        }
    }
}

DataSpaceSet read_keep(const SpecNode& node, KeepKey key, const StorageLevel& level) {
    if (!node.is_sequence() && !node.is_scalar()) {
        node.fail(fmt::format("expected a list of data spaces, got {}", describe(node)),
                  fmt::format("a list of data spaces: {}", data_space_names()),
                  node.is_null() ? fmt::format("write `{}: []` for none, or leave the key out",
                                               keep_key_name(key))
                                 : std::string());
    }
    DataSpaceSet listed;
    const std::vector<SpecNode> items =
        node.is_sequence() ? node.items() : std::vector<SpecNode>{node};
    for (const SpecNode& item : items) {
        if (auto problem = add_listed_data_space(listed, item.as_string(), key, level)) {
            item.fail(problem->message, problem->expected, problem->hint);
        }
    }
    return kept_data_spaces(key, listed, level);
}

void read_level(const SpecNode& node, const Architecture& arch, LevelSequence& sequence,
                Mapping& mapping, const ProblemShape& shape) {
    MapReader reader(node);
    reader.allow({"level", "temporal", "spatial_x", "spatial_y", "keep", "bypass"});
    reader.finish();
    const SpecNode name = reader.required("level");
    const std::size_t index = take(sequence.next(name.as_string()), name);
    const StorageLevel& level = arch.levels[index];
    LevelMapping& out = mapping.levels[index];
    if (const auto temporal = reader.optional("temporal"))
        read_loops(*temporal, "temporal", out.temporal, shape);
    if (const auto x = reader.optional("spatial_x")) {
        read_loops(*x, "spatial_x", out.spatial_x, shape);
    }
    if (const auto y = reader.optional("spatial_y")) {
        read_loops(*y, "spatial_y", out.spatial_y, shape);
    }
    const auto keep = reader.optional("keep");
    const auto bypass = reader.optional("bypass");
    if (keep && bypass) {
        bypass->fail(fmt::format("level `{}` has both `keep:` and `bypass:`", level.name),
                     "either `keep:` or `bypass:`",
                     "list what the level keeps, or what bypasses it");
    }
    if (keep) out.keep = read_keep(*keep, KeepKey::keep, level);
    if (bypass) out.keep = read_keep(*bypass, KeepKey::bypass, level);
}

// ---- printing -------------------------------------------------------------

std::string flow_list(const LoopList& loops, const ProblemShape& shape) {
    std::vector<std::string> tokens;
    for (const Loop& loop : loops) tokens.push_back(loop_token(loop, shape));
    return fmt::format("[{}]", fmt::join(tokens, ", "));
}

}  // namespace

MappingTarget read_mapping_target(const SpecNode& root) {
    MapReader top = top_reader(root);
    if (const auto node = top.optional("for")) return read_target(*node, root);
    return {};
}

ParsedMapping parse_mapping_yaml(const SpecNode& root, const Architecture& arch,
                                 const ProblemShape& shape) {
    MapReader top = top_reader(root);
    ParsedMapping parsed;
    if (const auto node = top.optional("for")) parsed.target = read_target(*node, root);
    const SpecNode list = top.required("mapping");
    parsed.mapping = take(default_mapping(arch), list);
    if (!list.is_sequence()) {
        list.fail(fmt::format("expected a list of levels, got {}", describe(list)),
                  "a list of levels, each `- level: NAME` with its loops");
    }
    LevelSequence sequence(arch);
    for (const SpecNode& item : list.items()) {
        read_level(item, arch, sequence, parsed.mapping, shape);
    }
    return parsed;
}

std::string mapping_to_yaml(const Mapping& mapping, const Architecture& arch,
                            const std::optional<MappingTarget>& target, const ProblemShape& shape) {
    if (mapping.num_levels != arch.levels.size()) {
        throw std::invalid_argument(
            fmt::format("mapping_to_yaml: the mapping has {} levels, architecture `{}` has {}",
                        mapping.num_levels, arch.name, arch.levels.size()));
    }
    std::string out;
    if (target && !target->empty()) {
        out += "for:\n";
        if (target->arch) out += fmt::format("  arch: {}\n", yaml_scalar(target->arch->string()));
        if (target->workload)
            out += fmt::format("  workload: {}\n", yaml_scalar(*target->workload));
        if (target->layer) out += fmt::format("  layer: {}\n", yaml_scalar(*target->layer));
        if (target->phase) out += fmt::format("  phase: {}\n", phase_name(*target->phase));
        if (target->batch) out += fmt::format("  batch: {}\n", *target->batch);
    }
    out += arch.levels.empty() ? "mapping: []\n" : "mapping:\n";
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const LevelMapping& level = mapping.levels[i];
        out += fmt::format("  - level: {}\n", yaml_scalar(arch.levels[i].name));
        out += fmt::format("    temporal: {}\n", flow_list(level.temporal, shape));
        if (!level.spatial_x.empty()) {
            out += fmt::format("    spatial_x: {}\n", flow_list(level.spatial_x, shape));
        }
        if (!level.spatial_y.empty()) {
            out += fmt::format("    spatial_y: {}\n", flow_list(level.spatial_y, shape));
        }
        if (const auto spelling = keep_spelling(level.keep, arch.levels[i])) {
            std::vector<std::string_view> names;
            for (DataSpace s : spelling->spaces) names.push_back(data_space_name(s));
            out +=
                fmt::format("    {}: [{}]\n", keep_key_name(spelling->key), fmt::join(names, ", "));
        }
    }
    return out;
}

}  // namespace trainloop
