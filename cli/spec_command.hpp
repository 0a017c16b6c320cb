// `trainloop spec check FILE...`: validate YAML specs of any kind.
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_spec_command(CLI::App& app);

}  // namespace trainloop::cli
