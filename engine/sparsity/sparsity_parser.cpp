// Parses a sparsity profile YAML file (docs/sparsity_format.md) into a
// SparsityProfile. Every check on user input happens here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/did_you_mean.hpp"
#include "sparsity/glob.hpp"
#include "sparsity/sparsity_profile.hpp"
#include "sparsity/tensor_phases.hpp"

namespace trainloop {
namespace {

// A scalar, or a non-empty list of scalars, as nodes (so errors point at the item).
std::vector<SpecNode> one_or_more(const SpecNode& node, const std::string& what) {
    if (node.is_scalar()) return {node};
    if (!node.is_sequence()) {
        node.fail(fmt::format("expected {} or a list of them", what),
                  fmt::format("{}, or [a, b, ...]", what));
    }
    std::vector<SpecNode> items = node.items();
    if (items.empty()) node.fail("empty list", fmt::format("at least one {}", what));
    return items;
}

std::vector<std::string> read_patterns(const SpecNode& node, const std::string& what) {
    std::vector<std::string> patterns;
    for (const SpecNode& item : one_or_more(node, what)) {
        std::string pattern = item.as_string();
        if (auto problem = glob_problem(pattern)) {
            item.fail(fmt::format("bad pattern `{}`: {}", pattern, *problem),
                      fmt::format("{} or a pattern using `*` and `?`", what),
                      "to match several names, give a list of patterns");
        }
        patterns.push_back(std::move(pattern));
    }
    return patterns;
}

std::vector<std::string> tensor_names() {
    std::vector<std::string> names;
    for (TensorName t : kAllTensorNames) names.emplace_back(tensor_name(t));
    return names;
}

std::vector<std::string> phase_names() {
    std::vector<std::string> names;
    for (Phase p : kAllPhases) names.emplace_back(phase_name(p));
    return names;
}

std::vector<TensorName> read_tensors(const SpecNode& node) {
    std::vector<TensorName> tensors;
    for (const SpecNode& item : one_or_more(node, "a tensor name")) {
        const TensorName t = *tensor_from_name(item.as_choice(tensor_names()));
        if (std::find(tensors.begin(), tensors.end(), t) == tensors.end()) tensors.push_back(t);
    }
    return tensors;
}

// Each listed phase must be one that every listed tensor appears in.
std::vector<Phase> read_phases(const SpecNode& node, const std::vector<TensorName>& tensors) {
    std::vector<Phase> phases;
    for (const SpecNode& item : one_or_more(node, "a phase name")) {
        const Phase p = *phase_from_name(item.as_choice(phase_names()));
        for (TensorName t : tensors) {
            if (tensor_in_phase_at_all(t, p)) continue;
            const TensorName there = tensor_in_phase(p, data_space_of(t));
            item.fail(
                fmt::format("tensor `{}` does not appear in phase `{}` (it appears in {})",
                            tensor_name(t), phase_name(p), describe_phases(phases_of(t))),
                fmt::format("a phase of `{}`: {}", tensor_name(t), describe_phases(phases_of(t))),
                fmt::format("in {} the {} data space holds `{}`; give it its own rule, or leave "
                            "`phases:` out to mean all of the tensor's phases",
                            phase_name(p), data_space_name(data_space_of(t)), tensor_name(there)));
        }
        if (std::find(phases.begin(), phases.end(), p) == phases.end()) phases.push_back(p);
    }
    return phases;
}

DensitySchedule read_schedule(const SpecNode& node) {
    MapReader map(node);
    map.allow({"interpolation", "points"});
    map.finish();
    DensitySchedule schedule;
    if (auto n = map.optional("interpolation")) {
        schedule.interpolation = *interpolation_from_name(n->as_choice({"linear", "step"}));
    }
    const SpecNode points = map.required("points");
    const std::vector<SpecNode> items = points.items();
    if (items.empty()) {
        points.fail("a schedule needs at least one point",
                    "a list of {iteration: i, density: d} points");
    }
    for (const SpecNode& item : items) {
        MapReader point(item);
        point.allow({"iteration", "density"});
        point.finish();
        const SpecNode iteration = point.required("iteration");
        SchedulePoint p{iteration.as_non_negative_int(), point.required("density").as_fraction()};
        if (!schedule.points.empty() && p.iteration <= schedule.points.back().iteration) {
            iteration.fail(fmt::format("iteration {} does not come after the previous point's {}",
                                       p.iteration, schedule.points.back().iteration),
                           "iterations in strictly increasing order");
        }
        schedule.points.push_back(p);
    }
    return schedule;
}

DensityModel read_model(const SpecNode& node) {
    std::optional<SpecNode> name_node;
    std::optional<SpecNode> parameters;
    if (node.is_scalar()) {
        name_node = node;
    } else if (node.is_map()) {
        MapReader map(node);
        map.allow({"name", "parameters"});
        map.finish();
        name_node = map.required("name");
        parameters = map.optional("parameters");
    } else {
        node.fail("expected a model name or a mapping with `name:` and `parameters:`",
                  "e.g. `model: uniform` or `model: {name: uniform}`");
    }
    const std::string name = name_node->as_string();
    const auto& implemented = implemented_density_models();
    const auto& planned = planned_density_models();
    if (std::find(planned.begin(), planned.end(), name) != planned.end()) {
        name_node->fail(fmt::format("density model `{}` is not implemented yet", name),
                        fmt::format("one of {}", fmt::join(implemented, ", ")),
                        fmt::format("planned models: {}", fmt::join(planned, ", ")));
    }
    if (std::find(implemented.begin(), implemented.end(), name) == implemented.end()) {
        std::vector<std::string> all = implemented;
        all.insert(all.end(), planned.begin(), planned.end());
        name_node->fail(fmt::format("unknown density model `{}`", name),
                        fmt::format("one of {}", fmt::join(implemented, ", ")),
                        suggestion_hint(name, all));
    }
    // uniform: the only model so far, and it takes no parameters.
    if (parameters && !parameters->is_null()) {
        static_cast<void>(MapReader(*parameters));  // fails unless it is a mapping
        for (const auto& entry : parameters->raw()) {
            const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "<key>";
            parameters->sibling(entry.first, fmt::format("{}.{}", parameters->path(), key))
                .fail(fmt::format("density model `{}` takes no parameters, got `{}`", name, key),
                      "an empty `parameters:` map, or none");
        }
    }
    return UniformModel{};
}

SparsityRule read_rule(const SpecNode& node, const DensityModel& default_model) {
    MapReader map(node);
    map.allow({"networks", "layers", "tensors", "phases", "density", "schedule", "model"});
    map.finish();
    SparsityRule rule;
    rule.location = node.location();
    if (auto n = map.optional("networks")) rule.networks = read_patterns(*n, "a network name");
    if (auto n = map.optional("layers")) rule.layers = read_patterns(*n, "a layer name");
    rule.tensors = read_tensors(map.required("tensors"));
    if (auto n = map.optional("phases")) rule.phases = read_phases(*n, rule.tensors);

    auto density = map.optional("density");
    auto schedule = map.optional("schedule");
    if (density && schedule) {
        schedule->fail("a rule gives either `density:` or `schedule:`, not both",
                       "one of `density:` or `schedule:`",
                       "a constant density is `density: d`; one that changes over training is "
                       "`schedule: {points: [...]}`");
    }
    if (!density && !schedule) {
        node.fail("missing key `density` (or `schedule`)",
                  "a `density:` entry (fraction of nonzeros) or a `schedule:` of densities");
    }
    rule.schedule = density ? constant_schedule(map.required("density").as_fraction())
                            : read_schedule(*schedule);
    auto model = map.optional("model");
    rule.model = model ? read_model(*model) : default_model;
    return rule;
}

}  // namespace

SparsityProfile parse_sparsity_profile(const SpecNode& root) {
    MapReader top(root);
    top.allow({"sparsity_profile", "description", "source", "model", "rules"});
    top.finish();
    SparsityProfile profile;
    profile.file = root.file();
    const SpecNode name = top.required("sparsity_profile");
    profile.name = name.as_string();
    if (profile.name.empty()) name.fail("empty profile name", "a name, e.g. `procrustes`");
    if (auto n = top.optional("description")) profile.description = n->as_string();
    if (auto n = top.optional("source")) profile.source = n->as_string();
    if (auto n = top.optional("model")) profile.default_model = read_model(*n);
    for (const SpecNode& rule : top.required("rules").items()) {
        profile.rules.push_back(read_rule(rule, profile.default_model));
    }
    return profile;
}

SparsityProfile load_sparsity_profile(const std::filesystem::path& path) {
    return parse_sparsity_profile(SpecNode::load_file(path));
}

}  // namespace trainloop
