// The content hash that names a spec (architecture, network, sparsity
// profile, sweep) in the results database: equal texts, equal hashes, so a
// result always says exactly which text produced it and a spec stored twice
// is stored once.
#pragma once

#include <string>
#include <string_view>

namespace trainloop {

// 64-bit FNV-1a of the bytes, as 16 lowercase hex digits. Not cryptographic:
// it tells specs apart, it does not guard against a forger.
std::string content_hash(std::string_view text);

}  // namespace trainloop
