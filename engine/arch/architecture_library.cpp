#include "arch/architecture_library.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"

namespace trainloop {
namespace {

std::filesystem::path arch_specs_directory() { return data_directory() / "arch_specs"; }

}  // namespace

std::vector<std::string> shipped_architecture_names() {
    return shipped_yaml_stems(arch_specs_directory());
}

std::filesystem::path resolve_architecture(std::string_view name_or_path) {
    if (auto path = resolve_shipped_yaml(name_or_path, arch_specs_directory())) return *path;
    const std::vector<std::string> names = shipped_architecture_names();
    std::string hint = suggestion_hint(name_or_path, names);
    if (names.empty()) {
        hint = fmt::format(
            "no architectures found in {} (set TRAINLOOP_DATA_DIR to the trainloop source tree)",
            arch_specs_directory().string());
    }
    throw SpecError({std::string(name_or_path), 0, 0}, "--arch",
                    "no such architecture file, and no shipped architecture of that name",
                    fmt::format("a shipped architecture name ({}) or a path to an architecture "
                                "YAML file",
                                fmt::join(names, ", ")),
                    hint);
}

}  // namespace trainloop
