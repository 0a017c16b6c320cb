#include "sweep/sweep_parser.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"
#include "common/spec_reading.hpp"
#include "evaluator/evaluators.hpp"
#include "mapspace/dataflow.hpp"
#include "training_run/schedule_samples.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> shipped_stems(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

// A path relative to the sweep file, or a shipped name in `library`.
std::string resolve_spec(const SpecNode& node, const fs::path& sweep_dir,
                         const std::string& library, const std::string& what) {
    const std::string entry = node.as_string();
    const fs::path relative = sweep_dir / entry;
    if (is_regular_file_path(relative)) return relative.lexically_normal().string();
    const fs::path shipped = data_directory() / library / (entry + ".yaml");
    if (entry.find('/') == std::string::npos && is_regular_file_path(shipped)) {
        return shipped.string();
    }
    node.fail(fmt::format("no {} `{}`", what, quoted_excerpt(entry)),
              fmt::format("a {} file (relative to the sweep file) or a shipped name", what),
              suggestion_hint(entry, shipped_stems(data_directory() / library)));
}

template <typename T>
void reject_duplicates(const std::vector<T>& values, const std::vector<SpecNode>& nodes,
                       const std::string& what) {
    for (std::size_t i = 0; i < values.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (values[i] == values[j]) {
                nodes[i].fail(fmt::format("{} listed twice", what),
                              fmt::format("each {} once", what));
            }
        }
    }
}

// A scalar or a non-empty list of scalars.
std::vector<SpecNode> axis_items(const SpecNode& node) {
    if (node.is_scalar()) return {node};
    std::vector<SpecNode> items = node.items();
    if (items.empty()) node.fail("an empty list", "at least one value");
    return items;
}

SweepArchitecture parse_architecture_entry(const SpecNode& node, const fs::path& sweep_dir) {
    SweepArchitecture arch;
    arch.location = node.location();
    if (node.is_scalar()) {
        arch.written = node.as_string();
        arch.file = resolve_spec(node, sweep_dir, "arch_specs", "architecture");
        return arch;
    }
    MapReader r(node);
    const SpecNode file = r.required("file");
    arch.written = file.as_string();
    arch.file = resolve_spec(file, sweep_dir, "arch_specs", "architecture");
    if (auto name = r.optional("name")) arch.name = spec_reading::read_name(*name);
    if (auto set = r.optional("set")) {
        if (!set->is_map()) set->fail("not a mapping", "`set: {key.path: value, ...}`");
        for (const auto& entry : set->raw()) {
            if (!entry.first.IsScalar()) {
                set->sibling(entry.first, set->path(), entry.first.Mark())
                    .fail("an override key that is not a key path", "`key.path: value`");
            }
            const std::string path = entry.first.Scalar();
            const SpecNode value =
                set->sibling(entry.second, child_key_path(set->path(), path), entry.first.Mark());
            YAML::Emitter out;
            out << YAML::Flow << entry.second;
            arch.overrides.push_back({path, out.c_str(), value.location(), value.path()});
        }
        if (arch.overrides.empty()) set->fail("no overrides", "at least one `key.path: value`");
    }
    if (!arch.overrides.empty() && !arch.name) {
        node.fail("an architecture with overrides needs a `name`",
                  "`name: my_variant` next to `file:` and `set:`",
                  "the name tells the variant apart from the file's own architecture");
    }
    r.finish();
    return arch;
}

SweepExclusion parse_exclusion(const SpecNode& node) {
    MapReader r(node);
    SweepExclusion e;
    auto given = [&e](const char* key, const SpecNode& v) {
        e.given[key] = {v.location(), v.path()};
        return v;
    };
    if (auto v = r.optional("architecture")) e.architecture = given("architecture", *v).as_string();
    if (auto v = r.optional("network")) e.network = given("network", *v).as_string();
    if (auto v = r.optional("batch")) e.batch = given("batch", *v).as_positive_int();
    if (auto v = r.optional("sparsity")) e.sparsity = given("sparsity", *v).as_string();
    if (auto v = r.optional("dataflow")) e.dataflow = given("dataflow", *v).as_string();
    if (auto v = r.optional("objective")) e.objective = given("objective", *v).as_string();
    if (auto v = r.optional("iterations")) e.iterations = given("iterations", *v).as_positive_int();
    r.finish();
    if (e.given.empty()) {
        node.fail("an exclusion with no coordinates, which would leave out every point",
                  "one or more of architecture, network, batch, sparsity, dataflow, objective, "
                  "iterations",
                  "remove the entry to keep every point");
    }
    return e;
}

}  // namespace

SweepSpec parse_sweep(const SpecNode& root, const std::string& text) {
    if (!root.is_map()) root.fail("not a sweep file", "a mapping with `sweep: NAME` at the top");
    MapReader r(root);
    SweepSpec spec;
    spec.file = root.file();
    spec.text = text;
    spec.name = spec_reading::read_name(r.required("sweep"));
    if (auto d = r.optional("description")) spec.description = d->as_string();
    const fs::path dir = fs::path(root.file()).parent_path();

    const std::vector<SpecNode> archs = axis_items(r.required("architectures"));
    for (const SpecNode& a : archs) spec.architectures.push_back(parse_architecture_entry(a, dir));

    const std::vector<SpecNode> networks = axis_items(r.required("networks"));
    for (const SpecNode& n : networks) {
        spec.network_locations.push_back(n.location());
        const std::string entry = n.as_string();
        spec.networks_written.push_back(entry);
        const fs::path relative = dir / entry;
        if (is_regular_file_path(relative)) {
            spec.networks.push_back(relative.lexically_normal().string());
            continue;
        }
        try {
            resolve_network(entry);
        } catch (const SpecError& e) {
            n.fail(e.message(), "a shipped network name or a network file", e.hint());
        }
        spec.networks.push_back(entry);
    }
    reject_duplicates(spec.networks, networks, "network");

    if (auto batches = r.optional("batches")) {
        const std::vector<SpecNode> items = axis_items(*batches);
        for (const SpecNode& b : items) spec.batches.push_back(b.as_positive_int());
        reject_duplicates(spec.batches, items, "batch size");
    } else {
        spec.batches = {16};
    }
    if (auto sparsity = r.optional("sparsity")) {
        const std::vector<SpecNode> items = axis_items(*sparsity);
        for (const SpecNode& s : items) {
            spec.sparsity.push_back(resolve_spec(s, dir, "workloads/sparsity", "sparsity profile"));
            spec.sparsity_written.push_back(s.as_string());
            spec.sparsity_locations.push_back(s.location());
        }
        reject_duplicates(spec.sparsity, items, "sparsity profile");
    } else {
        spec.sparsity = {(data_directory() / "workloads/sparsity/dense.yaml").string()};
        spec.sparsity_written = {"dense"};
    }

    // An evaluator that searches nothing (the Cartesian-product array has one
    // dataflow of its own): a dataflow axis, objectives or search settings
    // would be points that differ in nothing, or settings that change nothing.
    const std::optional<SpecNode> evaluator = r.optional("evaluator");
    if (evaluator) spec.evaluator = &evaluator_named(*evaluator);
    const Evaluator& chosen = *spec.evaluator;
    const bool searched = chosen.searches_mappings();
    if (!searched) {
        for (const char* key : {"dataflows", "objectives", "search", "constraints"}) {
            if (auto node = r.optional(key)) {
                node->fail(fmt::format("`{}:` with `evaluator: {}`", key, chosen.name()),
                           fmt::format("no dataflows, objectives, search or constraints: {}",
                                       chosen.why_nothing_is_searched()),
                           fmt::format("leave the key out, or use `evaluator: {}`",
                                       default_evaluator().name()));
            }
        }
        spec.dataflows = {std::string(chosen.name())};
        spec.objectives = {"none"};
    } else {
        const std::vector<SpecNode> dataflows = axis_items(r.required("dataflows"));
        for (const SpecNode& d : dataflows) {
            const std::string text_form = d.as_string();
            try {
                const std::optional<Dataflow> parsed = parse_dataflow(text_form);
                spec.dataflows.push_back(parsed ? to_string(*parsed) : "any");
            } catch (const SpecError& e) {
                d.fail(e.message(), e.expected(), "quote it in a list: [\"C,K\", \"K,N\"]");
            }
        }
        reject_duplicates(spec.dataflows, dataflows, "dataflow");
    }

    if (!searched) {
        // Set with the dataflows above.
    } else if (auto objectives = r.optional("objectives")) {
        const std::vector<SpecNode> items = axis_items(*objectives);
        for (const SpecNode& o : items) {
            spec.objectives.push_back(o.as_choice(objective_names()));
        }
        reject_duplicates(spec.objectives, items, "objective");
    } else {
        spec.objectives = {"edp"};
    }

    if (auto phases = r.optional("phases")) {
        if (phases->is_scalar() && phases->as_string() == "all") {
            spec.phases = {kAllPhases.begin(), kAllPhases.end()};
        } else {
            const std::vector<SpecNode> items = axis_items(*phases);
            for (const SpecNode& p : items) {
                spec.phases.push_back(*phase_from_name(p.as_choice({"fw", "bw", "wu"})));
            }
            reject_duplicates(spec.phases, items, "phase");
            std::sort(spec.phases.begin(), spec.phases.end());
        }
    } else {
        spec.phases = {kAllPhases.begin(), kAllPhases.end()};
    }

    const std::optional<SpecNode> iteration = r.optional("iteration");
    if (iteration) spec.iteration = iteration->as_non_negative_int();
    if (auto iterations = r.optional("iterations")) {
        if (iteration) {
            iterations->fail("both `iteration:` and `iterations:`",
                             "one of them: `iteration: I` maps one iteration's densities, "
                             "`iterations: [N, ...]` costs whole runs from iteration 0 to N",
                             "a training run reads every iteration's densities itself");
        }
        const std::vector<SpecNode> items = axis_items(*iterations);
        for (const SpecNode& n : items) spec.iterations.push_back(n.as_positive_int());
        reject_duplicates(spec.iterations, items, "run length");
    }
    if (auto zeros = r.optional("zeros")) {
        if (!chosen.places_zeros()) {
            zeros->fail("`zeros:` without `evaluator: cartesian`",
                        "`zeros:` next to `evaluator: cartesian`",
                        fmt::format("{} takes the profile's density models "
                                    "(docs/sparsity_format.md)",
                                    chosen.title()));
        }
        const std::vector<std::string> names(kCartesianZerosNames.begin(),
                                             kCartesianZerosNames.end());
        spec.cartesian_zeros = *cartesian_zeros_from_name(zeros->as_choice(names));
    }
    if (!chosen.costs_one_iteration() && spec.iterations.empty()) {
        evaluator->fail(fmt::format("`evaluator: {}` without `iterations:`", chosen.name()),
                        fmt::format("an `iterations:` axis: {} costs whole training runs "
                                    "(`iterations: [1]` for one iteration)",
                                    chosen.title()),
                        "docs/results_db.md, \"Sweep files\"");
    }
    if (auto samples = r.optional("samples")) {
        if (spec.iterations.empty()) {
            samples->fail("`samples:` without `iterations:`",
                          "`samples:` next to an `iterations:` axis",
                          "samples spread a training run's linear density ramps");
        }
        spec.samples = samples->as_positive_int();
        if (spec.samples > kMaxRunSamples) {
            samples->fail(fmt::format("{} samples", spec.samples),
                          fmt::format("at most {} samples", kMaxRunSamples),
                          "each sample can be a distinct state to map");
        }
    }
    if (auto search = r.optional("search")) {
        MapReader s(*search);
        if (auto v = s.optional("strategy")) {
            spec.strategy = *strategy_from_name(v->as_choice(strategy_names()));
        }
        if (auto v = s.optional("budget")) {
            spec.budget = v->as_non_negative_int();
            spec.stop_when_converged = false;
        }
        if (auto v = s.optional("patience")) spec.patience = v->as_non_negative_int();
        if (auto v = s.optional("seed")) {
            const std::int64_t seed = v->as_int();
            if (seed < 0) v->fail(fmt::format("negative seed {}", seed), "an integer >= 0");
            spec.seed = static_cast<std::uint64_t>(seed);
        }
        if (auto v = s.optional("bypass")) spec.bypass = v->as_bool();
        if (auto v = s.optional("imperfect_factors")) spec.imperfect_factors = v->as_bool();
        if (auto v = s.optional("imperfect_windows")) {
            spec.imperfect_windows = v->as_bool();
            if (spec.imperfect_windows && !spec.imperfect_factors) {
                v->fail("imperfect_windows without imperfect_factors",
                        "`imperfect_factors: true` alongside it (windows are padded only with "
                        "imperfect factors)");
            }
        }
        if (spec.budget == 0 && spec.strategy != SearchStrategy::exhaustive) {
            search->fail("budget 0 (no limit) never ends a random or anneal search",
                         "a positive `budget`, or `strategy: exhaustive`");
        }
        s.finish();
    }
    if (auto constraints = r.optional("constraints")) {
        const fs::path file = dir / constraints->as_string();
        if (!is_regular_file_path(file)) {
            constraints->fail(
                fmt::format("no constraints file `{}`", quoted_excerpt(constraints->as_string())),
                "a mapping constraints file, relative to the sweep file");
        }
        spec.constraints = file.lexically_normal().string();
    }
    if (auto exclude = r.optional("exclude")) {
        for (const SpecNode& e : exclude->items()) spec.exclude.push_back(parse_exclusion(e));
    }
    r.finish();
    return spec;
}

SweepSpec load_sweep(const std::filesystem::path& path) {
    const std::string text = read_file_text(path);
    return parse_sweep(SpecNode::load_string(text, path.string()), text);
}

}  // namespace trainloop
