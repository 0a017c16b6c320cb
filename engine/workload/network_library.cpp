#include "workload/network_library.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"

namespace trainloop {
namespace {

std::filesystem::path workloads_directory() { return data_directory() / "workloads"; }

}  // namespace

std::vector<std::string> shipped_network_names() {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(workloads_directory(), error)) {
        if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
            names.push_back(entry.path().stem().string());
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::filesystem::path resolve_network(std::string_view name_or_path) {
    const std::filesystem::path as_path(name_or_path);
    if (std::filesystem::is_regular_file(as_path)) return as_path;
    const std::filesystem::path shipped =
        workloads_directory() / (std::string(name_or_path) + ".yaml");
    if (std::filesystem::is_regular_file(shipped)) return shipped;
    const std::vector<std::string> names = shipped_network_names();
    std::string hint = suggestion_hint(name_or_path, names);
    if (names.empty()) {
        hint = fmt::format(
            "no networks found in {} (set TRAINLOOP_DATA_DIR to the trainloop "
            "source tree)",
            workloads_directory().string());
    }
    throw SpecError({std::string(name_or_path), 0, 0}, "",
                    "no such network file, and no shipped network of that name",
                    "a shipped network name (see `trainloop workload list`) or a path to a "
                    "network YAML file",
                    hint);
}

Network load_network(std::string_view name_or_path) {
    return Network::build(load_network_spec(resolve_network(name_or_path)));
}

}  // namespace trainloop
