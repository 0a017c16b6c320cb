// mapping_syntax: the pieces the YAML, one-line text and JSON forms of a
// mapping share — loop tokens
// (`K4`), level names in architecture order, keep/bypass data-space sets. Each
// reader returns a SyntaxProblem (a SpecError without its place) that the form
// turns into a located SpecError.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

namespace mapping_syntax {

struct SyntaxProblem {
    std::string message;
    std::string expected;
    std::string hint;
};

template <typename T>
using Parsed = std::variant<T, SyntaxProblem>;

// What a loop token is, for `expected` in errors: for the conv family
// "a dimension letter (N K C P Q R S G) followed by a positive factor, e.g. `K4`".
std::string loop_token_expected(const ProblemShape& shape);

// Every level with no loops, keeping its default data spaces (those it may
// hold); a problem if the architecture has more levels than a Mapping can.
Parsed<Mapping> default_mapping(const Architecture& arch);

// A loop is its dimension's name in the problem's shape and its factor: "K4"
// for the conv family, "q4" for an einsum naming a dimension q (whose names
// hold no digits, vocabulary/einsum.hpp, so the two parts are never ambiguous).
std::string loop_token(const Loop& loop, const ProblemShape& shape = conv_family_shape());
// "K4" -> {K, 4}; rejects `K0`, `Z4`, `K`, `4K`, `K4x`, ...
Parsed<Loop> parse_loop_token(std::string_view token,
                              const ProblemShape& shape = conv_family_shape());
// Appends `loop` unless `list` (named `list_name` in the message) already has
// a loop over its dimension.
std::optional<SyntaxProblem> append_loop(LoopList& list, const Loop& loop,
                                         std::string_view list_name,
                                         const ProblemShape& shape = conv_family_shape());

// Resolves level names given in order: each must name a level of the
// architecture, come after the previous one in the architecture's order, and
// not repeat.
class LevelSequence {
  public:
    explicit LevelSequence(const Architecture& arch) : arch_(&arch) {}
    Parsed<std::size_t> next(std::string_view name);

  private:
    const Architecture* arch_;
    std::optional<std::size_t> last_;
};

enum class KeepKey { keep, bypass };
std::string_view keep_key_name(KeepKey key);

// Adds the data space `name` to `listed`, the set a level's `keep:` or
// `bypass:` (per `key`) names: it must be a data space, not listed before,
// and one that `level` may hold.
std::optional<SyntaxProblem> add_listed_data_space(DataSpaceSet& listed, std::string_view name,
                                                   KeepKey key, const StorageLevel& level);
// The data spaces a level keeps when its `key:` lists `listed`.
DataSpaceSet kept_data_spaces(KeepKey key, const DataSpaceSet& listed, const StorageLevel& level);

// How a level's keep set is written: nothing (nullopt) when it is the level's
// default; else `bypass:` or `keep:`, whichever lists fewer data spaces
// (`bypass:` on a tie, and when nothing is kept).
struct KeepSpelling {
    KeepKey key = KeepKey::bypass;
    std::vector<DataSpace> spaces;
};
std::optional<KeepSpelling> keep_spelling(const DataSpaceSet& keep, const StorageLevel& level);

// "weights, inputs, outputs", for messages.
std::string data_space_names();

}  // namespace mapping_syntax
}  // namespace trainloop
