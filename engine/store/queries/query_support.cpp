#include "store/queries/query_support.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/did_you_mean.hpp"
#include "common/spec_error.hpp"

namespace trainloop::query_detail {

namespace {

// Phases sort in training order, not alphabetically.
constexpr const char* kPhaseOrder =
    "CASE {} WHEN 'fw' THEN 0 WHEN 'bw' THEN 1 WHEN 'wu' THEN 2 ELSE 3 END";

}  // namespace

std::string phase_order(const std::string& column) {
    return fmt::format(fmt::runtime(kPhaseOrder), column);
}

void fail_arg(const Database& db, const std::string& key, const std::string& message,
              const std::string& expected, const std::string& hint) {
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

void PointFilter::add(const std::string& condition, QueryValue value) {
    conditions.push_back(condition);
    values.push_back(std::move(value));
}

std::string PointFilter::where() const {
    std::string text;
    for (const std::string& c : conditions) text += (text.empty() ? "" : " AND ") + c;
    return text;
}

void PointFilter::bind(Statement& s, int first) const {
    int i = first;
    for (const QueryValue& v : values) {
        if (const auto* n = std::get_if<std::int64_t>(&v)) s.bind(i, *n);
        if (const auto* t = std::get_if<std::string>(&v)) s.bind(i, *t);
        ++i;
    }
}

PointFilter point_filter(Database& db, const QueryArgs& a) {
    PointFilter f;
    // A point's architecture, network or sparsity profile, named in `table`
    // and referenced by the point's `id_column`: refused with a did-you-mean
    // when the database holds no such name.
    const auto by_name = [&](const std::string& flag, const std::string& what,
                             const std::string& table, const std::string& id_column,
                             const std::optional<std::string>& name) {
        if (!name) return;
        require_known(db, flag, what, *name,
                      fmt::format("SELECT DISTINCT name FROM {} ORDER BY 1", table));
        f.add(fmt::format("p.{} IN (SELECT id FROM {} WHERE name = ?)", id_column, table), *name);
    };
    by_name("--arch", "architecture", "architectures", "arch_id", a.arch);
    by_name("--network", "network", "networks", "network_id", a.network);
    by_name("--sparsity", "sparsity profile", "sparsity_profiles", "sparsity_id", a.sparsity);
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

std::string metric_expression(const Database& db, const std::string& by, const std::string& t) {
    if (by == "edp") return fmt::format("{0}.energy_pj * {0}.cycles", t);
    if (by == "energy") return t + ".energy_pj";
    if (by == "latency") return t + ".cycles";
    // NULL for rows written before schema 7: min() passes over them.
    if (by == "offchip") return t + ".offchip_words";
    fail_arg(db, "--by", fmt::format("unknown ranking `{}`", by),
             "edp, energy, latency or offchip");
}

double as_double(const QueryValue& v) {
    if (const auto* n = std::get_if<std::int64_t>(&v)) return double(*n);
    if (const auto* d = std::get_if<double>(&v)) return *d;
    return 0;
}

namespace {

std::unordered_map<std::int64_t, int> name_ranks(
    const std::unordered_map<std::int64_t, std::string>& names) {
    std::vector<std::pair<std::string, std::int64_t>> sorted;
    for (const auto& [id, name] : names) sorted.emplace_back(name, id);
    std::sort(sorted.begin(), sorted.end());
    std::unordered_map<std::int64_t, int> rank;
    for (std::size_t i = 0; i < sorted.size(); ++i) rank[sorted[i].second] = static_cast<int>(i);
    return rank;
}

}  // namespace

SpecNames load_spec_names(Database& db) {
    SpecNames names;
    Statement a = db.prepare("SELECT id, name, area_um2, clock_ghz FROM architectures");
    while (a.step()) {
        names.arch[a.int64(0)] = a.text(1);
        names.area[a.int64(0)] = a.real(2);
        names.clock_ghz[a.int64(0)] = a.real(3);
    }
    Statement n = db.prepare("SELECT id, name FROM networks");
    while (n.step()) names.network[n.int64(0)] = n.text(1);
    Statement s = db.prepare("SELECT id, name FROM sparsity_profiles");
    while (s.step()) names.sparsity[s.int64(0)] = s.text(1);
    names.arch_rank = name_ranks(names.arch);
    names.network_rank = name_ranks(names.network);
    names.sparsity_rank = name_ranks(names.sparsity);
    return names;
}

std::vector<StepTotal> load_step_totals(Database& db) {
    Statement max_id = db.prepare("SELECT coalesce(max(id), 0) FROM points");
    max_id.step();
    std::vector<StepTotal> steps(static_cast<std::size_t>(max_id.int64(0)) + 1);
    Statement s =
        db.prepare("SELECT point_id, cycles, energy_pj FROM phase_totals WHERE phase = 'step'");
    while (s.step()) steps[static_cast<std::size_t>(s.int64(0))] = {true, s.int64(1), s.real(2)};
    return steps;
}

int phase_index(std::string_view phase) {
    for (std::size_t i = 0; i < kPhaseNames.size(); ++i) {
        if (kPhaseNames[i] == phase) return static_cast<int>(i);
    }
    return 3;
}

}  // namespace trainloop::query_detail
