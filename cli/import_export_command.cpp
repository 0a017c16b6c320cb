#include "import_export_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>

#include "mapping_overrides.hpp"
#include "spec/mapping_case.hpp"
#include "timeloop/timeloop_export.hpp"
#include "timeloop/timeloop_files.hpp"

namespace trainloop::cli {
namespace {

struct ImportOptions {
    std::vector<std::string> files;
    std::string out;
    bool force = false;
};

struct ExportOptions {
    std::string mapping;
    std::string arch;
    std::string workload;
    std::string layer;
    std::string phase;
    std::optional<std::int64_t> batch;
    std::string out;
    bool force = false;
};

void print_notes(const std::vector<std::string>& notes) {
    for (const std::string& note : notes) std::cerr << "note: " << note << "\n";
}

void print_written(const std::vector<std::filesystem::path>& written) {
    for (const auto& path : written) std::cout << "wrote " << path.string() << "\n";
}

void run_import(const ImportOptions& o) {
    const ImportedFiles imported = timeloop_to_native_files(read_timeloop_spec(o.files));
    print_notes(imported.notes);  // the reader's and the sparse import's
    print_written(write_output_files(o.out, imported.files, o.force));
    const std::filesystem::path mapping = std::filesystem::path(o.out) / "mapping.yaml";
    std::cout << "next: trainloop eval --mapping " << mapping.string();
    for (const OutputFile& f : imported.files) {
        if (f.name == "sparsity.yaml")
            std::cout << " --sparsity " << (std::filesystem::path(o.out) / f.name).string();
    }
    std::cout << "\n";
}

void run_export(const ExportOptions& o) {
    const MappingCase c = load_mapping_argument(o.mapping, mapping_overrides(o));
    evaluate_case(c);  // an invalid mapping is refused here, located in the file
    const ExportedFiles exported =
        native_to_timeloop_files(c.arch, *c.problem, c.mapping, {o.mapping, 0, 0});
    print_notes(exported.notes);
    const auto written = write_output_files(o.out, exported.files, o.force);
    print_written(written);
    std::string files;
    for (const auto& path : written) files += " " + path.string();
    std::cout << "next: timeloop-model" << files << "\n"
              << "  or: trainloop eval --timeloop" << files << "\n";
}

}  // namespace

void add_import_export_commands(CLI::App& app) {
    CLI::App* import_command = app.add_subcommand(
        "import", "Convert another tool's input files into trainloop-native spec files");
    import_command->require_subcommand(1);
    auto io = std::make_shared<ImportOptions>();
    CLI::App* from_timeloop = import_command->add_subcommand(
        "timeloop",
        "Convert timeloop-model's inputs (architecture v0.3, CNN-layer problem, mapping, ERT, "
        "ART; merged by top-level key) into DIR/arch.yaml, components.yaml, workload.yaml and "
        "mapping.yaml (docs/timeloop_interop.md).");
    from_timeloop->add_option("files", io->files, "timeloop-model's input YAML files")
        ->required()
        ->check(CLI::ExistingFile);
    from_timeloop->add_option("--out,-o", io->out, "Output directory (created when missing)")
        ->required();
    from_timeloop->add_flag("--force", io->force, "Overwrite files that already exist");
    from_timeloop->callback([io] { run_import(*io); });

    CLI::App* export_command = app.add_subcommand(
        "export", "Write a trainloop case as another tool's input files, for cross-checking");
    export_command->require_subcommand(1);
    auto eo = std::make_shared<ExportOptions>();
    CLI::App* to_timeloop = export_command->add_subcommand(
        "timeloop",
        "Write one mapping of one layer's phase as timeloop-model's inputs: DIR/map.yaml, "
        "problem.yaml, arch.yaml, ERT.yaml, ART.yaml (docs/timeloop_interop.md). Options not "
        "given are taken from the mapping file's `for:` block.");
    to_timeloop
        ->add_option("--mapping,-m", eo->mapping,
                     "The mapping: a file in any form trainloop prints (YAML, JSON, one-line), "
                     "or a one-line mapping given inline (docs/mapping_format.md)")
        ->required();
    add_mapping_override_options(to_timeloop, *eo);
    to_timeloop->add_option("--out,-o", eo->out, "Output directory (created when missing)")
        ->required();
    to_timeloop->add_flag("--force", eo->force, "Overwrite files that already exist");
    to_timeloop->callback([eo] { run_export(*eo); });
}

}  // namespace trainloop::cli
