// `trainloop eval`: evaluate one mapping of one layer's phase.
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_eval_command(CLI::App& app);

}  // namespace trainloop::cli
