// Decoding one UTF-8 character, strictly: what the YAML reader's byte check
// (spec_node.cpp) and the name rule's messages (names.cpp) both need.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace trainloop {

// The character at `text[at]` (at < text.size()): its code point and its
// length in bytes; nothing when the bytes there are not well-formed UTF-8
// (a stray continuation byte, a truncated sequence, an overlong form, a
// surrogate, a code point past U+10FFFF).
inline std::optional<std::pair<char32_t, std::size_t>> decode_utf8(std::string_view text,
                                                                   std::size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::size_t length = 0;
    char32_t code = 0;
    if (lead < 0x80) return std::pair{char32_t(lead), std::size_t{1}};
    if ((lead & 0xE0) == 0xC0) {
        length = 2;
        code = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        code = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        code = lead & 0x07;
    } else {
        return std::nullopt;
    }
    if (at + length > text.size()) return std::nullopt;
    for (std::size_t i = 1; i < length; ++i) {
        const auto next = static_cast<unsigned char>(text[at + i]);
        if ((next & 0xC0) != 0x80) return std::nullopt;
        code = code << 6 | (next & 0x3F);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[length] || (code >= 0xD800 && code <= 0xDFFF) || code > 0x10FFFF) {
        return std::nullopt;
    }
    return std::pair{code, length};
}

}  // namespace trainloop
