// `trainloop eval`: evaluate one mapping of one layer's phase.
#pragma once

#include <CLI/CLI.hpp>

namespace trainloop::cli {

void add_eval_command(CLI::App& app);

}  // namespace trainloop::cli
