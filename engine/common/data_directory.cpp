#include "common/data_directory.hpp"

#include <cstdlib>

namespace trainloop {

std::filesystem::path data_directory() {
    if (const char* env = std::getenv("TRAINLOOP_DATA_DIR"); env != nullptr && *env != '\0') {
        return env;
    }
    return TRAINLOOP_DEFAULT_DATA_DIR;
}

}  // namespace trainloop
