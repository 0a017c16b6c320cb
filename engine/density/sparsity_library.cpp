#include "density/sparsity_library.hpp"

#include "common/data_directory.hpp"
#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"

namespace trainloop {
namespace {

std::filesystem::path profiles_directory() { return data_directory() / "workloads" / "sparsity"; }

}  // namespace

std::vector<std::string> shipped_sparsity_profile_names() {
    return shipped_yaml_stems(profiles_directory());
}

std::filesystem::path resolve_sparsity_profile(std::string_view name_or_path) {
    if (auto path = resolve_shipped_yaml(name_or_path, profiles_directory())) return *path;
    throw SpecError({std::string(name_or_path), 0, 0}, "",
                    "no such sparsity profile file, and no shipped profile of that name",
                    "a shipped profile name (one of workloads/sparsity/*.yaml) or a path to a "
                    "sparsity profile YAML file",
                    suggestion_hint(name_or_path, shipped_sparsity_profile_names()));
}

SparsityProfile load_sparsity_profile_named(std::string_view name_or_path) {
    return load_sparsity_profile(resolve_sparsity_profile(name_or_path));
}

}  // namespace trainloop
