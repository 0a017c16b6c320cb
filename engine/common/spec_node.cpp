#include "common/spec_node.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include "common/did_you_mean.hpp"
#include "common/file_text.hpp"

namespace trainloop {
namespace {

std::string child_path(const std::string& parent, std::string_view key) {
    if (parent.empty()) return std::string(key);
    return fmt::format("{}.{}", parent, key);
}

std::string describe(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsMap()) return "a mapping";
    if (node.IsSequence()) return "a list";
    return fmt::format("`{}`", node.Scalar());
}

SpecNode parse(const std::string& text, const std::string& source_name) {
    auto file = std::make_shared<const std::string>(source_name);
    try {
        return SpecNode(YAML::Load(text), file, "");
    } catch (const YAML::ParserException& e) {
        throw SpecError({source_name, e.mark.line + 1, e.mark.column + 1}, "",
                        fmt::format("YAML syntax error: {}", e.msg), "well-formed YAML",
                        "check indentation, colons and closing brackets near this line");
    }
}

}  // namespace

SpecNode SpecNode::load_file(const std::filesystem::path& path) {
    return parse(read_file_text(path), path.string());
}

SpecNode SpecNode::load_string(const std::string& text, const std::string& source_name) {
    return parse(text, source_name);
}

SpecNode::SpecNode(YAML::Node node, std::shared_ptr<const std::string> file, std::string path)
    : node_(std::move(node)), file_(std::move(file)), path_(std::move(path)) {}

SpecNode SpecNode::sibling(YAML::Node node, std::string path, YAML::Mark fallback) const {
    SpecNode out(std::move(node), file_, std::move(path));
    out.fallback_mark_ = fallback;
    return out;
}

SourceLocation SpecNode::location() const {
    YAML::Mark mark = node_.Mark();
    if (mark.is_null()) mark = fallback_mark_;
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
    if (error != std::errc{} || end != text.data() + text.size()) {
        fail(fmt::format("`{}` is not an integer", text), "an integer");
    }
    return value;
}

std::int64_t SpecNode::as_positive_int() const {
    const std::int64_t value = as_int();
    if (value <= 0) fail(fmt::format("non-positive value {}", value), "a positive integer");
    return value;
}

std::int64_t SpecNode::as_non_negative_int() const {
    const std::int64_t value = as_int();
    if (value < 0) fail(fmt::format("negative value {}", value), "an integer >= 0");
    return value;
}

double SpecNode::as_double() const {
    const std::string text = scalar_text();
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || !std::isfinite(value)) {
        fail(fmt::format("`{}` is not a number", text), "a finite number");
    }
    return value;
}

bool SpecNode::as_bool() const {
    const std::string text = scalar_text();
    if (text == "true") return true;
    if (text == "false") return false;
    fail(fmt::format("`{}` is not a boolean", text), "true or false");
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
    fail(fmt::format("unknown value `{}`", text),
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
        fail(fmt::format("`{}` is not a size", text), expected);
    }
    auto it =
        std::find_if(units.begin(), units.end(), [&](const auto& u) { return u.first == unit; });
    if (it == units.end()) {
        std::vector<std::string> names;
        for (const auto& u : units) {
            if (!u.first.empty()) names.push_back(u.first);
        }
        fail(fmt::format("unknown size unit `{}`", unit), expected, suggestion_hint(unit, names));
    }
    const double bytes = value * static_cast<double>(it->second);
    if (bytes <= 0 || bytes != std::floor(bytes)) {
        fail(fmt::format("`{}` is not a positive whole number of bytes", text), expected);
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
    if (!node_.is_map()) {
        node_.fail(
            fmt::format("expected a mapping of keys to values, got {}", describe(node_.raw())),
            "a mapping (key: value lines)");
    }
}

SpecNode MapReader::key_node(std::string_view key) const {
    for (const auto& entry : node_.raw()) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
            return node_.sibling(entry.first, child_path(node_.path(), key));
        }
    }
    return node_.sibling(node_.raw(), child_path(node_.path(), key));
}

std::optional<SpecNode> MapReader::optional(std::string_view key) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.emplace_back(key);
    for (const auto& entry : node_.raw()) {
        if (entry.first.IsScalar() && entry.first.Scalar() == key) {
            return node_.sibling(entry.second, child_path(node_.path(), key), entry.first.Mark());
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
            key_node(present).fail(fmt::format("unknown key `{}`", present),
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
        key_node(key).fail(fmt::format("unknown key `{}` {}", key, where),
                           fmt::format("one of {}", fmt::join(known_, ", ")),
                           suggestion_hint(key, known_));
    }
}

}  // namespace trainloop
