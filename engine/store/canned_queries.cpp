#include "store/canned_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"
#include "store/pareto_flags.hpp"

namespace trainloop {
namespace {

// Phases sort in training order, not alphabetically.
constexpr const char* kPhaseOrder =
    "CASE {} WHEN 'fw' THEN 0 WHEN 'bw' THEN 1 WHEN 'wu' THEN 2 ELSE 3 END";

std::string phase_order(const std::string& column) {
    return fmt::format(fmt::runtime(kPhaseOrder), column);
}

[[noreturn]] void fail_arg(const Database& db, const std::string& key, const std::string& message,
                           const std::string& expected, const std::string& hint = {}) {
    throw SpecError({db.path().string(), 0, 0}, key, message, expected, hint);
}

std::vector<std::string> distinct_values(Database& db, const std::string& sql) {
    Statement s = db.prepare(sql);
    std::vector<std::string> values;
    while (s.step()) values.push_back(s.text(0));
    return values;
}

// Fails unless `value` is among the values `sql` lists.
void require_known(Database& db, const std::string& key, const std::string& what,
                   const std::string& value, const std::string& sql) {
    const std::vector<std::string> known = distinct_values(db, sql);
    if (std::find(known.begin(), known.end(), value) != known.end()) return;
    fail_arg(db, key, fmt::format("no {} named `{}` in this database", what, value),
             fmt::format("one of the {} names the database holds", what),
             known.empty() ? "the database holds none" : suggestion_hint(value, known));
}

// WHERE conditions on points (alias p) and their bound values, built from
// the arguments a query accepts.
struct PointFilter {
    std::vector<std::string> conditions = {"p.status = 'done'"};
    std::vector<QueryValue> values;

    void add(const std::string& condition, QueryValue value) {
        conditions.push_back(condition);
        values.push_back(std::move(value));
    }
    std::string where() const {
        std::string text;
        for (const std::string& c : conditions) text += (text.empty() ? "" : " AND ") + c;
        return text;
    }
    void bind(Statement& s, int first = 1) const {
        int i = first;
        for (const QueryValue& v : values) {
            if (const auto* n = std::get_if<std::int64_t>(&v)) s.bind(i, *n);
            if (const auto* t = std::get_if<std::string>(&v)) s.bind(i, *t);
            ++i;
        }
    }
};

PointFilter point_filter(Database& db, const QueryArgs& a) {
    PointFilter f;
    if (a.arch) {
        require_known(db, "--arch", "architecture", *a.arch,
                      "SELECT DISTINCT name FROM architectures ORDER BY 1");
        f.add("p.arch_id IN (SELECT id FROM architectures WHERE name = ?)", *a.arch);
    }
    if (a.network) {
        require_known(db, "--network", "network", *a.network,
                      "SELECT DISTINCT name FROM networks ORDER BY 1");
        f.add("p.network_id IN (SELECT id FROM networks WHERE name = ?)", *a.network);
    }
    if (a.sparsity) {
        require_known(db, "--sparsity", "sparsity profile", *a.sparsity,
                      "SELECT DISTINCT name FROM sparsity_profiles ORDER BY 1");
        f.add("p.sparsity_id IN (SELECT id FROM sparsity_profiles WHERE name = ?)", *a.sparsity);
    }
    if (a.dataflow) {
        require_known(db, "--dataflow", "dataflow", *a.dataflow,
                      "SELECT DISTINCT dataflow FROM points ORDER BY 1");
        f.add("p.dataflow = ?", *a.dataflow);
    }
    if (a.batch) f.add("p.batch = ?", *a.batch);
    return f;
}

void require(const Database& db, const std::optional<std::string>& value, const std::string& key,
             const std::string& query) {
    if (!value) {
        fail_arg(db, key, fmt::format("`{}` needs {}", query, key), fmt::format("{} NAME", key));
    }
}

void check_phase(const Database& db, const std::string& phase, bool step_allowed) {
    if (phase == "fw" || phase == "bw" || phase == "wu" || (step_allowed && phase == "step"))
        return;
    fail_arg(db, "--phase", fmt::format("unknown phase `{}`", phase),
             step_allowed ? "fw, bw, wu or step" : "fw, bw or wu");
}

// --phase for the comparisons: one phase's totals, or `step`.
void add_phase_filter(const Database& db, PointFilter& f, const QueryArgs& args) {
    if (!args.phase) return;
    check_phase(db, *args.phase, true);
    f.add("t.phase = ?", *args.phase);
}

std::string metric_expression(const Database& db, const std::string& by, const std::string& t) {
    if (by == "edp") return fmt::format("{0}.energy_pj * {0}.cycles", t);
    if (by == "energy") return t + ".energy_pj";
    if (by == "latency") return t + ".cycles";
    fail_arg(db, "--by", fmt::format("unknown ranking `{}`", by), "edp, energy or latency");
}

double as_double(const QueryValue& v) {
    if (const auto* n = std::get_if<std::int64_t>(&v)) return double(*n);
    if (const auto* d = std::get_if<double>(&v)) return *d;
    return 0;
}

}  // namespace

const std::vector<std::string>& canned_query_names() {
    static const std::vector<std::string> names = {"summary", "best", "pareto", "compare-dataflows",
                                                   "compare-archs"};
    return names;
}

QueryTable run_canned_query(Database& db, const std::string& name, const QueryArgs& args) {
    if (name == "summary") return query_summary(db);
    if (name == "best") return query_best(db, args);
    if (name == "pareto") return query_pareto(db, args);
    if (name == "compare-dataflows") return query_compare_dataflows(db, args);
    if (name == "compare-archs") return query_compare_archs(db, args);
    throw SpecError({}, "query", fmt::format("unknown query `{}`", name),
                    "summary, best, pareto, compare-dataflows or compare-archs (or --sql)",
                    suggestion_hint(name, canned_query_names()));
}

QueryTable query_summary(Database& db) {
    struct Group {
        std::int64_t done = 0;
        std::int64_t failed = 0;
        std::int64_t layer_phases = 0;
        std::optional<std::int64_t> min_cycles;
        std::optional<double> min_energy;
    };
    // (group kind order, kind, name) -> counts; one pass over the points.
    std::map<std::tuple<int, std::string, std::string>, Group> groups;
    auto add = [&](int order, const std::string& kind, const std::string& name, bool done,
                   std::int64_t layer_phases, const std::optional<std::int64_t>& cycles,
                   const std::optional<double>& energy) {
        Group& g = groups[{order, kind, name}];
        (done ? g.done : g.failed) += 1;
        g.layer_phases += layer_phases;
        if (cycles && (!g.min_cycles || *cycles < *g.min_cycles)) g.min_cycles = cycles;
        if (energy && (!g.min_energy || *energy < *g.min_energy)) g.min_energy = energy;
    };
    Statement points = db.prepare(
        "SELECT a.name, n.name, s.name, p.dataflow, p.status = 'done', p.layer_phases, "
        "st.cycles, st.energy_pj FROM points p "
        "JOIN architectures a ON a.id = p.arch_id JOIN networks n ON n.id = p.network_id "
        "JOIN sparsity_profiles s ON s.id = p.sparsity_id "
        "LEFT JOIN phase_totals st ON st.point_id = p.id AND st.phase = 'step'");
    while (points.step()) {
        const bool done = points.int64(4) != 0;
        const std::int64_t lp = points.int64(5);
        std::optional<std::int64_t> cycles;
        std::optional<double> energy;
        if (!points.is_null(6)) {
            cycles = points.int64(6);
            energy = points.real(7);
        }
        add(0, "total", "", done, lp, cycles, energy);
        add(1, "architecture", points.text(0), done, lp, cycles, energy);
        add(2, "network", points.text(1), done, lp, cycles, energy);
        add(3, "sparsity", points.text(2), done, lp, cycles, energy);
        add(4, "dataflow", points.text(3), done, lp, cycles, energy);
    }
    QueryTable table;
    table.columns = {"group",        "name",       "points_done",  "points_failed",
                     "layer_phases", "min_cycles", "min_energy_pj"};
    // Rows are built value by value: brace lists of variants trip GCC 12's
    // maybe-uninitialized warning.
    auto push = [&table](const std::string& group, const std::string& name, std::int64_t done,
                         std::int64_t failed, std::int64_t layer_phases,
                         const std::optional<std::int64_t>& cycles,
                         const std::optional<double>& energy) {
        std::vector<QueryValue> row;
        row.emplace_back(group);
        row.emplace_back(name);
        row.emplace_back(done);
        row.emplace_back(failed);
        row.emplace_back(layer_phases);
        if (cycles) {
            row.emplace_back(*cycles);
        } else {
            row.emplace_back(std::monostate{});
        }
        if (energy) {
            row.emplace_back(*energy);
        } else {
            row.emplace_back(std::monostate{});
        }
        table.rows.push_back(std::move(row));
    };
    for (const auto& [key, g] : groups) {
        push(std::get<1>(key), std::get<2>(key), g.done, g.failed, g.layer_phases, g.min_cycles,
             g.min_energy);
    }
    // Per phase: how many points mapped it, layer-phases, and its lowest totals.
    Statement phases = db.prepare(
        "SELECT phase, count(*), sum(layer_phases), min(cycles), min(energy_pj) "
        "FROM phase_totals WHERE phase <> 'step' GROUP BY phase ORDER BY " +
        phase_order("phase"));
    while (phases.step()) {
        push("phase", phases.text(0), phases.int64(1), 0, phases.int64(2), phases.int64(3),
             phases.real(4));
    }
    return table;
}

QueryTable query_best(Database& db, const QueryArgs& args) {
    require(db, args.arch, "--arch", "best");
    require(db, args.network, "--network", "best");
    require(db, args.dataflow, "--dataflow", "best");
    const std::string metric = metric_expression(db, args.by, "r");
    const PointFilter f = point_filter(db, args);
    // SQLite's bare columns take their values from the row holding min().
    Statement s = db.prepare(fmt::format(
        "SELECT r.layer, r.phase, r.cycles, r.energy_pj, r.utilization, r.imbalance_pct, "
        "min({0}) AS {1}, p.batch, s.name AS sparsity, p.objective, m.text AS mapping "
        "FROM points p JOIN results r ON r.point_id = p.id AND r.choice = 0 "
        "JOIN mappings m ON m.id = r.mapping_id "
        "JOIN sparsity_profiles s ON s.id = p.sparsity_id "
        "WHERE {2} GROUP BY r.layer_index, r.phase ORDER BY r.layer_index, {3}",
        metric, args.by, f.where(), phase_order("r.phase")));
    f.bind(s);
    return collect_rows(s);
}

QueryTable query_pareto(Database& db, const QueryArgs& args) {
    require(db, args.network, "--network", "pareto");
    const PointFilter f = point_filter(db, args);
    if (args.layer) {
        require(db, args.phase, "--phase", "pareto --layer");
        check_phase(db, *args.phase, false);
        Statement s = db.prepare(fmt::format(
            "SELECT p.batch, a.name AS arch, s.name AS sparsity, p.dataflow, p.objective, "
            "r.choice, r.cycles, r.energy_pj, a.area_um2, m.text AS mapping "
            "FROM results r JOIN points p ON p.id = r.point_id "
            "JOIN architectures a ON a.id = p.arch_id "
            "JOIN sparsity_profiles s ON s.id = p.sparsity_id "
            "JOIN mappings m ON m.id = r.mapping_id "
            "WHERE r.pareto_layer = 1 AND r.layer = ? AND r.phase = ? AND {} "
            "ORDER BY p.batch, r.energy_pj, r.cycles, a.area_um2, r.id",
            f.where()));
        s.bind(1, *args.layer).bind(2, *args.phase);
        f.bind(s, 3);
        QueryTable table = collect_rows(s);
        if (table.rows.empty()) {
            require_known(db, "--layer", "layer", *args.layer,
                          "SELECT DISTINCT layer FROM results ORDER BY 1");
        }
        return table;
    }
    const std::string phase = args.phase.value_or("step");
    check_phase(db, phase, true);
    const std::string columns =
        "p.batch, a.name AS arch, s.name AS sparsity, p.dataflow, p.objective, t.cycles, "
        "t.energy_pj, a.area_um2";
    const std::string from =
        "FROM points p JOIN phase_totals t ON t.point_id = p.id AND t.phase = ? "
        "JOIN architectures a ON a.id = p.arch_id "
        "JOIN sparsity_profiles s ON s.id = p.sparsity_id ";
    if (phase == "step") {  // kept as a flag when results are written
        Statement s =
            db.prepare(fmt::format("SELECT {} {} WHERE p.pareto_step = 1 AND {} "
                                   "ORDER BY p.batch, t.energy_pj, t.cycles, a.area_um2, p.id",
                                   columns, from, f.where()));
        s.bind(1, phase);
        f.bind(s, 2);
        return collect_rows(s);
    }
    // One phase: the front is computed here, per batch.
    Statement s =
        db.prepare(fmt::format("SELECT {} {} WHERE {} ORDER BY p.batch, t.energy_pj, t.cycles, "
                               "a.area_um2, p.id",
                               columns, from, f.where()));
    s.bind(1, phase);
    f.bind(s, 2);
    const QueryTable all = collect_rows(s);
    QueryTable front;
    front.columns = all.columns;
    std::size_t begin = 0;
    while (begin < all.rows.size()) {
        std::size_t end = begin;
        std::vector<ParetoMetrics> metrics;
        while (end < all.rows.size() && all.rows[end][0] == all.rows[begin][0]) {
            metrics.push_back({as_double(all.rows[end][6]), as_double(all.rows[end][5]),
                               as_double(all.rows[end][7])});
            ++end;
        }
        const std::vector<bool> member = pareto_members(metrics);
        for (std::size_t i = begin; i < end; ++i) {
            if (member[i - begin]) front.rows.push_back(all.rows[i]);
        }
        begin = end;
    }
    return front;
}

QueryTable query_compare_dataflows(Database& db, const QueryArgs& args) {
    require(db, args.network, "--network", "compare-dataflows");
    QueryArgs filter = args;
    filter.dataflow.reset();
    PointFilter f = point_filter(db, filter);
    add_phase_filter(db, f, args);
    Statement s = db.prepare(fmt::format(
        "SELECT a.name AS arch, s.name AS sparsity, p.batch, t.phase, p.dataflow, t.cycles, "
        "t.energy_pj, min(t.energy_pj * t.cycles) AS edp "
        "FROM points p JOIN phase_totals t ON t.point_id = p.id "
        "JOIN architectures a ON a.id = p.arch_id "
        "JOIN sparsity_profiles s ON s.id = p.sparsity_id "
        "WHERE {} GROUP BY p.arch_id, p.sparsity_id, p.batch, t.phase, p.dataflow "
        "ORDER BY a.name, p.arch_id, s.name, p.batch, {}, edp, p.dataflow",
        f.where(), phase_order("t.phase")));
    f.bind(s);
    QueryTable table = collect_rows(s);
    table.columns.push_back("edp_vs_best");
    // Rows of one (arch, sparsity, batch, phase) are adjacent, best first.
    double best = 0;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        auto& row = table.rows[i];
        const bool first =
            i == 0 || !std::equal(row.begin(), row.begin() + 4, table.rows[i - 1].begin());
        if (first) best = as_double(row[7]);
        row.push_back(best > 0 ? as_double(row[7]) / best : 1.0);
    }
    return table;
}

QueryTable query_compare_archs(Database& db, const QueryArgs& args) {
    require(db, args.baseline, "--baseline", "compare-archs");
    require_known(db, "--baseline", "architecture", *args.baseline,
                  "SELECT DISTINCT name FROM architectures ORDER BY 1");
    PointFilter f = point_filter(db, args);
    add_phase_filter(db, f, args);
    Statement s = db.prepare(fmt::format(
        "SELECT n.name AS network, p.batch, t.phase, a.name AS arch, s.name AS sparsity, "
        "p.dataflow, t.cycles, t.energy_pj, a.area_um2, min(t.energy_pj * t.cycles) AS edp "
        "FROM points p JOIN phase_totals t ON t.point_id = p.id "
        "JOIN architectures a ON a.id = p.arch_id JOIN networks n ON n.id = p.network_id "
        "JOIN sparsity_profiles s ON s.id = p.sparsity_id "
        "WHERE {} GROUP BY p.network_id, p.batch, t.phase, p.arch_id, p.sparsity_id "
        "ORDER BY n.name, p.batch, {}, a.name = ? DESC, edp, a.name, s.name",
        f.where(), phase_order("t.phase")));
    f.bind(s);
    s.bind(static_cast<int>(f.values.size()) + 1, *args.baseline);
    QueryTable table = collect_rows(s);
    table.columns.push_back("speedup");
    table.columns.push_back("energy_ratio");
    // The baseline's rows sort first in each (network, batch, phase), best first.
    bool have_base = false;
    double base_cycles = 0;
    double base_energy = 0;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        auto& row = table.rows[i];
        const bool first =
            i == 0 || !std::equal(row.begin(), row.begin() + 3, table.rows[i - 1].begin());
        if (first) {
            have_base = std::get<std::string>(row[3]) == *args.baseline;
            base_cycles = as_double(row[6]);
            base_energy = as_double(row[7]);
        }
        if (have_base && as_double(row[6]) > 0 && as_double(row[7]) > 0) {
            // Speed-up = baseline cycles / cycles; energy ratio = energy / baseline energy.
            row.emplace_back(base_cycles / as_double(row[6]));
            row.emplace_back(as_double(row[7]) / base_energy);
        } else {
            row.emplace_back(std::monostate{});
            row.emplace_back(std::monostate{});
        }
    }
    return table;
}

}  // namespace trainloop
