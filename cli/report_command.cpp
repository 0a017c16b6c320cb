#include "report_command.hpp"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "common/data_directory.hpp"
#include "common/file_text.hpp"
#include "common/spec_error.hpp"
#include "store/results_store.hpp"

extern char** environ;

namespace trainloop::cli {
namespace {

struct ReportOptions {
    std::string db;
    std::string baseline;
    std::vector<std::string> networks;
    std::string out = "report.html";
    std::string figures;
    std::vector<std::string> histogram_layers;
};

std::string python_interpreter() {
    if (const char* p = std::getenv("TRAINLOOP_PYTHON"); p != nullptr && *p != '\0') return p;
    return TRAINLOOP_PYTHON;
}

// Runs `argv` with `PYTHONPATH` set to `package_dir`; returns its exit code.
int run_child(const std::vector<std::string>& argv, const std::string& package_dir) {
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
        if (std::strncmp(*e, "PYTHONPATH=", 11) != 0) env_strings.emplace_back(*e);
    }
    env_strings.push_back("PYTHONPATH=" + package_dir);
    std::vector<char*> env;
    for (std::string& s : env_strings) env.push_back(s.data());
    env.push_back(nullptr);
    std::vector<std::string> args = argv;
    std::vector<char*> cargs;
    for (std::string& a : args) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, cargs[0], nullptr, nullptr, cargs.data(), env.data());
    if (spawned != 0) {
        throw std::runtime_error(fmt::format(
            "cannot run {} ({}): reports need Python 3 with matplotlib (scripts/setup.sh "
            "installs python3-matplotlib; TRAINLOOP_PYTHON names another interpreter)",
            argv[0], std::strerror(spawned)));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error("waitpid failed");
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 1;
}

// Refuses, before anything is rendered, an --out that is the results
// database (or its -wal / -shm file: the report would replace the results
// with HTML) or that cannot be written (its folder is missing or read-only).
void check_output_path(const ReportOptions& o) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path out = fs::weakly_canonical(o.out, ec);
    const fs::path db = fs::weakly_canonical(o.db, ec);
    for (const std::string suffix : {"", "-wal", "-shm", "-journal"}) {
        if (out == fs::path(db.string() + suffix)) {
            throw SpecError({o.out}, "--out",
                            fmt::format("--out names the results database{} the report reads: "
                                        "it would be replaced with HTML",
                                        suffix.empty() ? "" : "'s " + suffix.substr(1) + " file"),
                            "an --out path other than the database's", "e.g. --out report.html");
        }
    }
    const fs::path folder = out.has_parent_path() ? out.parent_path() : fs::path(".");
    if (!fs::is_directory(folder, ec) || access(folder.c_str(), W_OK) != 0) {
        throw SpecError(
            {o.out}, "--out",
            fmt::format("cannot write the report: its folder {} {}", folder.string(),
                        fs::is_directory(folder, ec) ? "is not writable" : "does not exist"),
            "a path in an existing, writable folder");
    }
}

void run_report(const ReportOptions& o) {
    // The errors `query` gives for a missing, empty, foreign, corrupt or
    // too-new database (exit 2), before starting Python.
    { ResultsStore::open_for_reading(o.db); }
    check_output_path(o);
    const std::filesystem::path package_dir = data_directory() / "reports";
    if (!is_regular_file_path(package_dir / "trainloop_report" / "__main__.py")) {
        throw std::runtime_error(
            fmt::format("the report package is missing from {} (set "
                        "TRAINLOOP_DATA_DIR to the source tree)",
                        package_dir.string()));
    }
    std::vector<std::string> argv = {
        python_interpreter(), "-m", "trainloop_report", "--db", o.db, "--out", o.out};
    if (!o.baseline.empty()) argv.insert(argv.end(), {"--baseline", o.baseline});
    for (const std::string& n : o.networks) argv.insert(argv.end(), {"--network", n});
    if (!o.figures.empty()) argv.insert(argv.end(), {"--figures", o.figures});
    for (const std::string& l : o.histogram_layers)
        argv.insert(argv.end(), {"--histogram-layer", l});
    std::string command = "trainloop report --db " + o.db;
    for (std::size_t i = 5; i < argv.size(); ++i) command += " " + argv[i];
    argv.insert(
        argv.end(),
        {"--trainloop", std::filesystem::read_symlink("/proc/self/exe").string(), "--tool-version",
         std::string("trainloop ") + TRAINLOOP_VERSION, "--command", command});
    const int code = run_child(argv, package_dir.string());
    if (code != 0) throw CLI::RuntimeError(code);
}

}  // namespace

void add_report_command(CLI::App& app) {
    auto o = std::make_shared<ReportOptions>();
    CLI::App* cmd = app.add_subcommand(
        "report",
        "Write one self-contained HTML report comparing the accelerator proposals of a results "
        "database: parameters side by side, speed-up and energy against a baseline (wall "
        "time), energy by phase and component class, dataflows and array scaling, Pareto "
        "fronts, layer by layer, sparse work and load imbalance, provenance "
        "(docs/reports.md).");
    cmd->add_option("--db", o->db, "Results database")->required();
    cmd->add_option("--baseline", o->baseline,
                    "Baseline architecture (default: the dense one with the fewest PEs)");
    cmd->add_option("--network", o->networks, "Only these networks (repeatable)");
    cmd->add_option("--out,-o", o->out, "HTML file to write")->default_val("report.html");
    cmd->add_option("--figures", o->figures, "Also write every chart as DIR/NAME.pdf and .svg");
    cmd->add_option("--histogram-layer", o->histogram_layers,
                    "Per-wave imbalance histogram of this layer of the sparse proposals: LAYER "
                    "or LAYER:PHASE (repeatable; default: each one's two most imbalanced)");
    cmd->callback([o] { run_report(*o); });
}

}  // namespace trainloop::cli
