// Writing a set of generated files into one output directory, as the
// converters (`trainloop import timeloop`, `trainloop export timeloop`) do:
// all or nothing with respect to overwriting. Existing files are never
// replaced unless the caller says so.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace trainloop {

// A file to write: its name inside the output directory, and its text.
struct OutputFile {
    std::string name;
    std::string text;
};

// Writes every file into `dir`, creating the directory (and its parents)
// when missing. Unless `force`, checks first that none of the files exists
// and throws SpecError (key `--out`, naming the files, hint `--force`)
// without writing anything when one does. A directory that cannot be created
// or a file that cannot be written is a SpecError too. Returns the paths
// written, in the order given.
std::vector<std::filesystem::path> write_output_files(const std::filesystem::path& dir,
                                                      const std::vector<OutputFile>& files,
                                                      bool force);

}  // namespace trainloop
