// The shipped architectures: arch_specs/<name>.yaml in the data directory.
// Like a network, an architecture is named on the command line (`--arch`)
// and in sweep files by its file stem (`procrustes_baseline_16x16`) or by a
// path to any architecture YAML file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace trainloop {

// Stems of arch_specs/*.yaml, sorted.
std::vector<std::string> shipped_architecture_names();

// A path to an existing file is taken as is; otherwise a shipped name.
// Throws SpecError for neither (key `--arch`, with the nearest shipped name
// as a hint).
std::filesystem::path resolve_architecture(std::string_view name_or_path);

}  // namespace trainloop
