#include "timeloop/timeloop_sparse_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "arch/sparse_features.hpp"
#include "common/did_you_mean.hpp"
#include "common/spec_reading.hpp"

namespace trainloop {
namespace {

// Timeloop's density distributions (src/workload/density-models/).
const std::vector<std::string> kDistributions = {"fixed-structured", "hypergeometric", "banded"};

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

std::vector<std::string> storage_names(const TimeloopSpec& spec) {
    std::vector<std::string> names;
    for (const TimeloopStorage& s : spec.arch.storage) names.push_back(s.name);
    return names;
}

void read_ranks(const SpecNode& node, TimeloopRepresentation& r, TimeloopSpec& spec) {
    for (const SpecNode& rank : node.items()) {
        MapReader map(rank);
        const SpecNode format = map.required("format");
        const auto known = rank_format_named(format.as_string());
        if (!known) {
            const std::vector<std::string> names(kRankFormatNames.begin(), kRankFormatNames.end());
            format.fail(fmt::format("unknown rank format `{}`", quoted_excerpt(format.as_string())),
                        "UOP, UB, CP, B or RLE", suggestion_hint(upper(format.as_string()), names));
        }
        const std::string name(rank_format_name(*known));
        // The widths become the fibertree format's `index_bits`
        // (timeloop_sparse_import.cpp).
        TimeloopRankWidths widths;
        if (auto v = map.optional("metadata-word-bits")) {
            widths.metadata_bits = v->as_non_negative_int();
            widths.metadata_location = v->location();
        }
        if (auto v = map.optional("payload-word-bits")) {
            widths.payload_bits = v->as_non_negative_int();
            widths.payload_location = v->location();
        }
        if (auto v = map.optional("flattened-rankIDs")) {
            spec.notes.push_back(fmt::format(
                "{}: `flattened-rankIDs` is not read: trainloop gives a tile's ranks its loops "
                "itself, the outer ones flattened into the top rank (docs/sparse_formats.md, "
                "\"Fibertree formats\")",
                format_location(v->location())));
        }
        map.finish();
        r.ranks.push_back(name);
        r.widths.push_back(widths);
    }
    if (r.ranks.empty()) node.fail("an empty list of ranks", "at least one `{format: ...}`");
}

void read_representation(const SpecNode& node, const std::string& level, TimeloopSpec& spec) {
    MapReader map(node);
    const SpecNode spaces = map.required("data-spaces");
    map.finish();
    for (const SpecNode& item : spaces.items()) {
        MapReader entry(item);
        TimeloopRepresentation r;
        r.level = level;
        r.location = item.location();
        r.space = read_timeloop_data_space(entry.required("name"));
        read_ranks(entry.required("ranks"), r, spec);
        for (const char* key : {"compression-rate", "rank-application-order"}) {
            if (auto v = entry.optional(key)) {
                v->fail(fmt::format("Sparseloop's `{}` has no trainloop equivalent", key),
                        "a representation format given by its ranks only",
                        "trainloop compresses a tile fully and gives its ranks the tile's "
                        "loops outer to inner");
            }
        }
        entry.finish();
        for (const TimeloopRepresentation& other : spec.sparse.formats) {
            if (other.level == level && other.space == r.space) {
                item.fail(fmt::format("a second representation format for {} at `{}`",
                                      kTimeloopSpaceNames[std::size_t(r.space)], level),
                          "one format per data space and level");
            }
        }
        spec.sparse.formats.push_back(std::move(r));
    }
}

std::vector<TimeloopDataSpace> read_space_list(const SpecNode& node) {
    std::vector<TimeloopDataSpace> spaces;
    const std::vector<SpecNode> items =
        node.is_scalar() ? std::vector<SpecNode>{node} : node.items();
    for (const SpecNode& item : items) spaces.push_back(read_timeloop_data_space(item));
    if (spaces.empty()) node.fail("an empty `condition-on` list", "one or more data spaces");
    return spaces;
}

// One `{target, condition-on}` option; `direct`: written in the optimization
// itself (beside its `type`) rather than under `options:`.
void read_action_option(const SpecNode& node, TimeloopActionOptimization a, TimeloopSpec& spec,
                        bool direct) {
    MapReader map(node);
    if (direct) map.allow({"type"});
    a.target = read_timeloop_data_space(map.required("target"));
    a.condition_on = read_space_list(map.required("condition-on"));
    map.finish();
    a.location = node.location();
    spec.sparse.actions.push_back(a);
}

void read_actions(const SpecNode& node, const std::string& level, TimeloopSpec& spec) {
    for (const SpecNode& item : node.items()) {
        MapReader map(item);
        const SpecNode type = map.required("type");
        const std::string kind = type.as_choice({"skipping", "gating", "skipping-spatial"});
        if (kind == "skipping-spatial") {
            type.fail("Sparseloop's `skipping-spatial` has no trainloop equivalent",
                      "skipping or gating",
                      "trainloop's load-imbalance model covers spatial skipping of whole PEs' "
                      "work through the architecture's `load_balancing`");
        }
        TimeloopActionOptimization a;
        a.level = level;
        a.kind = kind == "gating" ? TimeloopActionOptimization::Kind::gating
                                  : TimeloopActionOptimization::Kind::skipping;
        if (auto options = map.optional("options")) {
            map.finish();
            for (const SpecNode& option : options->items())
                read_action_option(option, a, spec, false);
        } else {
            // An unknown key first: a misspelled `options` is named as such.
            map.allow({"target", "condition-on"});
            map.finish();
            read_action_option(item, a, spec, true);
        }
    }
}

void read_compute(const SpecNode& node, TimeloopSpec& spec) {
    TimeloopComputeOptimization c;
    c.location = node.location();
    for (const SpecNode& item : node.items()) {
        MapReader map(item);
        const std::string type = map.required("type").as_choice(
            {"gating", "gate-on-zero-operand", "skipping", "skip_on_not_aligned_operands"});
        map.finish();
        (type == "gating" || type == "gate-on-zero-operand" ? c.gating : c.skipping) = true;
    }
    spec.sparse.compute = c;
}

TimeloopDensity read_density(const SpecNode& node) {
    TimeloopDensity d;
    d.location = node.location();
    if (node.is_scalar()) {
        d.density = node.as_fraction();
        return d;
    }
    MapReader map(node);
    d.density = map.required("density").as_fraction();
    if (auto distribution = map.optional("distribution")) {
        d.distribution = distribution->as_choice(kDistributions);
    }
    map.finish();
    return d;
}

}  // namespace

TimeloopDataSpace read_timeloop_data_space(const SpecNode& node) {
    const std::vector<std::string> names(kTimeloopSpaceNames.begin(), kTimeloopSpaceNames.end());
    const std::string name = node.as_choice(names);
    return TimeloopDataSpace(std::find(names.begin(), names.end(), name) - names.begin());
}

void read_sparse_optimizations(const SpecNode& node, TimeloopSpec& spec) {
    MapReader top(node);
    top.allow({"version"});
    const SpecNode targets = top.required("targets");
    top.finish();
    std::vector<std::string> known = storage_names(spec);
    known.push_back(spec.arch.arithmetic.name);
    for (const SpecNode& item : targets.items()) {
        MapReader map(item);
        const SpecNode name_node = map.required("name");
        const std::string name = name_node.as_string();
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            spec_reading::fail_unknown_name(name_node, "sparse optimization target", name, known);
        }
        const bool compute = name == spec.arch.arithmetic.name;
        if (auto formats = map.optional("representation-format")) {
            if (compute)
                formats->fail("a representation format for the arithmetic unit",
                              "formats at storage levels");
            read_representation(*formats, name, spec);
        }
        if (auto actions = map.optional("action-optimization")) {
            if (compute)
                actions->fail("an action optimization for the arithmetic unit",
                              "`compute-optimization` for the arithmetic unit");
            read_actions(*actions, name, spec);
        }
        if (auto c = map.optional("compute-optimization")) {
            if (!compute) {
                c->fail(fmt::format("a compute optimization for storage level `{}`", name),
                        fmt::format("`compute-optimization` under the arithmetic unit `{}`",
                                    spec.arch.arithmetic.name));
            }
            read_compute(*c, spec);
        }
        map.finish();
    }
}

void read_densities(const SpecNode& node, TimeloopProblem& problem) {
    MapReader map(node);
    for (TimeloopDataSpace space :
         {TimeloopDataSpace::weights, TimeloopDataSpace::inputs, TimeloopDataSpace::outputs}) {
        if (auto d = map.optional(kTimeloopSpaceNames[std::size_t(space)])) {
            problem.densities[std::size_t(space)] = read_density(*d);
        }
    }
    map.finish();
}

void read_common_density(const SpecNode& node, TimeloopProblem& problem) {
    const TimeloopDensity d = read_density(node);
    for (auto& slot : problem.densities) slot = d;
}

}  // namespace trainloop
