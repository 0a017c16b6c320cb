#include "common/file_text.hpp"

#include <fstream>
#include <sstream>

#include "common/spec_error.hpp"

namespace trainloop {

std::string read_file_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) {
        throw SpecError(
            {path.string(), 0, 0}, "", "cannot open file", "a readable YAML file",
            std::filesystem::exists(path) ? "check the file's permissions" : "check the path");
    }
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace trainloop
