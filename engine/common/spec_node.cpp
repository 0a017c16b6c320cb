#include "common/spec_node.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "common/checked_math.hpp"
#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"
#include "common/utf8.hpp"

namespace trainloop {
namespace {

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    return fmt::format("`{}`", quoted_excerpt(node.Scalar()));
}

// YAML's printable characters (YAML 1.2, c-printable): tab, line breaks and
// everything visible; no other control characters.
bool printable(std::uint32_t code) {
    return code == 0x09 || code == 0x0A || code == 0x0D || (code >= 0x20 && code <= 0x7E) ||
           code == 0x85 || (code >= 0xA0 && code <= 0xD7FF) || (code >= 0xE000 && code <= 0xFFFD) ||
           (code >= 0x10000 && code <= 0x10FFFF);
}

// The first byte of `text` that is not part of well-formed UTF-8, or starts
// a character YAML does not allow (a control character such as NUL), if any.
std::optional<std::size_t> first_invalid_character(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = decode_utf8(text, i);
        if (!c || (!printable(c->first) && !(c->first == 0xFEFF && i == 0))) {
            return i;  // a leading BOM is fine
        }
        i += c->second;
    }
    return std::nullopt;
}

SourceLocation location_of_byte(const std::string& file, std::string_view text, std::size_t at) {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    return {file, line, static_cast<int>(at - line_start) + 1};
}

// A document's structure past what yaml-cpp checks: no key twice in one
// mapping (yaml-cpp keeps both and readers would silently take the first),
// and a bounded size once aliases are expanded (a few lines of nested
// aliases can stand for billions of nodes, which every reader would walk).
class DocumentCheck {
  public:
    explicit DocumentCheck(std::string file) : file_(std::move(file)) {}

    void run(const YAML::Node& root) {
        if (expanded_size(root, "") > kMaxExpandedNodes) {
            throw SpecError({file_, 1, 1}, "",
                            fmt::format("the document expands to more than {} values through "
                                        "aliases (*name)",
                                        kMaxExpandedNodes),
                            "a spec file of ordinary size",
                            "write the values out, or use fewer aliases");
        }
    }

  private:
    static constexpr std::uint64_t kMaxExpandedNodes = 10'000'000;

    // Nodes under `node`, counting an aliased node at every place it appears;
    // each parsed node is visited once (aliases share the node and its mark).
    std::uint64_t expanded_size(const YAML::Node& node, const std::string& path) {
        if (!node.IsMap() && !node.IsSequence()) return 1;
        const YAML::Mark mark = node.Mark();
        const auto identity = std::tuple(mark.pos, int(node.Type()), node.size());
        if (!mark.is_null()) {
            if (const auto it = sizes_.find(identity); it != sizes_.end()) return it->second;
        }
        std::uint64_t total = 1;
        if (node.IsMap()) {
            std::unordered_map<std::string, YAML::Mark> keys;
            for (const auto& entry : node) {
                if (entry.first.IsScalar()) {
                    const auto [it, fresh] =
                        keys.try_emplace(entry.first.Scalar(), entry.first.Mark());
                    if (!fresh) fail_duplicate(entry.first, it->second, path);
                }
                const std::string child =
                    child_key_path(path, entry.first.IsScalar() ? entry.first.Scalar() : "?");
                total = add(total, add(expanded_size(entry.first, child),
                                       expanded_size(entry.second, child)));
            }
        } else {
            std::size_t i = 0;
            for (const auto& item : node) {
                total = add(total, expanded_size(item, fmt::format("{}[{}]", path, i++)));
            }
        }
        if (!mark.is_null()) sizes_[identity] = total;
        return total;
    }

    static std::uint64_t add(std::uint64_t a, std::uint64_t b) {
        return a > kMaxExpandedNodes || b > kMaxExpandedNodes ? kMaxExpandedNodes + 1 : a + b;
    }

    [[noreturn]] void fail_duplicate(const YAML::Node& key, const YAML::Mark& first,
                                     const std::string& path) const {
        const YAML::Mark at = key.Mark();
        throw SpecError({file_, at.is_null() ? 0 : at.line + 1, at.is_null() ? 0 : at.column + 1},
                        child_key_path(path, quoted_excerpt(key.Scalar())),
                        fmt::format("key `{}` given twice in one mapping (first at line {})",
                                    quoted_excerpt(key.Scalar()), first.line + 1),
                        "each key once", "remove one of them, or merge their values");
    }

    std::string file_;
    std::map<std::tuple<int, int, std::size_t>, std::uint64_t> sizes_;
};

SpecNode parse(const std::string& text, const std::string& source_name) {
    auto file = std::make_shared<const std::string>(source_name);
    if (const auto bad = first_invalid_character(text)) {
        const auto byte = static_cast<unsigned char>(text[*bad]);
        throw SpecError(location_of_byte(source_name, text, *bad), "",
                        byte < 0x80 ? fmt::format("control character 0x{:02x} in the text", byte)
                                    : fmt::format("byte 0x{:02x} is not UTF-8 text (or starts a "
                                                  "character YAML does not allow)",
                                                  byte),
                        "a YAML file in UTF-8",
                        "the file may be binary, or saved in another encoding (iconv -t UTF-8)");
    }
    try {
        YAML::Node root = YAML::Load(text);
        DocumentCheck(source_name).run(root);
        return SpecNode(std::move(root), file, "");
    } catch (const YAML::ParserException& e) {
        throw SpecError({source_name, e.mark.line + 1, e.mark.column + 1}, "",
                        fmt::format("YAML syntax error: {}", e.msg), "well-formed YAML",
                        "check indentation, colons and closing brackets near this line");
    } catch (const YAML::Exception& e) {
        const bool known = !e.mark.is_null();
        throw SpecError({source_name, known ? e.mark.line + 1 : 0, known ? e.mark.column + 1 : 0},
                        "", fmt::format("cannot read the YAML: {}", e.msg), "well-formed YAML");
    }
}

}  // namespace

std::string quoted_excerpt(std::string_view text) {
    constexpr std::size_t kMaxChars = 60;
    const std::size_t line_end = text.find_first_of("\r\n");
    std::string_view line = text.substr(0, line_end);
    bool cut = line_end != std::string_view::npos;
    if (line.size() > kMaxChars) {
        std::size_t end = kMaxChars;
        // Do not cut a UTF-8 sequence in two.
        while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
        line = line.substr(0, end);
        cut = true;
    }
    return cut ? std::string(line) + "…" : std::string(line);
}

namespace {

std::string referenced_message(std::string_view what, const SpecError& e) {
    std::string message = fmt::format("{} {}: ", what, format_location(e.where()));
    if (!e.key_path().empty()) message += e.key_path() + ": ";
    return message + e.message();
}

}  // namespace

void fail_in_referenced_file(const SpecNode& reference, std::string_view what, const SpecError& e) {
    reference.fail(referenced_message(what, e), e.expected(), e.hint());
}

void fail_in_referenced_file(const SourceLocation& where, const std::string& key,
                             std::string_view what, const SpecError& e) {
    throw SpecError(where, key, referenced_message(what, e), e.expected(), e.hint());
}

std::string child_key_path(const std::string& parent, std::string_view key) {
    if (parent.empty()) return quoted_excerpt(key);
    return fmt::format("{}.{}", parent, quoted_excerpt(key));
}

SpecNode SpecNode::load_file(const std::filesystem::path& path) {
    return parse(read_file_text(path), path.string());
}

SpecNode SpecNode::load_string(const std::string& text, const std::string& source_name) {
    return parse(text, source_name);
}

// A lookup of a missing key through a const YAML::Node gives an invalid node,
// whose every query throws YAML::InvalidNode: it stands here as an undefined
// value instead, which the accessors report as missing, at its place.
SpecNode::SpecNode(YAML::Node node, std::shared_ptr<const std::string> file, std::string path)
    : node_(node.IsDefined() ? std::move(node) : YAML::Node(YAML::NodeType::Undefined)),
      file_(std::move(file)),
      path_(std::move(path)) {}

SpecNode SpecNode::sibling(YAML::Node node, std::string path, YAML::Mark fallback) const {
    SpecNode out(std::move(node), file_, std::move(path));
    out.fallback_mark_ = fallback;
    return out;
}

SourceLocation SpecNode::location() const {
    YAML::Mark mark = node_.Mark();
    // An empty value (`key:`) has no text of its own: yaml-cpp marks it at the
    // next token, often on the next line, so name the key's place instead.
    if (mark.is_null() || (node_.IsNull() && !fallback_mark_.is_null())) mark = fallback_mark_;
    if (mark.is_null()) return {*file_, 0, 0};
    return {*file_, mark.line + 1, mark.column + 1};
}

void SpecNode::fail(const std::string& message, const std::string& expected,
                    const std::string& hint) const {
    throw SpecError(location(), path_, message, expected, hint);
}

std::string SpecNode::scalar_text() const {
    if (!node_.IsScalar()) fail(fmt::format("expected a single value, got {}", describe(node_)));
    return node_.Scalar();
}

std::string SpecNode::as_string() const { return scalar_text(); }

std::int64_t SpecNode::as_int() const {
    const std::string text = scalar_text();
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range && end == text.data() + text.size()) {
        fail(fmt::format("`{}` is outside the 64-bit integer range", quoted_excerpt(text)),
             "an integer");
    }
    if (error != std::errc{} || end != text.data() + text.size()) {
        fail(fmt::format("`{}` is not an integer", quoted_excerpt(text)), "an integer");
    }
    return value;
}

std::int64_t SpecNode::as_positive_int() const {
    const std::int64_t value = as_int();
    if (value <= 0) fail(fmt::format("non-positive value {}", value), "a positive integer");
    check_count(value, "a positive integer");
    return value;
}

std::int64_t SpecNode::as_non_negative_int() const {
    const std::int64_t value = as_int();
    if (value < 0) fail(fmt::format("negative value {}", value), "an integer >= 0");
    check_count(value, "an integer >= 0");
    return value;
}

void SpecNode::check_count(std::int64_t value, std::string_view expected) const {
    if (value > kMaxCount) {
        fail(fmt::format("{} is more than {}, the largest count trainloop represents exactly",
                         value, kMaxCountText),
             fmt::format("{} up to 2^53", expected));
    }
}

double SpecNode::as_double() const {
    const std::string text = scalar_text();
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
        fail(fmt::format("`{}` is not a number", quoted_excerpt(text)), "a finite number");
    }
    return value;
}

bool SpecNode::as_bool() const {
    const std::string text = scalar_text();
    if (text == "true") return true;
    if (text == "false") return false;
    fail(fmt::format("`{}` is not a boolean", quoted_excerpt(text)), "true or false");
}

double SpecNode::as_fraction() const {
    const double value = as_double();
    if (value < 0.0 || value > 1.0) {
        fail(fmt::format("{} is outside [0, 1]", value), "a fraction between 0 and 1");
    }
    return value;
}

std::string SpecNode::as_choice(const std::vector<std::string>& choices) const {
    const std::string text = scalar_text();
    if (std::find(choices.begin(), choices.end(), text) != choices.end()) return text;
    fail(fmt::format("unknown value `{}`", quoted_excerpt(text)),
         fmt::format("one of {}", fmt::join(choices, ", ")), suggestion_hint(text, choices));
}

std::int64_t SpecNode::as_bytes() const {
    const std::string text = scalar_text();
    std::size_t split = 0;
    while (split < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[split])) || text[split] == '.')) {
        ++split;
    }
    const std::string number = text.substr(0, split);
    std::string unit = text.substr(split);
    unit.erase(
        std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c); }),
        unit.end());
    static const std::vector<std::pair<std::string, std::int64_t>> units = {
        {"", 1},         {"B", 1},         {"KB", 1024},      {"KiB", 1024},
        {"MB", 1 << 20}, {"MiB", 1 << 20}, {"GB", 1LL << 30}, {"GiB", 1LL << 30}};
    const std::string expected = "a byte count such as 1024, \"128 KB\" or \"2 MiB\"";
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || error != std::errc{} || end != number.data() + number.size()) {
        fail(fmt::format("`{}` is not a size", quoted_excerpt(text)), expected);
    }
    auto it =
        std::find_if(units.begin(), units.end(), [&](const auto& u) { return u.first == unit; });
    if (it == units.end()) {
        std::vector<std::string> names;
        for (const auto& u : units) {
            if (!u.first.empty()) names.push_back(u.first);
        }
        fail(fmt::format("unknown size unit `{}`", quoted_excerpt(unit)), expected,
             suggestion_hint(unit, names));
    }
    const double bytes = value * static_cast<double>(it->second);
    if (bytes <= 0 || bytes != std::floor(bytes)) {
        fail(fmt::format("`{}` is not a positive whole number of bytes", quoted_excerpt(text)),
             expected);
    }
    // A byte count becomes a bit count (× 8) and words of any width: 2^50 bytes
    // (1 PiB) keeps every such product within the exact range (2^53).
    if (bytes > double(kMaxCount / 8)) {
        fail(fmt::format("`{}` is more than 2^50 bytes (1 PiB)", quoted_excerpt(text)),
             expected + " up to 1 PiB", "a level without a bound is `capacity: unbounded`");
    }
    return static_cast<std::int64_t>(bytes);
}

std::vector<SpecNode> SpecNode::items() const {
    if (!node_.IsSequence())
        fail(fmt::format("expected a list, got {}", describe(node_)), "a list");
    std::vector<SpecNode> out;
    out.reserve(node_.size());
    for (std::size_t i = 0; i < node_.size(); ++i) {
        out.emplace_back(node_[i], file_, fmt::format("{}[{}]", path_, i));
    }
    return out;
}

std::vector<std::string> SpecNode::as_string_list() const {
    if (node_.IsScalar()) return {node_.Scalar()};
    std::vector<std::string> out;
    for (const SpecNode& item : items()) out.push_back(item.as_string());
    return out;
}

MapReader::MapReader(const SpecNode& node) : node_(node) {
    if (node_.path().empty() && node_.is_scalar()) {
        // A file that is not YAML (a text file named by mistake) reads as one
        // long value folded from its lines: say so without quoting it.
        node_.fail(fmt::format("the file is not a YAML mapping: it reads as one text value of "
                               "{} characters",
                               node_.raw().Scalar().size()),
                   "a mapping (key: value lines)", "check that the path names a spec file");
    }
    if (!node_.is_map()) {
        node_.fail(
            fmt::format("expected a mapping of keys to values, got {}", describe(node_.raw())),
            "a mapping (key: value lines)");
    }
}

SpecNode MapReader::key_node(std::string_view key) const {
    for (const auto& entry : node_.raw()) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
            return node_.sibling(entry.first, child_key_path(node_.path(), key));
        }
    }
    return node_.sibling(node_.raw(), child_key_path(node_.path(), key));
}

std::optional<SpecNode> MapReader::optional(std::string_view key) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
    for (const auto& entry : node_.raw()) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
            return node_.sibling(entry.second, child_key_path(node_.path(), key),
                                 entry.first.Mark());
        }
    }
    return std::nullopt;
}

SpecNode MapReader::required(std::string_view key) {
    if (auto value = optional(key)) {
        if (value->is_null()) {
            key_node(key).fail(fmt::format("key `{}` has no value", key),
                               "a value after the colon");
        }
        return *value;
    }
    // A misspelling of the missing key is the likelier story: report it as such.
    for (const auto& entry : node_.raw()) {
        const std::string present = entry.first.IsScalar() ? entry.first.Scalar() : "";
        if (std::find(known_.begin(), known_.end(), present) != known_.end()) continue;
        if (nearest_name(present, {std::string(key)})) {
            key_node(present).fail(fmt::format("unknown key `{}`", quoted_excerpt(present)),
                                   fmt::format("`{}`", key),
                                   fmt::format("did you mean `{}`?", key));
        }
    }
    node_.fail(fmt::format("missing key `{}`", key), fmt::format("a `{}:` entry here", key));
}

bool MapReader::has(std::string_view key) { return optional(key).has_value(); }

void MapReader::allow(std::initializer_list<std::string_view> keys) {
    for (auto key : keys) {
        if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
    }
}

void MapReader::finish() const {
    for (const auto& entry : node_.raw()) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : "<non-scalar key>";
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        const std::string where = node_.path().empty() ? "at the top level" : "in " + node_.path();
        key_node(key).fail(fmt::format("unknown key `{}` {}", quoted_excerpt(key), where),
                           fmt::format("one of {}", fmt::join(known_, ", ")),
                           suggestion_hint(key, known_));
    }
}

}  // namespace trainloop
