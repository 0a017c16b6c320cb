// SpecNode and MapReader: typed, located access to a parsed YAML document.
//
// Every spec parser (network, architecture, sparsity profile, component
// library, ...) reads YAML only through these two classes, so that every
// error names the file, line, column and key path, says what was expected,
// and suggests the nearest valid key for a misspelled one.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/spec_error.hpp"

namespace trainloop {

class SpecNode {
  public:
    // Parses a whole file; a syntax error becomes a SpecError at its line.
    static SpecNode load_file(const std::filesystem::path& path);
    // Parses text; `source_name` stands in for the file name in errors.
    static SpecNode load_string(const std::string& text, const std::string& source_name);

    SpecNode(YAML::Node node, std::shared_ptr<const std::string> file, std::string path);

    const std::string& path() const { return path_; }
    const std::string& file() const { return *file_; }
    SourceLocation location() const;
    const YAML::Node& raw() const { return node_; }

    bool is_map() const { return node_.IsMap(); }
    bool is_sequence() const { return node_.IsSequence(); }
    bool is_scalar() const { return node_.IsScalar(); }
    bool is_null() const { return node_.IsNull(); }

    // Throws a SpecError located at this node.
    [[noreturn]] void fail(const std::string& message, const std::string& expected = {},
                           const std::string& hint = {}) const;

    // Typed scalar reads; each fails with "expected <type>, got `<text>`".
    std::string as_string() const;
    std::int64_t as_int() const;
    // Counts (sizes, factors, instances, budgets, ...): at most 2^53, the
    // largest count trainloop represents exactly (common/checked_math.hpp).
    std::int64_t as_positive_int() const;
    std::int64_t as_non_negative_int() const;
    double as_double() const;
    bool as_bool() const;
    // A fraction in [0, 1], e.g. a density.
    double as_fraction() const;
    // One of `choices`; a near miss gets a did-you-mean hint.
    std::string as_choice(const std::vector<std::string>& choices) const;
    // A byte count: an integer, or a number with a unit B, KB/KiB, MB/MiB,
    // GB/GiB. KB means 1024 bytes (the JEDEC memory convention the papers use).
    std::int64_t as_bytes() const;

    // Another node of the same document (same file), at `path`.
    // `fallback` is reported as its position when the node has none of its own
    // (yaml-cpp gives no position to the empty value of `key:`).
    SpecNode sibling(YAML::Node node, std::string path,
                     YAML::Mark fallback = YAML::Mark::null_mark()) const;

    // Elements of a sequence (fails if this is not a sequence).
    std::vector<SpecNode> items() const;
    // A scalar or a sequence of scalars, as strings.
    std::vector<std::string> as_string_list() const;

  private:
    std::string scalar_text() const;
    void check_count(std::int64_t value, std::string_view expected) const;

    YAML::Node node_;
    std::shared_ptr<const std::string> file_;
    std::string path_;
    YAML::Mark fallback_mark_ = YAML::Mark::null_mark();
};

// At most the first line (and 60 characters) of `text`, with "…" where it
// was cut: how errors quote a value, so a file read by mistake as a spec is
// never echoed whole.
std::string quoted_excerpt(std::string_view text);

// `parent.key` (`key` at the top), the key quoted one line at most: how a
// key path names a key the document gave, so a key that is a paragraph of
// the input never becomes a paragraph of the error.
std::string child_key_path(const std::string& parent, std::string_view key);

// Reports an error `e` found in the file that `reference` (a path key, e.g.
// `component_library`) names, at the reference: its file and key first, then
// `what` with the place in the other file and the message.
[[noreturn]] void fail_in_referenced_file(const SpecNode& reference, std::string_view what,
                                          const SpecError& e);
// The same, for a reference known only by its place (`key` at `where`).
[[noreturn]] void fail_in_referenced_file(const SourceLocation& where, const std::string& key,
                                          std::string_view what, const SpecError& e);

// Runs `load`, which reads the file `reference` names; its errors are
// reported at the reference (see fail_in_referenced_file).
template <typename Load>
auto load_referenced(const SpecNode& reference, std::string_view what, Load&& load)
    -> decltype(load()) {
    try {
        return load();
    } catch (const SpecError& e) {
        fail_in_referenced_file(reference, what, e);
    }
}

// Reads one YAML mapping. Every key a parser asks for (required or optional)
// becomes a known key; finish() then rejects any other key in the mapping and
// suggests the nearest known one. Call finish() after reading all keys.
class MapReader {
  public:
    explicit MapReader(const SpecNode& node);

    SpecNode required(std::string_view key);
    std::optional<SpecNode> optional(std::string_view key);
    bool has(std::string_view key);
    // Declares keys as valid without reading them here.
    void allow(std::initializer_list<std::string_view> keys);

    // Fails on the first key in the mapping that was never asked for.
    void finish() const;

    const SpecNode& node() const { return node_; }

  private:
    // The node of `key`'s own text, so errors about the key point at it.
    SpecNode key_node(std::string_view key) const;

    SpecNode node_;
    std::vector<std::string> known_;
};

}  // namespace trainloop
