// The shipped network library: workloads/<name>.yaml in the data directory.
// A network is named on the command line by its file stem (`resnet18`) or by
// a path to any network YAML file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "workload/network.hpp"

namespace trainloop {

// Stems of workloads/*.yaml, sorted.
std::vector<std::string> shipped_network_names();

// A path to an existing file is taken as is; otherwise a shipped name.
// Throws SpecError for neither (with the nearest shipped name as a hint).
std::filesystem::path resolve_network(std::string_view name_or_path);

// resolve + parse + Network::build.
Network load_network(std::string_view name_or_path);

}  // namespace trainloop
