// The one-line text form of a Mapping (logs, reports, the results database;
// docs/mapping_format.md), and the vocabulary all three external forms share.
//
//   DRAM[N16 K4 C4] GLB[P4 Q4 X:C16 Y:K16] RF[K2 C2 R3 S3 P7 Q7 bypass:inputs]
//
// mapping_to_text prints every level of the architecture, in order; within a
// level the temporal loops (outermost first), then the `X:` and `Y:` spatial
// loops, then `keep:` or `bypass:` (comma-separated data spaces) only when the
// level does not keep its default data spaces. parse_mapping_text reads that
// form back; it also accepts levels left out (no loops, default data spaces)
// and loop kinds in any order within a level. Every error is a SpecError whose
// location is the line and column of the bad token in the text.
//
// Only the spelling is checked (names, tokens, order of levels, repeats), not
// whether the factors fit the problem or the hardware: that is eval/mapping_check.hpp.
//
// mapping_syntax: the pieces the YAML, text and JSON forms share — loop tokens
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

namespace trainloop {

// Stands in for the file name in errors about a text mapping.
inline constexpr std::string_view kMappingTextSource = "<mapping text>";

// Precondition: mapping.num_levels == arch.levels.size().
std::string mapping_to_text(const Mapping& mapping, const Architecture& arch);

Mapping parse_mapping_text(std::string_view text, const Architecture& arch,
                           std::string_view source_name = kMappingTextSource);

namespace mapping_syntax {

struct SyntaxProblem {
    std::string message;
    std::string expected;
    std::string hint;
};

template <typename T>
using Parsed = std::variant<T, SyntaxProblem>;

// What a loop token is, for `expected` in errors.
inline constexpr std::string_view kLoopTokenExpected =
    "a dimension letter (N K C P Q R S G) followed by a positive factor, e.g. `K4`";

// Every level with no loops, keeping its default data spaces (those it may
// hold); a problem if the architecture has more levels than a Mapping can.
Parsed<Mapping> default_mapping(const Architecture& arch);

// "K4".
std::string loop_token(const Loop& loop);
// "K4" -> {K, 4}; rejects `K0`, `Z4`, `K`, `4K`, `K4x`, ...
Parsed<Loop> parse_loop_token(std::string_view token);
// Appends `loop` unless `list` (named `list_name` in the message) already has
// a loop over its dimension.
std::optional<SyntaxProblem> append_loop(LoopList& list, const Loop& loop,
                                         std::string_view list_name);

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
