// `trainloop workload show|list`: the training problems of a network.
#pragma once

#include <CLI/CLI.hpp>

namespace trainloop::cli {

void add_workload_command(CLI::App& app);

}  // namespace trainloop::cli
