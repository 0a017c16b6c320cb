#include "common/output_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <system_error>

#include "common/spec_error.hpp"

namespace trainloop {

std::vector<std::filesystem::path> write_output_files(const std::filesystem::path& dir,
                                                      const std::vector<OutputFile>& files,
                                                      bool force) {
    namespace fs = std::filesystem;
    const SourceLocation where{dir.string(), 0, 0};
    std::error_code error;
    if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
        throw SpecError(where, "--out",
                        fmt::format("`{}` exists and is not a directory", dir.string()),
                        "a directory to write the files into (created when missing)");
    }
    if (!force) {
        std::vector<std::string> existing;
        for (const OutputFile& f : files) {
            if (fs::exists(dir / f.name, error)) existing.push_back((dir / f.name).string());
        }
        if (!existing.empty()) {
            throw SpecError(
                where, "--out", fmt::format("refusing to overwrite {}", fmt::join(existing, ", ")),
                "an output directory without these files", "pass --force to overwrite them");
        }
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
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << f.text;
        out.close();
        if (!out) {
            throw SpecError({path.string(), 0, 0}, "--out",
                            fmt::format("cannot write `{}`", path.string()),
                            "a writable output directory");
        }
        written.push_back(path);
    }
    return written;
}

}  // namespace trainloop
