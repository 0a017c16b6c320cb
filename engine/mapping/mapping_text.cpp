#include "mapping/mapping_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "mapping/mapping_syntax.hpp"

namespace trainloop {
namespace {

using namespace mapping_syntax;

void append_list(std::string& out, std::string_view prefix, const LoopList& loops,
                 const ProblemShape& shape) {
    for (const Loop& loop : loops) {
        if (!out.empty() && out.back() != '[') out += ' ';
        out += prefix;
        out += loop_token(loop, shape);
    }
}

// Reads the text form; `fail` throws a SpecError at a byte offset.
class TextReader {
  public:
    TextReader(std::string_view text, const Architecture& arch, std::string_view source,
               const ProblemShape& shape)
        : text_(text), arch_(arch), source_(source), shape_(shape), sequence_(arch) {}

    Mapping read() {
        Mapping mapping = take(default_mapping(arch_), 0, "");
        std::size_t at = skip_space(0);
        while (at < text_.size()) at = skip_space(read_level(at, mapping));
        return mapping;
    }

  private:
    struct Token {
        std::string_view text;
        std::size_t offset = 0;
    };

    [[noreturn]] void fail(std::size_t offset, const std::string& key_path,
                           const SyntaxProblem& problem) const {
        int line = 1;
        int column = 1;
        for (std::size_t i = 0; i < offset && i < text_.size(); ++i) {
            if (text_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        // The key path is made of names the text gave: quoted one line at most.
        throw SpecError({std::string(source_), line, column}, quoted_excerpt(key_path),
                        problem.message, problem.expected, problem.hint);
    }

    template <typename T>
    T take(Parsed<T> parsed, std::size_t offset, const std::string& key_path) const {
        if (const auto* problem = std::get_if<SyntaxProblem>(&parsed)) {
            fail(offset, key_path, *problem);
        }
        return std::get<T>(std::move(parsed));
    }

    std::size_t skip_space(std::size_t at) const {
        while (at < text_.size() && std::isspace(static_cast<unsigned char>(text_[at]))) ++at;
        return at;
    }

    static bool ends_word(char c) {
        return std::isspace(static_cast<unsigned char>(c)) || c == '[' || c == ']';
    }

    // One `NAME[...]`; returns the offset after its `]`.
    std::size_t read_level(std::size_t start, Mapping& mapping) {
        std::size_t at = start;
        while (at < text_.size() && !ends_word(text_[at])) ++at;
        const std::string_view name = text_.substr(start, at - start);
        const std::string expected =
            "a level: its name and its loops in brackets, e.g. `GLB[P4 Q4]`";
        if (name.empty()) {
            fail(start, "", {fmt::format("unexpected `{}`", text_[start]), expected, ""});
        }
        if (at >= text_.size() || text_[at] != '[') {
            fail(at, std::string(name),
                 {fmt::format("expected `[` after level `{}`", quoted_excerpt(name)), expected,
                  arch_.find_level(name) ? fmt::format("an empty level is written `{}[]`", name)
                                         : std::string()});
        }
        const std::size_t index = take(sequence_.next(name), start, std::string(name));
        const std::size_t open = at;
        std::vector<Token> tokens;
        at = open + 1;
        while (true) {
            at = skip_space(at);
            if (at >= text_.size()) {
                fail(open, std::string(name),
                     {fmt::format("the `[` of level `{}` is never closed", quoted_excerpt(name)),
                      "`]` after the level's loops", ""});
            }
            if (text_[at] == ']') break;
            if (text_[at] == '[') {
                fail(at, std::string(name),
                     {fmt::format("unexpected `[` inside level `{}`", quoted_excerpt(name)),
                      "`]` after the level's loops", "is a `]` missing?"});
            }
            const std::size_t token_start = at;
            while (at < text_.size() && !ends_word(text_[at])) ++at;
            tokens.push_back({text_.substr(token_start, at - token_start), token_start});
        }
        read_level_body(arch_.levels[index], tokens, mapping.levels[index]);
        return at + 1;
    }

    void read_level_body(const StorageLevel& level, const std::vector<Token>& tokens,
                         LevelMapping& out) {
        std::optional<KeepKey> keep_key;
        for (const Token& token : tokens) {
            const std::size_t colon = token.text.find(':');
            if (colon == std::string_view::npos) {
                add_loop(out.temporal, level.name + ".temporal", token, 0);
                continue;
            }
            const std::string_view prefix = token.text.substr(0, colon);
            if (prefix == "X") {
                add_loop(out.spatial_x, level.name + ".spatial_x", token, colon + 1);
            } else if (prefix == "Y") {
                add_loop(out.spatial_y, level.name + ".spatial_y", token, colon + 1);
            } else if (prefix == "keep" || prefix == "bypass") {
                const KeepKey key = prefix == "keep" ? KeepKey::keep : KeepKey::bypass;
                const std::string path = fmt::format("{}.{}", level.name, prefix);
                if (keep_key) {
                    fail(
                        token.offset, path,
                        {*keep_key == key
                             ? fmt::format("`{}:` is given twice in level `{}`", prefix, level.name)
                             : fmt::format("level `{}` has both `keep:` and `bypass:`", level.name),
                         "at most one `keep:` or `bypass:` per level",
                         "list every data space in one `keep:` or one `bypass:`"});
                }
                keep_key = key;
                out.keep = read_keep(level, key, token, colon + 1, path);
            } else {
                std::string hint = suggestion_hint(prefix, {"X", "Y", "keep", "bypass"});
                if (prefix == "x" || prefix == "y") {
                    hint = fmt::format("the axes are upper-case: did you mean `{}:`?",
                                       prefix == "x" ? "X" : "Y");
                }
                fail(token.offset, level.name,
                     {fmt::format("unknown prefix `{}:` in `{}`", quoted_excerpt(prefix),
                                  quoted_excerpt(token.text)),
                      "a temporal loop `K4`, a spatial loop `X:C16` or `Y:K16`, "
                      "`keep:weights,outputs` or `bypass:inputs`",
                      hint});
            }
        }
    }

    void add_loop(LoopList& list, const std::string& path, const Token& token, std::size_t skip) {
        const std::string key_path = fmt::format("{}[{}]", path, list.size());
        const std::size_t offset = token.offset + skip;
        const Loop loop = take(parse_loop_token(token.text.substr(skip), shape_), offset, key_path);
        const std::string list_name = path.substr(path.rfind('.') + 1);
        if (auto problem = append_loop(list, loop, list_name, shape_)) {
            fail(offset, key_path, *problem);
        }
    }

    DataSpaceSet read_keep(const StorageLevel& level, KeepKey key, const Token& token,
                           std::size_t skip, const std::string& path) {
        DataSpaceSet listed;
        std::size_t at = skip;
        while (true) {
            const std::size_t comma = std::min(token.text.find(',', at), token.text.size());
            const std::string_view name = token.text.substr(at, comma - at);
            if (name.empty()) {
                fail(token.offset + at, path,
                     {fmt::format("missing data space in `{}`", quoted_excerpt(token.text)),
                      fmt::format("comma-separated data spaces: {}", data_space_names()), ""});
            }
            if (auto problem = add_listed_data_space(listed, name, key, level)) {
                fail(token.offset + at, path, *problem);
            }
            if (comma == token.text.size()) break;
            at = comma + 1;
        }
        return kept_data_spaces(key, listed, level);
    }

    std::string_view text_;
    const Architecture& arch_;
    std::string_view source_;
    const ProblemShape& shape_;
    LevelSequence sequence_;
};

}  // namespace

std::string mapping_to_text(const Mapping& mapping, const Architecture& arch,
                            const ProblemShape& shape) {
    if (mapping.num_levels != arch.levels.size()) {
        throw std::invalid_argument(
            fmt::format("mapping_to_text: the mapping has {} levels, architecture `{}` has {}",
                        mapping.num_levels, arch.name, arch.levels.size()));
    }
    std::string out;
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        const LevelMapping& level = mapping.levels[i];
        if (!out.empty()) out += ' ';
        out += arch.levels[i].name;
        out += '[';
        append_list(out, "", level.temporal, shape);
        append_list(out, "X:", level.spatial_x, shape);
        append_list(out, "Y:", level.spatial_y, shape);
        if (const auto spelling = keep_spelling(level.keep, arch.levels[i])) {
            std::vector<std::string_view> names;
            for (DataSpace s : spelling->spaces) names.push_back(data_space_name(s));
            if (out.back() != '[') out += ' ';
            out += fmt::format("{}:{}", keep_key_name(spelling->key), fmt::join(names, ","));
        }
        out += ']';
    }
    return out;
}

Mapping parse_mapping_text(std::string_view text, const Architecture& arch,
                           std::string_view source_name, const ProblemShape& shape) {
    return TextReader(text, arch, source_name, shape).read();
}

}  // namespace trainloop
