// `trainloop report --db RESULTS.db [--baseline ARCH] [--network NAME ...]
//  [--out report.html] [--figures DIR]`: one self-contained HTML file that
// compares the accelerator proposals of a results database (docs/reports.md),
// and with --figures every chart as PDF and SVG. The report is the Python
// package in reports/ (matplotlib); this command checks the database the way
// `query` does, then runs the package with the Python that has matplotlib
// ($TRAINLOOP_PYTHON, else the one CMake was configured with), passing itself
// so the report can ask the model for what the database does not hold.
#pragma once

// CLI11 itself only where options are built: it costs seconds per translation unit.
namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_report_command(CLI::App& app);

}  // namespace trainloop::cli
