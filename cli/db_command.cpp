#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "common/spec_error.hpp"
#include "interruption.hpp"
#include "results_db_commands.hpp"
#include "store/schema.hpp"
#include "store/store_merge.hpp"

namespace trainloop::cli {
namespace {

void run_merge(const std::string& out, const std::vector<std::string>& inputs) {
    ResultsStore store = ResultsStore::open_for_writing(out);
    set_interruption_note(
        fmt::format("{{recorded}} of the {} inputs were merged into {} (each input in one "
                    "transaction; the one in progress is rolled back).",
                    inputs.size(), out),
        "Rerun the same command (points already in the output are skipped):", true);
    std::vector<std::filesystem::path> paths(inputs.begin(), inputs.end());
    const MergeSummary s = merge_databases(
        store, paths, [](std::size_t merged) { set_interruption_count(std::int64_t(merged)); });
    std::cout << fmt::format(
        "merged {} database{} into {}: {} points added ({} results), {} already present\n",
        inputs.size(), inputs.size() == 1 ? "" : "s", out, s.points_added, s.results_added,
        s.points_skipped);
}

void run_check(const std::string& file) {
    Database db(file, OpenMode::read_only);
    const std::vector<std::string> problems = check_database(db);
    if (!problems.empty()) {
        std::string list;
        for (std::size_t i = 0; i < problems.size() && i < 20; ++i) list += "\n  " + problems[i];
        throw SpecError({file, 0, 0}, "",
                        fmt::format("{} problem{} found:{}", problems.size(),
                                    problems.size() == 1 ? "" : "s", list),
                        "an intact database",
                        "rerun the sweep into a new file; points recorded intact can be "
                        "recovered with `sqlite3 FILE .recover`");
    }
    Statement points = db.prepare("SELECT count(*) FROM points");
    points.step();
    std::cout << fmt::format("{}: ok (schema version {}, {} points)\n", file,
                             current_schema_version(), points.int64(0));
}

}  // namespace

void add_db_command(CLI::App& app) {
    CLI::App* db = app.add_subcommand("db", "Maintain results databases: merge, check");
    db->require_subcommand(1);

    auto out = std::make_shared<std::string>();
    auto inputs = std::make_shared<std::vector<std::string>>();
    CLI::App* merge = db->add_subcommand(
        "merge",
        "Combine results databases (e.g. the shards of a sweep) into OUT (created when "
        "missing); points already in OUT are kept");
    merge->add_option("out", *out, "Output database")->required();
    merge->add_option("inputs", *inputs, "Input databases")->required();
    merge->callback([out, inputs] { run_merge(*out, *inputs); });

    auto file = std::make_shared<std::string>();
    CLI::App* check = db->add_subcommand(
        "check", "Run SQLite's integrity and foreign-key checks and the schema version check");
    check->add_option("file", *file, "Database file")->required();
    check->callback([file] { run_check(*file); });
}

}  // namespace trainloop::cli
