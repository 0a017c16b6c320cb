#include "mapping/mapping_json.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "mapping/mapping_syntax.hpp"

namespace trainloop {
namespace {

using namespace mapping_syntax;

using Json = nlohmann::json;

std::string describe(const Json& json) {
    if (json.is_null()) return "null";
    if (json.is_object()) return "an object";
    if (json.is_array()) return "an array";
    return fmt::format("`{}`", quoted_excerpt(json.dump(-1, ' ', false,
                                                        nlohmann::json::error_handler_t::replace)));
}

class JsonReader {
  public:
    JsonReader(const Architecture& arch, std::string_view source, const ProblemShape& shape)
        : arch_(arch), source_(source), shape_(shape) {}

    Mapping read(const Json& json) {
        Mapping mapping = take(default_mapping(arch_), "");
        check_keys(json, "", {"levels"});
        if (!json.contains("levels")) fail("", {"missing key `levels`", "a `levels` array", ""});
        const Json& levels = json.at("levels");
        check_array(levels, "levels", "an array of levels");
        LevelSequence sequence(arch_);
        for (std::size_t i = 0; i < levels.size(); ++i) {
            read_level(levels[i], fmt::format("levels[{}]", i), sequence, mapping);
        }
        return mapping;
    }

  private:
    [[noreturn]] void fail(const std::string& path, const SyntaxProblem& problem) const {
        throw SpecError({std::string(source_), 0, 0}, path, problem.message, problem.expected,
                        problem.hint);
    }

    template <typename T>
    T take(Parsed<T> parsed, const std::string& path) const {
        if (const auto* problem = std::get_if<SyntaxProblem>(&parsed)) fail(path, *problem);
        return std::get<T>(std::move(parsed));
    }

    static std::string child(const std::string& parent, std::string_view key) {
        return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
    }

    // `json` is an object whose keys are all in `known`.
    void check_keys(const Json& json, const std::string& path,
                    const std::vector<std::string>& known) const {
        if (!json.is_object()) {
            fail(path, {fmt::format("expected an object, got {}", describe(json)),
                        fmt::format("an object with keys {}", fmt::join(known, ", ")), ""});
        }
        for (const auto& [key, value] : json.items()) {
            if (std::find(known.begin(), known.end(), key) != known.end()) continue;
            // The key is the document's: quoted one line, short (spec_node.hpp).
            fail(child_key_path(path, key),
                 {fmt::format("unknown key `{}`{}", quoted_excerpt(key),
                              path.empty() ? "" : " in " + path),
                  fmt::format("one of {}", fmt::join(known, ", ")), suggestion_hint(key, known)});
        }
    }

    void check_array(const Json& json, const std::string& path, std::string_view what) const {
        if (!json.is_array()) {
            fail(path,
                 {fmt::format("expected {}, got {}", what, describe(json)), std::string(what), ""});
        }
    }

    std::string read_string(const Json& json, const std::string& path,
                            std::string_view what) const {
        if (!json.is_string()) {
            fail(path,
                 {fmt::format("expected {}, got {}", what, describe(json)), std::string(what), ""});
        }
        return json.get<std::string>();
    }

    void read_level(const Json& json, const std::string& path, LevelSequence& sequence,
                    Mapping& mapping) const {
        check_keys(json, path, {"level", "temporal", "spatial_x", "spatial_y", "keep"});
        if (!json.contains("level")) {
            fail(path, {"missing key `level`", "the level's name under `level`", ""});
        }
        const std::string level_path = child(path, "level");
        const std::string name = read_string(json.at("level"), level_path, "a level name");
        const std::size_t index = take(sequence.next(name), level_path);
        const StorageLevel& level = arch_.levels[index];
        LevelMapping& out = mapping.levels[index];
        read_loops(json, path, "temporal", out.temporal);
        read_loops(json, path, "spatial_x", out.spatial_x);
        read_loops(json, path, "spatial_y", out.spatial_y);
        if (json.contains("keep")) {
            const std::string keep_path = child(path, "keep");
            const Json& keep = json.at("keep");
            check_array(keep, keep_path, "an array of data spaces");
            DataSpaceSet listed;
            for (std::size_t i = 0; i < keep.size(); ++i) {
                const std::string item_path = fmt::format("{}[{}]", keep_path, i);
                const std::string space = read_string(keep[i], item_path, "a data space name");
                if (auto problem = add_listed_data_space(listed, space, KeepKey::keep, level)) {
                    fail(item_path, *problem);
                }
            }
            out.keep = listed;
        }
    }

    void read_loops(const Json& json, const std::string& path, std::string_view key,
                    LoopList& list) const {
        const std::string name(key);
        if (!json.contains(name)) return;
        const std::string list_path = child(path, key);
        const Json& loops = json.at(name);
        check_array(loops, list_path, "an array of loops such as [\"K4\", \"C2\"]");
        for (std::size_t i = 0; i < loops.size(); ++i) {
            const std::string item_path = fmt::format("{}[{}]", list_path, i);
            const std::string token = read_string(loops[i], item_path, "a loop such as \"K4\"");
            const Loop loop = take(parse_loop_token(token, shape_), item_path);
            if (auto problem = append_loop(list, loop, key, shape_)) fail(item_path, *problem);
        }
    }

    const Architecture& arch_;
    std::string_view source_;
    const ProblemShape& shape_;
};

Json loops_json(const LoopList& loops, const ProblemShape& shape) {
    Json out = Json::array();
    for (const Loop& loop : loops) out.push_back(loop_token(loop, shape));
    return out;
}

}  // namespace

nlohmann::json mapping_to_json(const Mapping& mapping, const Architecture& arch,
                               const ProblemShape& shape) {
    if (mapping.num_levels != arch.levels.size()) {
        throw std::invalid_argument(
            fmt::format("mapping_to_json: the mapping has {} levels, architecture `{}` has {}",
                        mapping.num_levels, arch.name, arch.levels.size()));
    }
    Json levels = Json::array();
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const LevelMapping& level = mapping.levels[i];
        Json keep = Json::array();
        for (DataSpace s : kAllDataSpaces) {
            if (level.keep.contains(s)) keep.push_back(std::string(data_space_name(s)));
        }
        levels.push_back({{"level", arch.levels[i].name},
                          {"temporal", loops_json(level.temporal, shape)},
                          {"spatial_x", loops_json(level.spatial_x, shape)},
                          {"spatial_y", loops_json(level.spatial_y, shape)},
                          {"keep", std::move(keep)}});
    }
    return Json{{"levels", std::move(levels)}};
}

Mapping mapping_from_json(const nlohmann::json& json, const Architecture& arch,
                          std::string_view source_name, const ProblemShape& shape) {
    return JsonReader(arch, source_name, shape).read(json);
}

}  // namespace trainloop
