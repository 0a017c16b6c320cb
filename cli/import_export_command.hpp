// `trainloop import timeloop` and `trainloop export timeloop`: convert
// timeloop-model's inputs to trainloop-native spec files once, and write an
// evaluated trainloop case as timeloop-model's inputs for cross-checking
// (docs/timeloop_interop.md).
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_import_export_commands(CLI::App& app);

}  // namespace trainloop::cli
