#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "common/spec_error.hpp"
#include "number_options.hpp"
#include "query_render.hpp"
#include "reporting_errors.hpp"
#include "results_db_commands.hpp"
#include "store/canned_queries.hpp"
#include "store/query_table.hpp"
#include "store/results_store.hpp"

namespace trainloop::cli {
namespace {

struct QueryOptions {
    std::string db;
    std::string name;
    std::string sql;
    std::string format = "table";
    QueryArgs args;
    std::string arch, network, dataflow, sparsity, layer, phase, baseline;
    std::int64_t batch = 0;
    double time_limit = SqlLimits{}.seconds;
    std::int64_t memory_limit_mib = SqlLimits{}.bytes >> 20;
};

std::optional<std::string> given(const std::string& value) {
    if (value.empty()) return std::nullopt;
    return value;
}

void run_query(QueryOptions o) {
    if (o.name.empty() == o.sql.empty()) {
        throw SpecError({}, "query",
                        o.name.empty() ? "nothing to run" : "both a query name and --sql given",
                        "a canned query name (summary, best, pareto, compare-dataflows, "
                        "compare-archs) or --sql \"SELECT ...\", not both");
    }
    ResultsStore store = ResultsStore::open_for_reading(o.db);
    QueryTable table;
    if (!o.sql.empty()) {
        table =
            run_read_only_sql(store.database(), o.sql, {o.time_limit, o.memory_limit_mib << 20});
    } else {
        QueryArgs& a = o.args;
        a.arch = given(o.arch);
        a.network = given(o.network);
        a.dataflow = given(o.dataflow);
        a.sparsity = given(o.sparsity);
        a.layer = given(o.layer);
        a.phase = given(o.phase);
        a.baseline = given(o.baseline);
        if (o.batch > 0) a.batch = o.batch;
        table = run_canned_query(store.database(), o.name, a);
    }
    std::cout << render_query(table, o.format);
}

}  // namespace

void add_query_command(CLI::App& app) {
    auto o = std::make_shared<QueryOptions>();
    CLI::App* cmd = app.add_subcommand(
        "query",
        "Query a results database (read-only, also while a sweep writes it): summary, best, "
        "pareto, compare-dataflows, compare-archs, or --sql \"SELECT ...\". Columns: "
        "docs/results_db.md.");
    cmd->add_option("name", o->name, canned_query_usage());
    cmd->add_option("--db", o->db, "Results database")->required();
    cmd->add_option("--sql", o->sql, "Any read-only SQL statement instead of a canned query");
    cmd->add_option("--time-limit", o->time_limit,
                    "Seconds a --sql statement may run before it is stopped")
        ->default_val(SqlLimits{}.seconds)
        ->transform(finite_number_in(0.001, 1e6));
    cmd->add_option("--memory-limit", o->memory_limit_mib,
                    "MiB a --sql statement may use (SQLite's memory, and again its result)")
        ->default_val(SqlLimits{}.bytes >> 20)
        ->transform(integer_in(1, std::int64_t{1} << 20));
    cmd->add_option("--arch", o->arch, "Architecture name");
    cmd->add_option("--network", o->network, "Network name");
    cmd->add_option("--dataflow", o->dataflow, "Dataflow, e.g. K,N");
    cmd->add_option("--sparsity", o->sparsity, "Sparsity profile name");
    cmd->add_option("--batch", o->batch, "Batch size")->transform(count_from(1));
    cmd->add_option("--layer", o->layer, "Layer name (pareto)");
    cmd->add_option("--phase", o->phase, "fw, bw, wu, or step (pareto)");
    cmd->add_option("--baseline", o->baseline, "Baseline architecture name (compare-archs)");
    cmd->add_option("--by", o->args.by,
                    "What `best` minimizes: edp, energy, latency (cycles), offchip (off-chip "
                    "words, recorded since schema 7)")
        ->default_val("edp")
        ->check(CLI::IsMember({"edp", "energy", "latency", "offchip"}));
    cmd->add_option("--format,-f", o->format, "Output format")
        ->default_val("table")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    cmd->callback([o] { run_reporting_errors(o->format, [o] { run_query(*o); }); });
}

}  // namespace trainloop::cli
