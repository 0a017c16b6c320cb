#include "store/content_hash.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace trainloop {

std::string content_hash(std::string_view text) {
    // FNV-1a, 64-bit (Fowler, Noll, Vo; IETF draft-eastlake-fnv §2): offset basis and prime.
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return fmt::format("{:016x}", hash);
}

}  // namespace trainloop
