#include "stored_case.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include "arch/architecture_parser.hpp"
#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "density/density_schedule.hpp"
#include "mapping/mapping_text.hpp"
#include "store/results_store.hpp"
#include "workload/network.hpp"
#include "workload/network_spec.hpp"

namespace trainloop::cli {
namespace {

[[noreturn]] void fail(const std::filesystem::path& db, const std::string& key,
                       const std::string& message, const std::string& expected,
                       const std::string& hint = {}) {
    throw SpecError({db.string(), 0, 0}, key, message, expected, hint);
}

// The stored architecture text with its component library named by an
// absolute path: the one it was resolved to when the point was written
// (architectures.summary), or, when that file is gone or was not recorded
// (a database from another machine, or from before schema 2), the text's
// own relative path resolved in the shipped arch_specs/ (where the shipped
// architectures and their sweep variants found it).
Architecture read_architecture(const std::filesystem::path& db, const std::string& name,
                               const std::string& yaml, const std::string& summary) {
    YAML::Node root = YAML::Load(yaml);
    std::vector<std::filesystem::path> candidates;
    if (!summary.empty()) {
        candidates.emplace_back(
            nlohmann::json::parse(summary).value("component_library", std::string()));
    }
    if (root.IsMap() && root["component_library"] && root["component_library"].IsScalar()) {
        candidates.push_back(data_directory() / "arch_specs" / root["component_library"].Scalar());
    }
    std::string looked;
    for (const std::filesystem::path& library : candidates) {
        if (!is_regular_file_path(library)) {
            looked += (looked.empty() ? "" : ", ") + library.string();
            continue;
        }
        root["component_library"] = library.lexically_normal().string();
        YAML::Emitter out;
        out << root;
        const std::string source = fmt::format("{} (architecture `{}`)", db.string(), name);
        return parse_architecture(SpecNode::load_string(out.c_str(), source));
    }
    fail(db, "--point",
         fmt::format("the component library of architecture `{}` is not found (looked for {})",
                     name, looked.empty() ? "none recorded" : looked),
         "the component library the point was written with",
         "restore the file, or set TRAINLOOP_DATA_DIR to the tree that has it");
}

}  // namespace

StoredCase load_stored_case(const std::filesystem::path& db_path, std::int64_t point_id,
                            const std::string& layer, const std::string& phase_text) {
    const std::optional<Phase> phase = phase_from_name(phase_text);
    if (!phase)
        fail(db_path, "--phase", fmt::format("unknown phase `{}`", phase_text), "fw, bw or wu");
    ResultsStore store = ResultsStore::open_for_reading(db_path);
    Database& db = store.database();
    Statement point = db.prepare(
        "SELECT a.name, a.yaml, coalesce(a.summary, ''), n.name, n.yaml, s.name, s.yaml, "
        "p.batch, p.iteration, p.status, p.dataflow FROM points p JOIN architectures a ON a.id = "
        "p.arch_id "
        "JOIN networks n ON n.id = p.network_id JOIN sparsity_profiles s ON s.id = p.sparsity_id "
        "WHERE p.id = ?");
    point.bind(1, point_id);
    if (!point.step()) {
        fail(db_path, "--point", fmt::format("no point with id {}", point_id),
             "a point id of this database (points.id; reports and `query --sql` show them)");
    }
    if (point.text(9) != "done") {
        fail(db_path, "--point", fmt::format("point {} failed: it has no results", point_id),
             "a finished point");
    }
    if (point.text(10) == "cartesian") {
        fail(db_path, "--point",
             fmt::format("point {} was costed by the Cartesian-product evaluator: it has no "
                         "loop-nest mapping to evaluate",
                         point_id),
             "a point of the loop-nest evaluator (points.dataflow other than `cartesian`)",
             "`trainloop cartesian --arch ARCH --workload NETWORK` evaluates the array's "
             "layer-phases (docs/cartesian_product.md)");
    }
    StoredCase c;
    c.arch = read_architecture(db_path, point.text(0), point.text(1), point.text(2));
    c.model = build_arch_model(c.arch);
    const std::string network_source =
        fmt::format("{} (network `{}`)", db_path.string(), point.text(3));
    c.network = std::make_shared<const Network>(
        Network::build(parse_network_spec(SpecNode::load_string(point.text(4), network_source))));
    const std::string profile_source =
        fmt::format("{} (sparsity profile `{}`)", db_path.string(), point.text(5));
    c.profile = parse_sparsity_profile(SpecNode::load_string(point.text(6), profile_source));
    c.training = derive_training_problems(*c.network, point.int64(7));
    c.iteration = point.is_null(8) ? kFinalIteration : point.int64(8);

    Statement result = db.prepare(
        "SELECT r.layer_index, m.text FROM results r JOIN mappings m ON m.id = r.mapping_id "
        "WHERE r.point_id = ? AND r.layer = ? AND r.phase = ? AND r.choice = 0");
    result.bind(1, point_id).bind(2, layer).bind(3, phase_text);
    if (!result.step()) {
        Statement layers = db.prepare(
            "SELECT DISTINCT layer FROM results WHERE point_id = ? AND phase = ? ORDER BY 1");
        layers.bind(1, point_id).bind(2, phase_text);
        std::vector<std::string> known;
        while (layers.step()) known.push_back(layers.text(0));
        fail(db_path, "--layer",
             fmt::format("point {} has no result for layer `{}` in phase {}", point_id, layer,
                         phase_text),
             "a layer of the point's network with that phase",
             known.empty() ? "the point has no result in that phase"
                           : suggestion_hint(layer, known));
    }
    const auto index = static_cast<std::size_t>(result.int64(0));
    c.problem = c.training.layers.at(index).find(*phase);
    c.mapping = parse_mapping_text(
        result.text(1), c.arch, fmt::format("{} (mapping of point {})", db_path.string(), point_id),
        c.problem->space.shape);
    return c;
}

}  // namespace trainloop::cli
