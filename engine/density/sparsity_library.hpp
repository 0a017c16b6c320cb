// The shipped sparsity profiles: workloads/sparsity/<name>.yaml in the data
// directory. A profile is named on the command line by its file stem
// (`procrustes`, `dense`) or by a path to any profile YAML file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "density/sparsity_profile.hpp"

namespace trainloop {

// Stems of workloads/sparsity/*.yaml, sorted.
std::vector<std::string> shipped_sparsity_profile_names();

// Throws SpecError when `name_or_path` is neither a file nor a shipped name
// (with the nearest shipped name as a hint).
std::filesystem::path resolve_sparsity_profile(std::string_view name_or_path);

// resolve + load_sparsity_profile.
SparsityProfile load_sparsity_profile_named(std::string_view name_or_path);

}  // namespace trainloop
