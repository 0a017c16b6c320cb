#include "spec_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "spec/spec_check.hpp"

namespace trainloop::cli {
namespace {

// Checks every file (not only up to the first bad one), reports each, and
// fails with exit code 2 if any is bad.
void run_check(const std::vector<std::string>& files) {
    int bad = 0;
    for (const std::string& file : files) {
        try {
            const SpecCheckResult result = check_spec_file(file);
            std::cout << fmt::format("ok    {} ({} `{}`: {})\n", file, spec_kind_name(result.kind),
                                     result.name, result.summary);
        } catch (const SpecError& e) {
            ++bad;
            std::cerr << "error: " << e.what() << "\n";
        }
    }
    if (bad > 0) {
        std::cerr << fmt::format("{} of {} file(s) have errors\n", bad, files.size());
        throw CLI::RuntimeError(2);
    }
}

}  // namespace

void add_spec_command(CLI::App& app) {
    CLI::App* spec = app.add_subcommand("spec", "Validate YAML specs");
    spec->require_subcommand(1);
    auto files = std::make_shared<std::vector<std::string>>();
    CLI::App* check = spec->add_subcommand(
        "check",
        "Check network, architecture, component-library, sparsity-profile, mapping and "
        "mapping-constraints files; the kind is told by the top-level key. Every error names the "
        "file, line, column and key.");
    check->add_option("files", *files, "YAML files to check")->required();
    check->callback([files] { run_check(*files); });
}

}  // namespace trainloop::cli
