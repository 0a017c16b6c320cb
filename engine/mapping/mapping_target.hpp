// MappingTarget: what a mapping file says it is for (its optional `for:`
// block; docs/mapping_format.md): the architecture file, the workload, the
// layer, the phase and the minibatch. Every field is optional; a file may
// name some and leave the rest to the command line.
//
// Paths are stored resolved: `arch` (and `workload` when it is a path rather
// than a shipped network name) were written relative to the mapping file and
// are held here relative to the working directory (or absolute), ready to
// open. mapping_to_yaml writes them back verbatim, so a caller that writes the
// YAML to a file elsewhere should first make them relative to that file
// (relative_to_file). Whether the files exist is not checked here: the
// command that uses the target opens them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "vocabulary/phase.hpp"

namespace trainloop {

struct MappingTarget {
    std::optional<std::filesystem::path> arch;
    std::optional<std::string> workload;  // a shipped network name or a path
    std::optional<std::string> layer;
    std::optional<Phase> phase;
    std::optional<std::int64_t> batch;

    bool empty() const { return !arch && !workload && !layer && !phase && !batch; }
    friend bool operator==(const MappingTarget&, const MappingTarget&) = default;
};

// A `workload:` value is a path (not a shipped network name) when it has a
// directory separator or a YAML extension.
inline bool workload_is_path(std::string_view workload) {
    return workload.find('/') != std::string_view::npos || workload.ends_with(".yaml") ||
           workload.ends_with(".yml");
}

// `path` (relative to the working directory, or absolute) as seen from the
// directory of `file`: what to write in a mapping file stored at `file`.
inline std::filesystem::path path_relative_to_file(const std::filesystem::path& path,
                                                   const std::filesystem::path& file) {
    const std::filesystem::path base =
        std::filesystem::absolute(file).parent_path().lexically_normal();
    const std::filesystem::path target = std::filesystem::absolute(path).lexically_normal();
    const std::filesystem::path relative = target.lexically_relative(base);
    return relative.empty() ? target : relative;
}

// The target with its paths rewritten for a mapping file stored at `file`.
inline MappingTarget relative_to_file(MappingTarget target, const std::filesystem::path& file) {
    if (target.arch) target.arch = path_relative_to_file(*target.arch, file);
    if (target.workload && workload_is_path(*target.workload)) {
        target.workload = path_relative_to_file(*target.workload, file).string();
    }
    return target;
}

}  // namespace trainloop
