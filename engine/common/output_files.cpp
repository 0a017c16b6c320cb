#include "common/output_files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "common/spec_error.hpp"

namespace trainloop {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail_write(const fs::path& path, const std::string& why) {
    throw SpecError({path.string(), 0, 0}, "--out",
                    fmt::format("cannot write `{}`: {}", path.string(), why),
                    "a writable output directory");
}

// Writes all of `text` to `fd`; false (errno set) on a failed write.
bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        text.remove_prefix(std::size_t(n));
    }
    return true;
}

// A new file next to `path`, created (never opened through a link: O_EXCL
// and O_NOFOLLOW) with a name no other writer uses. Returns its descriptor.
int create_temporary(const fs::path& path, fs::path& temporary) {
    static std::atomic<unsigned> counter{0};
    for (int attempt = 0; attempt < 100; ++attempt) {
        temporary = path.parent_path() /
                    fmt::format(".{}.{}.{}.tmp", path.filename().string(), ::getpid(), counter++);
        const int fd =
            ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

}  // namespace

void write_file_replacing(const fs::path& path, std::string_view text) {
    std::error_code error;
    if (fs::is_directory(fs::symlink_status(path, error))) fail_write(path, "it is a directory");
    fs::path temporary;
    const int fd = create_temporary(path, temporary);
    if (fd < 0) fail_write(path, std::strerror(errno));
    const bool written = write_all(fd, text);
    const int write_errno = errno;
    if (::close(fd) != 0 || !written) {
        const std::string why = std::strerror(written ? errno : write_errno);
        ::unlink(temporary.c_str());
        fail_write(path, why);
    }
    // rename() replaces the directory entry `path`: a symbolic link there is
    // replaced itself, its target is never opened.
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(temporary.c_str());
        fail_write(path, why);
    }
}

std::vector<fs::path> write_output_files(const fs::path& dir, const std::vector<OutputFile>& files,
                                         bool force) {
    const SourceLocation where{dir.string(), 0, 0};
    std::error_code error;
    for (const OutputFile& f : files) {
        // Names are the converters' own: one plain component inside `dir`.
        if (f.name.empty() || f.name == "." || f.name == ".." ||
            f.name.find('/') != std::string::npos) {
            throw std::logic_error(
                fmt::format("output file name `{}` is not a plain file name", f.name));
        }
    }
    if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
        throw SpecError(where, "--out",
                        fmt::format("`{}` exists and is not a directory", dir.string()),
                        "a directory to write the files into (created when missing)");
    }
    // An entry of any kind counts, a symbolic link (even a dangling one) too.
    std::vector<std::string> existing;
    std::vector<std::string> directories;
    for (const OutputFile& f : files) {
        const fs::file_status status = fs::symlink_status(dir / f.name, error);
        if (!fs::exists(status)) continue;
        existing.push_back((dir / f.name).string());
        if (fs::is_directory(status)) directories.push_back((dir / f.name).string());
    }
    if (!directories.empty()) {
        throw SpecError(
            where, "--out",
            fmt::format("cannot overwrite the director{} {}", directories.size() == 1 ? "y" : "ies",
                        fmt::join(directories, ", ")),
            "an output directory without directories of these names");
    }
    if (!force && !existing.empty()) {
        throw SpecError(
            where, "--out", fmt::format("refusing to overwrite {}", fmt::join(existing, ", ")),
            "an output directory without these files", "pass --force to overwrite them");
    }
    fs::create_directories(dir, error);
    if (error) {
        throw SpecError(
            where, "--out",
            fmt::format("cannot create directory `{}`: {}", dir.string(), error.message()),
            "a directory that can be created and written");
    }
    std::vector<fs::path> written;
    for (const OutputFile& f : files) {
        const fs::path path = dir / f.name;
        write_file_replacing(path, f.text);
        written.push_back(path);
    }
    return written;
}

}  // namespace trainloop
