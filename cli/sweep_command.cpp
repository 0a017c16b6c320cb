#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>

#include "arch/pricing_notes.hpp"
#include "common/spec_error.hpp"
#include "interruption.hpp"
#include "number_options.hpp"
#include "progress_bar.hpp"
#include "results_db_commands.hpp"
#include "sweep/architecture_variant.hpp"
#include "sweep/sweep_parser.hpp"
#include "sweep/sweep_runner.hpp"

namespace trainloop::cli {
namespace {

struct SweepOptions {
    std::string file;
    std::string db;
    int threads = 0;
    int parallel_points = 0;
    std::string shard = "1/1";
    bool quiet = false;
    bool check = false;
};

// Exit code of a sweep that ran points and all of them failed: nothing to
// query, and an overnight job should not look like it succeeded.
constexpr int kExitAllPointsFailed = 3;

void run_sweep_check(const SweepOptions& o) {
    const SweepSpec spec = load_sweep(o.file);
    const SweepCheckSummary s = check_sweep(spec);
    for (const std::string& note : s.notes) std::cout << "note: " << note << "\n";
    std::cout << fmt::format(
        "{}: sweep {} is valid: {} points ({} architectures, {} networks, {} batches, {} "
        "sparsity profiles, {} dataflows, {} objectives)\n",
        o.file, spec.name, s.points, spec.architectures.size(), spec.networks.size(),
        spec.batches.size(), spec.sparsity.size(), spec.dataflows.size(), spec.objectives.size());
}

void run_sweep_command(const SweepOptions& o) {
    if (o.check) return run_sweep_check(o);
    if (o.db.empty()) {
        throw SpecError({}, "--db", "no results database given",
                        "--db FILE (created when missing), or --check to only validate the sweep");
    }
    const Shard shard = parse_shard(o.shard);
    const SweepSpec spec = load_sweep(o.file);
    for (const ArchitectureVariant& variant : load_sweep_architectures(spec)) {
        for (const std::string& note : pricing_notes(variant.arch))
            std::cerr << "note: " << variant.arch.name << ": " << note << "\n";
    }
    ResultsStore store = ResultsStore::open_for_writing(o.db);
    set_interruption_note(
        fmt::format("{{recorded}} points of this sweep are recorded in {} (each point is "
                    "committed whole; those in progress are not).",
                    o.db),
        "Resume with the same command (recorded points are skipped):", true);
    ProgressBar bar("sweep " + spec.name, "points", !o.quiet);
    const SweepRunSummary s =
        run_sweep(spec, store, {shard, usable_threads(o.threads), o.parallel_points},
                  [&bar](const SweepProgress& p) {
                      set_interruption_count(p.skipped + p.done);
                      std::string note;
                      if (p.skipped > 0) note = fmt::format("{} recorded earlier", p.skipped);
                      if (p.failed > 0)
                          note += fmt::format("{}{} failed", note.empty() ? "" : ", ", p.failed);
                      bar.update(p.done, p.to_run, p.seconds, note);
                  });
    bar.finish();
    std::cout << fmt::format(
        "sweep {}: {} points{}; {} already recorded, {} run ({} failed) in {:.1f} s -> {}\n",
        spec.name, s.sweep_points,
        shard.count > 1
            ? fmt::format(" (shard {}/{}: {})", shard.index, shard.count, s.shard_points)
            : "",
        s.skipped, s.ran, s.failed, s.seconds, o.db);
    if (s.ran > 0 && s.failed == s.ran) {
        std::cerr << fmt::format(
            "error: every point run failed (their reasons: trainloop query --db {} --sql "
            "\"SELECT idx, failure FROM points WHERE status = 'failed'\")\n",
            o.db);
        throw CLI::RuntimeError(kExitAllPointsFailed);
    }
}

}  // namespace

void add_sweep_command(CLI::App& app) {
    auto o = std::make_shared<SweepOptions>();
    CLI::App* cmd = app.add_subcommand(
        "sweep",
        "Run a sweep (a cartesian product of architectures, networks, batch sizes, sparsity "
        "profiles, dataflows and objectives) into a results database. Interrupted (even by kill "
        "-9), the same command resumes: recorded points are skipped. Exit codes: 0 done, 2 bad "
        "input, 3 every point run failed.");
    cmd->add_option("sweep", o->file, "Sweep YAML file (docs/results_db.md)")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--db", o->db, "Results database (SQLite; created when missing)");
    cmd->add_flag("--check", o->check,
                  "Only validate the sweep file and everything it references (architectures, "
                  "overrides, constraints, networks, sparsity profiles and masks); run nothing");
    cmd->add_option("--threads,-j", o->threads,
                    "Worker threads in all (0: all cores; more than the machine has are capped)")
        ->default_val(0)
        ->transform(integer_in(0, std::numeric_limits<int>::max()));
    cmd->add_option("--parallel-points", o->parallel_points,
                    "Points mapped side by side, sharing the threads (0: automatic — more than "
                    "one only when there are more threads than one point's search can use: 32 "
                    "for annealing until converged, 8 at a fixed budget, 64 for random). The "
                    "results do not depend on it")
        ->default_val(0)
        ->transform(integer_in(0, 4096));
    cmd->add_option("--shard", o->shard,
                    "Run only shard I of N (points numbered I-1 modulo N), e.g. for an array job; "
                    "combine the shards' databases with `trainloop db merge`")
        ->default_val("1/1");
    cmd->add_flag("--quiet,-q", o->quiet, "No progress on standard error");
    cmd->callback([o] { run_sweep_command(*o); });
}

}  // namespace trainloop::cli
