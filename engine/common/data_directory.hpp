// Where the shipped YAML libraries (workloads/, workloads/sparsity/,
// arch_specs/) are found: $TRAINLOOP_DATA_DIR if set, else the source tree the
// binary was built from. A library entry is named on the command line by its
// file stem (`resnet18`, `procrustes`) or by a path to any file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainloop {

std::filesystem::path data_directory();

// Stems of `directory`/*.yaml, sorted (empty when the directory is missing).
std::vector<std::string> shipped_yaml_stems(const std::filesystem::path& directory);

// A path to an existing file as is; else `directory`/<name>.yaml if it
// exists; else nullopt.
std::optional<std::filesystem::path> resolve_shipped_yaml(std::string_view name_or_path,
                                                          const std::filesystem::path& directory);

}  // namespace trainloop
