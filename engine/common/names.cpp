#include "common/names.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <utility>

#include "common/utf8.hpp"

namespace trainloop {
namespace {

bool name_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

}  // namespace

std::string visible_text(std::string_view text) {
    std::string out;
    for (std::size_t at = 0; at < text.size();) {
        const auto c = decode_utf8(text, at);
        if (!c) {
            out += fmt::format("<0x{:02X}>", static_cast<unsigned char>(text[at]));
            ++at;
            continue;
        }
        if (c->first >= 0x20 && c->first < 0x7f) {
            out += text[at];
        } else {
            out += fmt::format("<U+{:04X}>", std::uint32_t(c->first));
        }
        at += c->second;
    }
    return out;
}

std::optional<std::string> name_problem(std::string_view name) {
    if (name.empty()) return "empty name";
    const std::string shown =
        visible_text(name.size() > 60 ? name.substr(0, 60) : name) + (name.size() > 60 ? "…" : "");
    if (name.size() > kMaxNameBytes) {
        return fmt::format("name `{}` is {} characters long, more than {}", shown, name.size(),
                           kMaxNameBytes);
    }
    for (std::size_t at = 0; at < name.size();) {
        if (name_character(name[at])) {
            ++at;
            continue;
        }
        const auto c = decode_utf8(name, at);
        const std::string what =
            !c ? fmt::format("the byte 0x{:02X}", static_cast<unsigned char>(name[at]))
            : (c->first >= 0x21 && c->first < 0x7f) ? fmt::format("`{}`", name[at])
            : c->first == 0x20                      ? std::string("a space")
                               : fmt::format("U+{:04X}", std::uint32_t(c->first));
        return fmt::format("name `{}` holds {}, which a name may not hold", shown, what);
    }
    if (name.front() == '-' || name.front() == '.') {
        return fmt::format("name `{}` begins with `{}`", shown, name.front());
    }
    if (name.find("..") != std::string_view::npos) {
        return fmt::format("name `{}` holds `..`", shown);
    }
    return std::nullopt;
}

}  // namespace trainloop
