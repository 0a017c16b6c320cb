// trainloop: analytical design-space exploration for DNN training accelerators.
// Exit codes: 0 success, 2 bad input (specs, options), 1 internal error.
#include <fmt/format.h>
#include <yaml-cpp/exceptions.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "cartesian_command.hpp"
#include "common/spec_error.hpp"
#include "eval_command.hpp"
#include "import_export_command.hpp"
#include "interruption.hpp"
#include "map_command.hpp"
#include "report_command.hpp"
#include "results_db_commands.hpp"
#include "spec_command.hpp"
#include "train_cost_command.hpp"
#include "workload_command.hpp"

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 1;

// Output that could not be written (a full disk, a file-size limit) must not
// end in exit code 0 with a truncated result.
int check_output_written(int code) {
    std::cout.flush();
    if (std::cout) return code;
    std::cerr << "error: cannot write the output to standard output (the output is incomplete)"
              << "\n  hint: check the free space and the file-size limit (ulimit -f)\n";
    return code == 0 ? kExitBadInput : code;
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) { return check_output_written(run(argc, argv)); }

namespace {

int run(int argc, char** argv) {
    trainloop::cli::install_interruption_handlers(argc, argv);
    CLI::App app{
        "trainloop — analytical design-space exploration for DNN training accelerators.\n"
        "Models the forward (fw), backward (bw) and weight-update (wu) phases of every layer."};
    app.set_version_flag("--version", std::string("trainloop ") + TRAINLOOP_VERSION);
    // Command-line mistakes read like every other error: "error: --batch: ...".
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return std::string("error: ") + e.what() + "\nRun with --help for more information.\n";
    });
    app.require_subcommand(1);
    app.footer(
        "\nExamples:\n"
        "  trainloop workload list\n"
        "  trainloop workload show resnet18 --batch 16\n"
        "  trainloop workload show my_net.yaml --format json\n"
        "  trainloop spec check arch_specs/procrustes_baseline_16x16.yaml workloads/*.yaml\n"
        "  trainloop eval --mapping examples/mappings/resnet18_3x3_KN_fw.yaml\n"
        "  trainloop map --arch arch_specs/procrustes_baseline_16x16.yaml --workload resnet18 "
        "--dataflow K,N\n"
        "  trainloop map --arch arch_specs/procrustes_baseline_16x16.yaml --workload resnet18 "
        "--constraints examples/constraints/procrustes_KN_batch_on_y.yaml\n"
        "  trainloop eval -m examples/mappings/resnet18_3x3_KN_fw.yaml --arch "
        "arch_specs/procrustes_sparse_16x16.yaml --sparsity procrustes\n"
        "  trainloop train-cost --arch arch_specs/procrustes_sparse_16x16.yaml --workload "
        "resnet18 --sparsity procrustes --iterations 10000\n"
        "  trainloop cartesian --workload resnet18 --phase wu\n"
        "  trainloop sweep examples/sweeps/tiny.yaml --db tiny.db\n"
        "  trainloop query --db tiny.db summary\n"
        "  trainloop report --db tiny.db --out report.html --figures figures/\n"
        "  trainloop eval --db tiny.db --point 3 --layer fc1 --phase wu\n"
        "  trainloop eval --timeloop arch.yaml problem.yaml map.yaml ERT.yaml ART.yaml\n"
        "  trainloop import timeloop arch.yaml problem.yaml map.yaml ERT.yaml --out my_design\n"
        "\nExit codes: 0 success, 2 bad input, 1 internal error.");
    trainloop::cli::add_workload_command(app);
    trainloop::cli::add_spec_command(app);
    trainloop::cli::add_eval_command(app);
    trainloop::cli::add_import_export_commands(app);
    trainloop::cli::add_map_command(app);
    trainloop::cli::add_train_cost_command(app);
    trainloop::cli::add_cartesian_command(app);
    trainloop::cli::add_sweep_command(app);
    trainloop::cli::add_query_command(app);
    trainloop::cli::add_db_command(app);
    trainloop::cli::add_report_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::RuntimeError& e) {
        // A command that already reported its problems and only sets the exit code.
        return e.get_exit_code();
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    } catch (const trainloop::SpecError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::filesystem::filesystem_error& e) {
        // A path the user gave that the file system refuses (a symlink loop,
        // a permission, a name too long, a full disk): bad input, not a bug.
        std::cerr << "error: " << e.path1().string() << ": " << e.code().message()
                  << "\n  hint: check the path and its permissions\n";
        return kExitBadInput;
    } catch (const YAML::Exception& e) {
        std::cerr << "error: cannot read the YAML: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "internal error: " << e.what() << "\n";
        return kExitInternal;
    }
    return 0;
}

}  // namespace
