// Parses a sparsity profile YAML file (docs/sparsity_format.md) into a
// SparsityProfile. Every check on user input happens here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "common/did_you_mean.hpp"
#include "common/spec_reading.hpp"
#include "density/glob.hpp"
#include "density/npy_mask.hpp"
#include "density/sparsity_profile.hpp"
#include "density/tensor_phases.hpp"

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
            item.fail(fmt::format("bad pattern `{}`: {}", quoted_excerpt(pattern), *problem),
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

std::vector<std::string> names_of(std::initializer_list<std::string_view> names) {
    return {names.begin(), names.end()};
}

DensityModel read_n_m(MapReader& params) {
    NMModel m;
    const SpecNode n = params.required("n");
    const SpecNode mm = params.required("m");
    m.n = n.as_positive_int();
    m.m = mm.as_positive_int();
    if (m.n > m.m) {
        n.fail(fmt::format("n = {} exceeds m = {}", m.n, m.m),
               "n <= m (n nonzeros in every m elements)", "2:4 sparsity is `n: 2, m: 4`");
    }
    if (auto a = params.optional("axis")) {
        const std::string axis =
            a->as_choice(names_of({"n", "g", "k", "c", "r", "s", "h", "w", "p", "q"}));
        m.axis = axis[0];
    }
    return m;
}

DensityModel read_clustered(MapReader& params) {
    ClusteredModel m;
    if (auto d = params.optional("distribution")) {
        const std::string name = d->as_choice(names_of({kClusterDistributionNames[0]}));
        static_cast<void>(name);
        m.distribution = ClusterDistribution::beta;
    }
    const SpecNode cv = params.required("cv");
    m.cv = cv.as_double();
    if (!(m.cv >= 0) || m.cv > 100) {
        cv.fail(fmt::format("coefficient of variation {} out of range", m.cv),
                "a number >= 0 (standard deviation / mean of the cluster densities), e.g. 0.6");
    }
    if (auto u = params.optional("unit")) {
        const std::string unit = u->as_choice(
            names_of({kClusterUnitNames[0], kClusterUnitNames[1], kClusterUnitNames[2]}));
        for (std::size_t i = 0; i < 3; ++i) {
            if (unit == kClusterUnitNames[i]) m.unit = ClusterUnit(i);
        }
    }
    return m;
}

DensityModel read_mask(MapReader& params, const SpecNode& model_node) {
    const SpecNode file = params.required("file");
    std::filesystem::path path = file.as_string();
    if (path.empty()) file.fail("an empty mask file path", "the path of a .npy file");
    if (path.is_relative()) {
        path = std::filesystem::path(model_node.file()).parent_path() / path;
    }
    try {
        return MaskModel{std::make_shared<const MaskTensor>(read_npy_mask(path))};
    } catch (const SpecError& e) {
        // Point at the rule's `file:` key, and name the mask file in the message.
        file.fail(fmt::format("mask file {}: {}", path.string(), e.message()), e.expected(),
                  e.hint());
    }
}

// A model's parameters sit either inline (`{name: n_m, n: 2, m: 4}`) or
// under `parameters:` (`{name: n_m, parameters: {n: 2, m: 4}}`), not both.
DensityModel read_model(const SpecNode& node) {
    std::optional<SpecNode> name_node;
    std::optional<MapReader> map;
    if (node.is_scalar()) {
        name_node = node;
    } else if (node.is_map()) {
        map.emplace(node);
        name_node = map->required("name");
    } else {
        node.fail("expected a model name or a mapping with `name:` and the model's parameters",
                  "e.g. `model: uniform` or `model: {name: clustered, cv: 0.6, unit: filter}`");
    }
    const std::string name = name_node->as_string();
    const auto& implemented = implemented_density_models();
    if (std::find(implemented.begin(), implemented.end(), name) == implemented.end()) {
        name_node->fail(fmt::format("unknown density model `{}`", quoted_excerpt(name)),
                        fmt::format("one of {}", fmt::join(implemented, ", ")),
                        suggestion_hint(name, implemented));
    }
    // The parameters: inline beside `name:`, or in a `parameters:` map (not both).
    std::optional<SpecNode> nested = map ? map->optional("parameters") : std::nullopt;
    if (nested && !nested->is_null() && node.raw().size() > 2) {
        nested->fail(
            "give the model's parameters either beside `name:` or under `parameters:`, not both",
            "one place for the parameters");
    }
    std::optional<MapReader> params;
    if (nested && !nested->is_null()) {
        params.emplace(*nested);
    } else if (map) {
        map->allow({"parameters"});
        params.emplace(node);
        params->allow({"name", "parameters"});
    }
    DensityModel model = UniformModel{};
    if (name == "even") model = EvenModel{};
    if (name == "hypergeometric") model = HypergeometricModel{};
    if ((name == "uniform" || name == "even" || name == "hypergeometric") && params) {
        const SpecNode& holder = params->node();
        static_cast<void>(MapReader(holder));  // fails unless it is a mapping
        for (const auto& entry : holder.raw()) {
            const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "<key>";
            if (!nested && (key == "name" || key == "parameters")) continue;
            holder.sibling(entry.first, child_key_path(holder.path(), key))
                .fail(fmt::format("density model `{}` takes no parameters, got `{}`", name,
                                  quoted_excerpt(key)),
                      "no parameters", "models with parameters: n_m, clustered, mask");
        }
        return model;
    }
    if (name == "n_m") {
        if (!params)
            node.fail("model `n_m` needs `n:` and `m:`", "{name: n_m, n: 2, m: 4, axis: c}");
        model = read_n_m(*params);
    } else if (name == "clustered") {
        if (!params)
            node.fail("model `clustered` needs `cv:`", "{name: clustered, cv: 0.6, unit: filter}");
        model = read_clustered(*params);
    } else if (name == "mask") {
        if (!params) node.fail("model `mask` needs `file:`", "{name: mask, file: conv1_w.npy}");
        model = read_mask(*params, node);
    }
    if (params) params->finish();  // unknown parameters get a did-you-mean
    return model;
}

// The checks of a rule's model that need the rule's tensors: the axis or
// cluster unit must exist in each tensor, a mask belongs to one tensor, and
// the density follows from n_m and mask models.
void check_model_against_tensors(const SpecNode& model_node, const SparsityRule& rule) {
    struct Check {
        const SpecNode& node;
        const SparsityRule& rule;
        void operator()(const UniformModel&) const {}
        void operator()(const EvenModel&) const {}
        void operator()(const HypergeometricModel&) const {}
        void operator()(const NMModel& m) const {
            for (TensorName t : rule.tensors) {
                const DataSpace s = data_space_of(t);
                if (tensor_axis_index(s, m.axis) >= 0) continue;
                node.fail(fmt::format("tensor `{}` has no axis `{}` for the n_m blocks",
                                      tensor_name(t), m.axis),
                          fmt::format("an axis of `{}`: one of {}", tensor_name(t),
                                      fmt::join(tensor_axis_letters(s), ", ")),
                          "weights are [g,k,c,r,s], inputs [n,g,c,h,w], outputs [n,g,k,p,q]");
            }
        }
        void operator()(const ClusteredModel& m) const {
            if (m.unit != ClusterUnit::filter) return;
            for (TensorName t : rule.tensors) {
                if (data_space_of(t) == DataSpace::weights) continue;
                node.fail(fmt::format("tensor `{}` has no filters (unit `filter` is for w and dw)",
                                      tensor_name(t)),
                          "unit `channel` or `row` for activations and gradients");
            }
        }
        void operator()(const MaskModel&) const {
            if (rule.tensors.size() != 1) {
                node.fail("a mask file belongs to one tensor, this rule lists several",
                          "one tensor in `tensors:`",
                          "give each tensor its own rule and mask file");
            }
        }
    };
    std::visit(Check{model_node, rule}, rule.model);
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

    auto model = map.optional("model");
    rule.model = model ? read_model(*model) : default_model;
    check_model_against_tensors(model ? *model : node, rule);
    auto density = map.optional("density");
    auto schedule = map.optional("schedule");
    // A mask gives its own density; n_m fixes it to n/m.
    if (const auto* mask = std::get_if<MaskModel>(&rule.model)) {
        if (density || schedule) {
            (density ? *density : *schedule)
                .fail("a rule with a `mask` model takes its density from the mask",
                      "no `density:` or `schedule:` beside `model: {name: mask, ...}`");
        }
        rule.schedule = constant_schedule(mask->mask->density);
        return rule;
    }
    if (const auto* nm = std::get_if<NMModel>(&rule.model)) {
        if (schedule) schedule->fail("an n_m model has the constant density n/m", "no `schedule:`");
        if (density && std::abs(density->as_fraction() - nm->density()) > 1e-9) {
            density->fail(fmt::format("density {} contradicts the n_m model ({}:{} = {})",
                                      density->as_fraction(), nm->n, nm->m, nm->density()),
                          fmt::format("density {} or no `density:`", nm->density()));
        }
        rule.schedule = constant_schedule(nm->density());
        return rule;
    }
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
    profile.name = spec_reading::read_name(name);
    if (auto n = top.optional("description")) profile.description = n->as_string();
    if (auto n = top.optional("source")) profile.source = n->as_string();
    if (auto n = top.optional("model")) {
        profile.default_model = read_model(*n);
        if (std::holds_alternative<MaskModel>(profile.default_model)) {
            n->fail("a mask cannot be the default model (it belongs to one tensor)",
                    "uniform, even, hypergeometric, n_m or clustered",
                    "give the mask in the rule of its tensor");
        }
    }
    for (const SpecNode& rule : top.required("rules").items()) {
        profile.rules.push_back(read_rule(rule, profile.default_model));
    }
    return profile;
}

SparsityProfile load_sparsity_profile(const std::filesystem::path& path) {
    return parse_sparsity_profile(SpecNode::load_file(path));
}

}  // namespace trainloop
