#include "workload/network_library.hpp"

#include <fmt/format.h>

#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"

namespace trainloop {
namespace {

std::filesystem::path workloads_directory() { return data_directory() / "workloads"; }

}  // namespace

std::vector<std::string> shipped_network_names() {
    return shipped_yaml_stems(workloads_directory());
}

std::filesystem::path resolve_network(std::string_view name_or_path) {
    if (auto path = resolve_shipped_yaml(name_or_path, workloads_directory())) return *path;
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
