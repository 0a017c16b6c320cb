// Writing a set of generated files into one output directory, as the
// converters (`trainloop import timeloop`, `trainloop export timeloop`) do:
// all or nothing with respect to overwriting. Existing files are never
// replaced unless the caller says so.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace trainloop {

// A file to write: its name inside the output directory, and its text.
struct OutputFile {
    std::string name;
    std::string text;
};

// Writes `text` as the file `path`, whole or not at all: into a new file
// beside it (created exclusively, never through a link), then renamed over
// `path`. A symbolic link at `path` is replaced itself; its target is never
// written. A SpecError (key `--out`) names the file when it cannot be written.
void write_file_replacing(const std::filesystem::path& path, std::string_view text);

// Writes every file into `dir` (names are plain file names), creating the directory (and its
// parents) when missing. Unless `force`, checks first that none of the files exists and throws
// SpecError (key `--out`, naming the files, hint `--force`) without writing anything when one does
// (a symbolic link counts, dangling or not); with `force`, each file replaces what is there, a link
// itself (write_file_replacing). A directory that cannot be created or a file that cannot be
// written is a SpecError too. Returns the paths written, in the order given.
std::vector<std::filesystem::path> write_output_files(const std::filesystem::path& dir,
                                                      const std::vector<OutputFile>& files,
                                                      bool force);

}  // namespace trainloop
