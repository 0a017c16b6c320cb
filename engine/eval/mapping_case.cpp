#include "eval/mapping_case.hpp"

#include <fmt/format.h>

#include "arch/architecture_parser.hpp"
#include "constraints/architecture_spec.hpp"
#include "mapping/mapping_yaml.hpp"
#include "problem/problem_lookup.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

template <typename T>
T pick(const std::optional<T>& from_option, const std::optional<T>& from_file, const SpecNode& file,
       const char* key) {
    if (from_option) return *from_option;
    if (from_file) return *from_file;
    file.fail(fmt::format("no {} given for this mapping", key),
              fmt::format("`--{}` on the command line, or `for: {{{}: ...}}` in the mapping file",
                          key, key));
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
                   "to its size";
        case ViolationKind::fanout_x:
        case ViolationKind::fanout_y:
            return "spread fewer or smaller factors over the array at this level";
        case ViolationKind::capacity:
            return "move a loop to an outer level, or bypass a tensor at this level";
        case ViolationKind::keep_forbidden:
        case ViolationKind::outermost_bypass:
            return "change the level's keep/bypass list";
        case ViolationKind::level_count:
            return "map every level of the architecture";
    }
    return {};
}

}  // namespace

MappingCase load_mapping_case(const std::filesystem::path& file, const MappingTarget& overrides) {
    const SpecNode root = SpecNode::load_file(file);
    const MappingTarget from_file = read_mapping_target(root);
    MappingCase c;
    c.file = file;
    c.target.arch = pick(overrides.arch, from_file.arch, root, "arch");
    c.target.workload = pick(overrides.workload, from_file.workload, root, "workload");
    c.target.layer = pick(overrides.layer, from_file.layer, root, "layer");
    c.target.phase = pick(overrides.phase, from_file.phase, root, "phase");
    c.target.batch = overrides.batch.value_or(from_file.batch.value_or(kDefaultBatch));

    // A spec the file's `for:` names is blamed on that key when it is broken.
    auto load = [&](const std::optional<std::string>& given, const char* key, const char* what,
                    auto&& read) {
        const YAML::Node target = root.raw()["for"];
        if (given || !target.IsMap() || !target[key]) return read();
        return load_referenced(root.sibling(target[key], fmt::format("for.{}", key)), what, read);
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
                                    {file.string(), 0, 0});
    c.mapping = parse_mapping_yaml(root, c.arch).mapping;
    return c;
}

namespace {

// Turns an invalid evaluation into a SpecError at the file's entry for the level at fault.
Evaluation valid_or_throw(const MappingCase& c, Evaluation e) {
    if (e.valid()) return e;
    const MappingViolation& v = *e.violation;
    const SpecNode root = SpecNode::load_file(c.file);
    // A violation of the whole mapping (e.g. a factor product) points at the list.
    const SpecNode at =
        level_entry(root, v.level >= 0 ? c.arch.levels[std::size_t(v.level)].name : "");
    at.fail(fmt::format("invalid mapping ({}): {}", violation_kind_name(v.kind),
                        describe(v, c.arch, *c.problem)),
            "a mapping that fits the problem and the architecture", fix_for(v.kind));
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
