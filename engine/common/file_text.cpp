#include "common/file_text.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "common/spec_error.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const fs::path& path, const std::string& message,
                         std::string_view expected, const std::string& hint = {}) {
    throw SpecError({path.string(), 0, 0}, "", message, std::string(expected), hint);
}

std::string_view kind_of(fs::file_type type) {
    switch (type) {
        case fs::file_type::directory:
            return "a directory";
        case fs::file_type::fifo:
            return "a FIFO (named pipe)";
        case fs::file_type::character:
            return "a character device";
        case fs::file_type::block:
            return "a block device";
        case fs::file_type::socket:
            return "a socket";
        default:
            return "not a regular file";
    }
}

std::string size_text(std::uintmax_t bytes) {
    if (bytes >= (std::uintmax_t{1} << 30)) return fmt::format("{} GiB", bytes >> 30);
    if (bytes >= (std::uintmax_t{1} << 20)) return fmt::format("{} MiB", bytes >> 20);
    return fmt::format("{} bytes", bytes);
}

}  // namespace

std::uintmax_t check_input_file(const fs::path& path, std::uintmax_t max_bytes,
                                std::string_view expected) {
    if (path.empty())
        refuse(path, "cannot open file: the path is empty", expected, "give the file's path");
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);  // follows symlinks
    if (ec) {
        if (ec == std::errc::too_many_symbolic_link_levels) {
            refuse(path, "cannot open file: a symbolic link loop (the path never reaches a file)",
                   expected, "check the links along the path (ls -l)");
        }
        if (ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory) {
            const bool dangling = fs::is_symlink(fs::symlink_status(path, ec));
            refuse(path,
                   dangling ? "cannot open file: a symbolic link to a missing file"
                            : "cannot open file: no such file",
                   expected, "check the path");
        }
        refuse(path, fmt::format("cannot open file: {}", ec.message()), expected,
               "check the path and its permissions");
    }
    if (status.type() == fs::file_type::not_found)
        refuse(path, "cannot open file: no such file", expected, "check the path");
    if (status.type() != fs::file_type::regular) {
        refuse(path, fmt::format("cannot open file: {}, not a file", kind_of(status.type())),
               expected,
               status.type() == fs::file_type::directory ? "name a file inside it"
                                                         : "copy the data into a regular file");
    }
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) refuse(path, fmt::format("cannot open file: {}", ec.message()), expected);
    if (size > max_bytes) {
        refuse(path,
               fmt::format("cannot open file: it is {}, more than the {} such a file may have",
                           size_text(size), size_text(max_bytes)),
               expected, "check that the path names the intended file");
    }
    return size;
}

std::string read_input_file(const fs::path& path, std::uintmax_t max_bytes,
                            std::string_view expected) {
    const std::uintmax_t size = check_input_file(path, max_bytes, expected);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        refuse(path, fmt::format("cannot open file: {}", std::strerror(error)), expected,
               "check the file's permissions");
    }
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > max_bytes) {
            refuse(path,
                   fmt::format("the file grew past {} while being read", size_text(max_bytes)),
                   expected);
        }
    }
    if (in.bad()) refuse(path, "a read error", expected, "check the disk");
    return text;
}

std::string read_file_text(const fs::path& path) {
    return read_input_file(path, kMaxSpecFileBytes, "a readable YAML file");
}

bool is_regular_file_path(const std::filesystem::path& path) {
    std::error_code error;
    return std::filesystem::is_regular_file(path, error);
}

}  // namespace trainloop
