#include "mapping/mapping_syntax.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"

namespace trainloop {
namespace mapping_syntax {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool is_name_char(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

// The shape's dimension names, in slot order: "N, K, C, P, Q, R, S, G".
std::string dim_list(const ProblemShape& shape) {
    std::vector<std::string_view> names;
    for (Dim d : kAllDims) {
        if (shape.uses(d)) names.push_back(shape.dim_name(d));
    }
    return fmt::format("{}", fmt::join(names, ", "));
}

// Whether every name is one character (the conv letters): a token's first
// character is then its dimension, whatever follows.
bool single_letter_names(const ProblemShape& shape) {
    for (Dim d : kAllDims) {
        if (shape.uses(d) && shape.dim_name(d).size() != 1) return false;
    }
    return true;
}

std::vector<std::string> level_names(const Architecture& arch) {
    std::vector<std::string> names;
    for (const StorageLevel& level : arch.levels) names.push_back(level.name);
    return names;
}

std::vector<std::string> data_space_choices() {
    std::vector<std::string> names;
    for (DataSpace s : kAllDataSpaces) names.emplace_back(data_space_name(s));
    return names;
}

}  // namespace

Parsed<Mapping> default_mapping(const Architecture& arch) {
    if (arch.levels.size() > kMaxLevels) {
        return SyntaxProblem{
            fmt::format("architecture `{}` has {} storage levels; a mapping supports at most {}",
                        arch.name, arch.levels.size(), kMaxLevels),
            fmt::format("at most {} storage levels", kMaxLevels), ""};
    }
    Mapping mapping;
    mapping.num_levels = static_cast<std::uint8_t>(arch.levels.size());
    for (std::size_t i = 0; i < arch.levels.size(); ++i) {
        mapping.levels[i].keep = arch.levels[i].data_spaces;
    }
    return mapping;
}

std::string loop_token_expected(const ProblemShape& shape) {
    if (single_letter_names(shape) && shape.num_dims == kNumDims) {
        return "a dimension letter (N K C P Q R S G) followed by a positive factor, e.g. `K4`";
    }
    const Dim example = shape.listing[0];
    return fmt::format("a dimension of the layer ({}) followed by a positive factor, e.g. `{}4`",
                       dim_list(shape), shape.dim_name(example));
}

std::string loop_token(const Loop& loop, const ProblemShape& shape) {
    return fmt::format("{}{}", shape.dim_name(loop.dim), loop.factor);
}

Parsed<Loop> parse_loop_token(std::string_view token, const ProblemShape& shape) {
    const std::string expected = loop_token_expected(shape);
    if (token.empty()) return SyntaxProblem{"empty loop", expected, ""};
    // What errors quote of the token: its first line, 60 characters at most.
    const std::string shown = quoted_excerpt(token);
    // `4K`: the factor before the name.
    std::size_t digits = 0;
    while (digits < token.size() && is_digit(token[digits])) ++digits;
    if (digits > 0) {
        const std::string_view rest = token.substr(digits);
        std::string hint = "the dimension letter comes first";
        if (shape.dim_named(rest)) {
            hint = fmt::format("did you mean `{}{}`? {}", quoted_excerpt(rest),
                               quoted_excerpt(token.substr(0, digits)), hint);
        }
        return SyntaxProblem{fmt::format("`{}` is not a loop", shown), expected, hint};
    }
    // The name: one character for the conv letters, else every letter before
    // the factor (names hold no digits).
    std::size_t name_size = 1;
    if (!single_letter_names(shape)) {
        while (name_size < token.size() && is_name_char(token[name_size])) ++name_size;
    }
    const std::string_view name = token.substr(0, name_size);
    const std::string_view factor_text = token.substr(name_size);
    const auto dim = shape.dim_named(name);
    if (!dim) {
        std::string hint = fmt::format("dimensions: {}", dim_list(shape));
        std::string upper(name);
        for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (upper != name && shape.dim_named(upper)) {
            hint = fmt::format("dimension letters are upper-case: did you mean `{}{}`?", upper,
                               quoted_excerpt(factor_text));
        }
        // (A conv letter is shown as written, as it always was.)
        const std::string shown_name =
            single_letter_names(shape) ? std::string(name) : quoted_excerpt(name);
        return SyntaxProblem{fmt::format("unknown dimension `{}` in `{}`", shown_name, shown),
                             expected, hint};
    }
    if (factor_text.empty()) {
        return SyntaxProblem{fmt::format("loop `{}` has no factor", shown), expected,
                             fmt::format("write the factor after the letter, e.g. `{}4`", name)};
    }
    std::int64_t factor = 0;
    const auto [end, error] =
        std::from_chars(factor_text.data(), factor_text.data() + factor_text.size(), factor);
    const bool all_digits = std::all_of(factor_text.begin(), factor_text.end(), is_digit);
    if (all_digits && error == std::errc::result_out_of_range) {
        return SyntaxProblem{fmt::format("the factor of `{}` is too large", shown), expected, ""};
    }
    if (!all_digits || error != std::errc{} || end != factor_text.data() + factor_text.size()) {
        return SyntaxProblem{fmt::format("`{}` is not a loop: `{}` is not a positive integer",
                                         shown, quoted_excerpt(factor_text)),
                             expected, ""};
    }
    if (factor <= 0) {
        return SyntaxProblem{
            fmt::format("the factor of `{}` is not positive", shown), expected,
            fmt::format("a loop that does nothing is `{}1`, or leave it out", name)};
    }
    return Loop{*dim, factor};
}

std::optional<SyntaxProblem> append_loop(LoopList& list, const Loop& loop,
                                         std::string_view list_name, const ProblemShape& shape) {
    for (const Loop& existing : list) {
        if (existing.dim != loop.dim) continue;
        std::int64_t merged = 0;
        const bool overflow = __builtin_mul_overflow(existing.factor, loop.factor, &merged);
        return SyntaxProblem{fmt::format("dimension `{}` appears twice in `{}`",
                                         shape.dim_name(loop.dim), list_name),
                             "at most one loop per dimension in a list",
                             overflow ? std::string("merge them into one loop")
                                      : fmt::format("merge them into one loop: `{}`",
                                                    loop_token(Loop{loop.dim, merged}, shape))};
    }
    list.push_back(loop);
    return std::nullopt;
}

Parsed<std::size_t> LevelSequence::next(std::string_view name) {
    const std::vector<std::string> names = level_names(*arch_);
    const std::string order = fmt::format("{}", fmt::join(names, ", "));
    const auto index = arch_->level_index(name);
    if (!index) {
        return SyntaxProblem{fmt::format("unknown level `{}`", quoted_excerpt(name)),
                             fmt::format("a level of architecture `{}`: {}", arch_->name, order),
                             suggestion_hint(name, names)};
    }
    if (last_ && *index == *last_) {
        return SyntaxProblem{fmt::format("level `{}` is listed twice", name),
                             "each level at most once", "put all of a level's loops in one entry"};
    }
    if (last_ && *index < *last_) {
        return SyntaxProblem{
            fmt::format("level `{}` is listed after `{}`", name, arch_->levels[*last_].name),
            fmt::format("levels from the outermost inward, in the architecture's order: {}", order),
            fmt::format("move `{}` before `{}`", name, arch_->levels[*last_].name)};
    }
    last_ = *index;
    return *index;
}

std::string_view keep_key_name(KeepKey key) { return key == KeepKey::keep ? "keep" : "bypass"; }

std::optional<SyntaxProblem> add_listed_data_space(DataSpaceSet& listed, std::string_view name,
                                                   KeepKey key, const StorageLevel& level) {
    const auto space = data_space_from_name(name);
    if (!space) {
        return SyntaxProblem{fmt::format("unknown data space `{}`", name),
                             fmt::format("one of {}", data_space_names()),
                             suggestion_hint(name, data_space_choices())};
    }
    if (listed.contains(*space)) {
        return SyntaxProblem{
            fmt::format("data space `{}` is listed twice in `{}:`", name, keep_key_name(key)),
            "each data space at most once", ""};
    }
    if (!level.holds(*space)) {
        return SyntaxProblem{
            key == KeepKey::keep
                ? fmt::format("level `{}` cannot hold `{}`", level.name, name)
                : fmt::format("level `{}` never holds `{}`, so it cannot bypass it", level.name,
                              name),
            fmt::format("data spaces `{}` may hold: {}", level.name,
                        data_space_set_text(level.data_spaces)),
            "the architecture's `data_spaces:` of a level lists what it may hold"};
    }
    listed.insert(*space);
    return std::nullopt;
}

DataSpaceSet kept_data_spaces(KeepKey key, const DataSpaceSet& listed, const StorageLevel& level) {
    if (key == KeepKey::keep) return listed;
    DataSpaceSet kept;
    for (DataSpace s : kAllDataSpaces) {
        if (level.holds(s) && !listed.contains(s)) kept.insert(s);
    }
    return kept;
}

std::optional<KeepSpelling> keep_spelling(const DataSpaceSet& keep, const StorageLevel& level) {
    if (keep == level.data_spaces) return std::nullopt;
    KeepSpelling as_keep{KeepKey::keep, {}};
    KeepSpelling as_bypass{KeepKey::bypass, {}};
    bool keeps_foreign = false;  // a data space the level cannot hold: only `keep:` says it
    for (DataSpace s : kAllDataSpaces) {
        if (keep.contains(s)) as_keep.spaces.push_back(s);
        if (keep.contains(s) && !level.holds(s)) keeps_foreign = true;
        if (level.holds(s) && !keep.contains(s)) as_bypass.spaces.push_back(s);
    }
    if (keeps_foreign) return as_keep;
    if (!as_keep.spaces.empty() && as_keep.spaces.size() < as_bypass.spaces.size()) {
        return as_keep;
    }
    return as_bypass;
}

std::string data_space_names() { return fmt::format("{}", fmt::join(data_space_choices(), ", ")); }

}  // namespace mapping_syntax
}  // namespace trainloop
