// Reading input files (spec YAML, masks) safely: a path is opened only after
// checking what it names, so no read can block forever (a FIFO), grow without
// bound (/dev/zero), or fail as an internal error (a directory, a symlink
// loop, an empty path). Every refusal is a SpecError naming the path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace trainloop {

// Spec files are small; a larger file is not a spec.
inline constexpr std::uintmax_t kMaxSpecFileBytes = std::uintmax_t{64} << 20;

// Checks that `path` names a regular file of at most `max_bytes` bytes that
// this process may read; `expected` says what the file should be (for the
// error). Returns the file's size.
std::uintmax_t check_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                std::string_view expected);

// The whole file, after check_input_file; reading stops at `max_bytes` even if
// the file grows meanwhile.
std::string read_input_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                            std::string_view expected);

// Whether `path` names a regular file (after links). Never throws: a path the
// system cannot even examine (a name too long, a loop of links, no permission
// on a directory) is not a file, so callers report it as "no such file" with
// the key that gave it, instead of a filesystem_error escaping as an internal
// error.
bool is_regular_file_path(const std::filesystem::path& path);

// A spec file's text (at most kMaxSpecFileBytes).
std::string read_file_text(const std::filesystem::path& path);

}  // namespace trainloop
