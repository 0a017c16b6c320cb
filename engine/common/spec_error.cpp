#include "common/spec_error.hpp"

#include <fmt/format.h>

namespace trainloop {
namespace {

std::string render(const SourceLocation& where, const std::string& key_path,
                   const std::string& message, const std::string& expected,
                   const std::string& hint) {
    std::string text = format_location(where);
    if (!text.empty()) text += ": ";
    if (!key_path.empty()) text += fmt::format("{}: ", bounded(key_path, kShownKeyPath));
    text += bounded(message, kShownMessage);
    if (!expected.empty()) text += fmt::format("\n  expected: {}", bounded(expected, kShownNote));
    if (!hint.empty()) text += fmt::format("\n  hint: {}", bounded(hint, kShownNote));
    return text;
}

}  // namespace

std::string bounded(const std::string& text, std::size_t limit) {
    if (text.size() <= limit) return text;
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    return text.substr(0, end) + "…";
}

SpecError::SpecError(SourceLocation where, std::string key_path, std::string message,
                     std::string expected, std::string hint)
    : std::runtime_error(render(where, key_path, message, expected, hint)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      message_(std::move(message)),
      expected_(std::move(expected)),
      hint_(std::move(hint)) {}

std::string format_location(const SourceLocation& where) {
    std::string text = where.file;
    if (where.line > 0) {
        text += fmt::format(":{}", where.line);
        if (where.column > 0) text += fmt::format(":{}", where.column);
    }
    return text;
}

}  // namespace trainloop
