#include "common/yaml_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace trainloop {

std::string yaml_scalar(std::string_view text) {
    static constexpr std::array<std::string_view, 16> kReserved = {
        "null",  "Null",  "NULL", "~",   "true", "True", "TRUE", "false",
        "False", "FALSE", "yes",  "Yes", "no",   "No",   "on",   "off"};
    const bool plain_chars = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' ||
               c == '-' || c == '+';
    });
    const bool plain = plain_chars && text.front() != '-' &&
                       std::find(kReserved.begin(), kReserved.end(), text) == kReserved.end();
    if (plain) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += c;
        }
    }
    return out + "\"";
}

std::string yaml_number(double value) { return fmt::format("{}", value); }

}  // namespace trainloop
