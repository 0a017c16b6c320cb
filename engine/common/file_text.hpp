// Reading a whole spec file as text, for parsing and for storing the exact
// YAML a result came from.
#pragma once

#include <filesystem>
#include <string>

namespace trainloop {

// Throws SpecError ("cannot open file", with a hint on whether the path
// exists) when the file cannot be read.
std::string read_file_text(const std::filesystem::path& path);

}  // namespace trainloop
