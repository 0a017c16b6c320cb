// `trainloop spec check FILE...`: validate YAML specs of any kind.
#pragma once

#include <CLI/CLI.hpp>

namespace trainloop::cli {

void add_spec_command(CLI::App& app);

}  // namespace trainloop::cli
