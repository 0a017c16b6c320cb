// `trainloop workload show|list`: the training problems of a network.
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_workload_command(CLI::App& app);

}  // namespace trainloop::cli
