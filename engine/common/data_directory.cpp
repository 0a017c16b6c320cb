#include "common/data_directory.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/file_text.hpp"

namespace trainloop {

std::filesystem::path data_directory() {
    if (const char* env = std::getenv("TRAINLOOP_DATA_DIR"); env != nullptr && *env != '\0') {
        return env;
    }
    return TRAINLOOP_DEFAULT_DATA_DIR;
}

std::vector<std::string> shipped_yaml_stems(const std::filesystem::path& directory) {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
        if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
            names.push_back(entry.path().stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<std::filesystem::path> resolve_shipped_yaml(std::string_view name_or_path,
                                                          const std::filesystem::path& directory) {
    const std::filesystem::path as_path(name_or_path);
    if (is_regular_file_path(as_path)) return as_path;
    const std::filesystem::path shipped = directory / (std::string(name_or_path) + ".yaml");
    if (is_regular_file_path(shipped)) return shipped;
    return std::nullopt;
}

}  // namespace trainloop
