#include "store/canned_queries.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>

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

// Names (and areas) of the specs by id: small tables, read whole, so the
// big scans join nothing.
struct SpecNames {
    std::unordered_map<std::int64_t, std::string> arch;
    std::unordered_map<std::int64_t, double> area;
    std::unordered_map<std::int64_t, std::string> network;
    std::unordered_map<std::int64_t, std::string> sparsity;
    // Position of each id in name order (then id order), for cheap sorting.
    std::unordered_map<std::int64_t, int> arch_rank;
    std::unordered_map<std::int64_t, int> network_rank;
    std::unordered_map<std::int64_t, int> sparsity_rank;
};

std::unordered_map<std::int64_t, int> name_ranks(
    const std::unordered_map<std::int64_t, std::string>& names) {
    std::vector<std::pair<std::string, std::int64_t>> sorted;
    for (const auto& [id, name] : names) sorted.emplace_back(name, id);
    std::sort(sorted.begin(), sorted.end());
    std::unordered_map<std::int64_t, int> rank;
    for (std::size_t i = 0; i < sorted.size(); ++i) rank[sorted[i].second] = static_cast<int>(i);
    return rank;
}

SpecNames load_spec_names(Database& db) {
    SpecNames names;
    Statement a = db.prepare("SELECT id, name, area_um2 FROM architectures");
    while (a.step()) {
        names.arch[a.int64(0)] = a.text(1);
        names.area[a.int64(0)] = a.real(2);
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

struct StepTotal {
    bool present = false;
    std::int64_t cycles = 0;
    double energy_pj = 0;
};

// Training-step totals indexed by point id (ids are dense: rows are only
// ever appended or replaced), from a range scan of phase_totals_by_phase.
std::vector<StepTotal> load_step_totals(Database& db) {
    Statement max_id = db.prepare("SELECT coalesce(max(id), 0) FROM points");
    max_id.step();
    std::vector<StepTotal> steps(static_cast<std::size_t>(max_id.int64(0)) + 1);
    Statement s =
        db.prepare("SELECT point_id, cycles, energy_pj FROM phase_totals WHERE phase = 'step'");
    while (s.step()) steps[static_cast<std::size_t>(s.int64(0))] = {true, s.int64(1), s.real(2)};
    return steps;
}

constexpr std::array<std::string_view, 4> kPhaseNames = {"fw", "bw", "wu", "step"};

int phase_index(std::string_view phase) {
    for (std::size_t i = 0; i < kPhaseNames.size(); ++i) {
        if (kPhaseNames[i] == phase) return static_cast<int>(i);
    }
    return 3;
}

// One phase total of one point. Specs and texts are held as ranks in name
// order, so grouping and sorting compare integers only.
struct PhaseRow {
    std::int64_t arch = 0;  // ids, for names
    std::int64_t network = 0;
    std::int64_t sparsity = 0;
    int arch_rank = 0;  // SpecNames ranks
    int network_rank = 0;
    int sparsity_rank = 0;
    std::int64_t batch = 0;
    int phase = 0;
    int dataflow = 0;   // rank of the text in PhaseRows::texts (alphabetical)
    int objective = 0;  // likewise
    std::int64_t cycles = 0;
    double energy_pj = 0;

    double edp() const { return energy_pj * double(cycles); }
};

struct PhaseRows {
    std::vector<PhaseRow> rows;
    std::vector<std::string> texts;  // sorted; dataflow and objective index it
};

// Hashes a tuple of integers (the group keys).
struct TupleHash {
    template <typename... T>
    std::size_t operator()(const std::tuple<T...>& key) const {
        std::size_t h = 0;
        std::apply(
            [&h](const auto&... part) {
                ((h = h * 1'000'003 ^ std::hash<std::decay_t<decltype(part)>>{}(part)), ...);
            },
            key);
        return h;
    }
};

// The lowest-EDP row of each group (ties: by dataflow, objective, cycles),
// kept as rows arrive; sorted() gives them in group order.
template <typename KeyFn>
class BestPerGroup {
  public:
    explicit BestPerGroup(const KeyFn& key) : key_(key) {}

    void add(const PhaseRow& r) {
        auto [it, inserted] = best_.try_emplace(key_(r), r);
        if (!inserted && better(r, it->second)) it->second = r;
    }
    std::vector<PhaseRow> sorted() const {
        std::vector<PhaseRow> rows;
        rows.reserve(best_.size());
        for (const auto& entry : best_) rows.push_back(entry.second);
        std::sort(rows.begin(), rows.end(),
                  [this](const PhaseRow& a, const PhaseRow& b) { return key_(a) < key_(b); });
        return rows;
    }

  private:
    static bool better(const PhaseRow& a, const PhaseRow& b) {
        return std::tuple(a.edp(), a.dataflow, a.objective, a.cycles) <
               std::tuple(b.edp(), b.dataflow, b.objective, b.cycles);
    }
    const KeyFn& key_;
    std::unordered_map<std::invoke_result_t<KeyFn, const PhaseRow&>, PhaseRow, TupleHash> best_;
};

// The distinct dataflow and objective texts, numbered by appearance, then
// renumbered alphabetically so ties break the same way whatever order the
// points were written in.
class TextRanks {
  public:
    int id(std::string_view text) {
        for (std::size_t i = 0; i < texts_.size(); ++i) {
            if (texts_[i] == text) return static_cast<int>(i);
        }
        texts_.emplace_back(text);
        return static_cast<int>(texts_.size() - 1);
    }
    // Sorts the texts; returns, per appearance id, its rank.
    std::vector<int> sort() {
        std::vector<std::string> sorted = texts_;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> rank(texts_.size());
        for (std::size_t i = 0; i < texts_.size(); ++i) {
            rank[i] = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), texts_[i]) -
                                       sorted.begin());
        }
        texts_ = std::move(sorted);
        return rank;
    }
    std::vector<std::string> take() { return std::move(texts_); }

  private:
    std::vector<std::string> texts_;
};

// The best phase-total row per group of `key` among the points that pass `f`
// (one phase, or all of them when `phase` is nullopt), in group order. A
// filtered selection joins in SQL, points first (by their indexes) and each
// point's totals by primary key; every point is read as two scans joined here
// by id and reduced as the totals stream by, never held all at once.
template <typename KeyFn>
PhaseRows best_phase_rows(Database& db, const PointFilter& f, const SpecNames& names,
                          const std::optional<std::string>& phase, const KeyFn& key) {
    TextRanks texts;
    auto point_row = [&](Statement& s, int first) {
        PhaseRow r;
        r.arch = s.int64(first);
        r.network = s.int64(first + 1);
        r.sparsity = s.int64(first + 2);
        r.arch_rank = names.arch_rank.at(r.arch);
        r.network_rank = names.network_rank.at(r.network);
        r.sparsity_rank = names.sparsity_rank.at(r.sparsity);
        r.batch = s.int64(first + 3);
        r.dataflow = texts.id(s.text_view(first + 4));
        r.objective = texts.id(s.text_view(first + 5));
        return r;
    };
    auto rank = [](PhaseRow& r, const std::vector<int>& ranks) {
        r.dataflow = ranks[std::size_t(r.dataflow)];
        r.objective = ranks[std::size_t(r.objective)];
    };
    const std::string point_columns =
        "p.arch_id, p.network_id, p.sparsity_id, p.batch, p.dataflow, p.objective";
    BestPerGroup<KeyFn> best(key);
    if (f.conditions.size() > 1) {
        Statement s = db.prepare(fmt::format(
            "SELECT {}, t.phase, t.cycles, t.energy_pj FROM points p CROSS JOIN phase_totals t "
            "ON t.point_id = p.id WHERE {}{}",
            point_columns, f.where(), phase ? " AND t.phase = ?" : ""));
        f.bind(s);
        if (phase) s.bind(int(f.values.size()) + 1, *phase);
        std::vector<PhaseRow> rows;
        while (s.step()) {
            PhaseRow& r = rows.emplace_back(point_row(s, 0));
            r.phase = phase_index(s.text_view(6));
            r.cycles = s.int64(7);
            r.energy_pj = s.real(8);
        }
        const std::vector<int> ranks = texts.sort();
        for (PhaseRow& r : rows) {
            rank(r, ranks);
            best.add(r);
        }
    } else {
        std::vector<std::optional<PhaseRow>> by_point;
        Statement s = db.prepare(
            fmt::format("SELECT p.id, {} FROM points p WHERE {}", point_columns, f.where()));
        f.bind(s);
        while (s.step()) {
            const auto id = static_cast<std::size_t>(s.int64(0));
            if (by_point.size() <= id) by_point.resize(id + 1);
            by_point[id] = point_row(s, 1);
        }
        const std::vector<int> ranks = texts.sort();
        for (std::optional<PhaseRow>& r : by_point) {
            if (r) rank(*r, ranks);
        }
        Statement t = db.prepare(
            phase ? "SELECT point_id, phase, cycles, energy_pj FROM phase_totals WHERE phase = ?"
                  : "SELECT point_id, phase, cycles, energy_pj FROM phase_totals");
        if (phase) t.bind(1, *phase);
        while (t.step()) {
            const auto id = static_cast<std::size_t>(t.int64(0));
            if (id >= by_point.size() || !by_point[id]) continue;
            PhaseRow r = *by_point[id];
            r.phase = phase_index(t.text_view(1));
            r.cycles = t.int64(2);
            r.energy_pj = t.real(3);
            best.add(r);
        }
    }
    return {best.sorted(), texts.take()};
}

}  // namespace

const std::vector<std::string>& canned_query_names() {
    static const std::vector<std::string> names = {"summary", "best", "pareto", "compare-dataflows",
                                                   "compare-archs"};
    return names;
}

namespace {

// A point whose architecture, network or profile row is missing (a database
// edited by hand, or damaged): "point 12 refers to architectures row 3".
std::optional<std::string> first_dangling_reference(Database& db) {
    Statement s = db.prepare(
        "SELECT p.id, 'architectures', p.arch_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM architectures a WHERE a.id = p.arch_id) UNION ALL "
        "SELECT p.id, 'networks', p.network_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM networks n WHERE n.id = p.network_id) UNION ALL "
        "SELECT p.id, 'sparsity_profiles', p.sparsity_id FROM points p "
        "WHERE NOT EXISTS (SELECT 1 FROM sparsity_profiles s WHERE s.id = p.sparsity_id) "
        "LIMIT 1");
    if (!s.step()) return std::nullopt;
    return fmt::format("point {} refers to {} row {}, which is missing", s.int64(0), s.text(1),
                       s.int64(2));
}

QueryTable dispatch_canned_query(Database& db, const std::string& name, const QueryArgs& args) {
    if (name == "summary") return query_summary(db);
    if (name == "best") return query_best(db, args);
    if (name == "pareto") return query_pareto(db, args);
    if (name == "compare-dataflows") return query_compare_dataflows(db, args);
    if (name == "compare-archs") return query_compare_archs(db, args);
    throw SpecError({}, "query", fmt::format("unknown query `{}`", name),
                    "summary, best, pareto, compare-dataflows or compare-archs (or --sql)",
                    suggestion_hint(name, canned_query_names()));
}

}  // namespace

QueryTable run_canned_query(Database& db, const std::string& name, const QueryArgs& args) {
    try {
        return dispatch_canned_query(db, name, args);
    } catch (const std::out_of_range&) {
        // The queries look spec names up by the ids the points hold.
        const auto dangling = first_dangling_reference(db);
        if (!dangling) throw;
        throw SpecError({db.path().string(), 0, 0}, "",
                        fmt::format("the database has a dangling row: {}", *dangling),
                        "an intact results database",
                        "`trainloop db check FILE` lists every such row");
    }
}

QueryTable query_summary(Database& db) {
    struct Group {
        std::int64_t done = 0;
        std::int64_t failed = 0;
        std::int64_t layer_phases = 0;
        std::optional<std::int64_t> min_cycles;
        std::optional<double> min_energy;

        void add(bool is_done, std::int64_t lp, const StepTotal* step) {
            (is_done ? done : failed) += 1;
            layer_phases += lp;
            if (step == nullptr) return;
            if (!min_cycles || step->cycles < *min_cycles) min_cycles = step->cycles;
            if (!min_energy || step->energy_pj < *min_energy) min_energy = step->energy_pj;
        }
    };
    // Plain scans aggregated here: grouping 10^5 points in SQL (a temporary
    // b-tree per GROUP BY) costs several times more.
    const SpecNames names = load_spec_names(db);
    const std::vector<StepTotal> steps = load_step_totals(db);
    Group total;
    std::unordered_map<std::int64_t, Group> by_arch;
    std::unordered_map<std::int64_t, Group> by_network;
    std::unordered_map<std::int64_t, Group> by_sparsity;
    std::map<std::string, Group> by_dataflow;
    Statement points = db.prepare(
        "SELECT id, arch_id, network_id, sparsity_id, dataflow, status = 'done', layer_phases "
        "FROM points");
    std::string dataflow;
    Group* dataflow_group = nullptr;
    while (points.step()) {
        const StepTotal& step = steps[static_cast<std::size_t>(points.int64(0))];
        const StepTotal* t = step.present ? &step : nullptr;
        const bool done = points.int64(5) != 0;
        const std::int64_t lp = points.int64(6);
        total.add(done, lp, t);
        by_arch[points.int64(1)].add(done, lp, t);
        by_network[points.int64(2)].add(done, lp, t);
        by_sparsity[points.int64(3)].add(done, lp, t);
        if (dataflow_group == nullptr || points.text_view(4) != dataflow) {
            dataflow = points.text_view(4);
            dataflow_group = &by_dataflow[dataflow];
        }
        dataflow_group->add(done, lp, t);
    }
    QueryTable table;
    table.columns = {"group",        "name",       "points_done",  "points_failed",
                     "layer_phases", "min_cycles", "min_energy_pj"};
    // Rows are built value by value: brace lists of variants trip GCC 12's
    // maybe-uninitialized warning.
    auto push = [&table](const std::string& group, const std::string& name, const Group& g) {
        std::vector<QueryValue> row;
        row.emplace_back(group);
        row.emplace_back(name);
        row.emplace_back(g.done);
        row.emplace_back(g.failed);
        row.emplace_back(g.layer_phases);
        if (g.min_cycles) {
            row.emplace_back(*g.min_cycles);
        } else {
            row.emplace_back(std::monostate{});
        }
        if (g.min_energy) {
            row.emplace_back(*g.min_energy);
        } else {
            row.emplace_back(std::monostate{});
        }
        table.rows.push_back(std::move(row));
    };
    // Groups by name (two specs may share a name), in name order.
    auto push_named = [&](const std::string& group,
                          const std::unordered_map<std::int64_t, Group>& groups,
                          const std::unordered_map<std::int64_t, std::string>& spec_names) {
        std::map<std::string, Group> named;
        for (const auto& [id, g] : groups) {
            Group& n = named[spec_names.at(id)];
            n.done += g.done;
            n.failed += g.failed;
            n.layer_phases += g.layer_phases;
            if (g.min_cycles && (!n.min_cycles || *g.min_cycles < *n.min_cycles)) {
                n.min_cycles = g.min_cycles;
            }
            if (g.min_energy && (!n.min_energy || *g.min_energy < *n.min_energy)) {
                n.min_energy = g.min_energy;
            }
        }
        for (const auto& [name, g] : named) push(group, name, g);
    };
    push("total", "", total);
    push_named("architecture", by_arch, names.arch);
    push_named("network", by_network, names.network);
    push_named("sparsity", by_sparsity, names.sparsity);
    for (const auto& [name, g] : by_dataflow) push("dataflow", name, g);
    // Per phase: how many points mapped it, layer-phases, and its lowest
    // totals (a range scan of the covering index phase_totals_by_phase).
    for (const char* phase : {"fw", "bw", "wu"}) {
        Statement s = db.prepare(
            "SELECT count(*), sum(layer_phases), min(cycles), min(energy_pj) FROM phase_totals "
            "WHERE phase = ?");
        s.bind(1, phase);
        s.step();
        if (s.int64(0) == 0) continue;
        Group g;
        g.done = s.int64(0);
        g.layer_phases = s.int64(1);
        g.min_cycles = s.int64(2);
        g.min_energy = s.real(3);
        push("phase", phase, g);
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
        "FROM points p CROSS JOIN phase_totals t ON t.point_id = p.id AND t.phase = ? "
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
    if (args.phase) check_phase(db, *args.phase, true);
    const SpecNames names = load_spec_names(db);
    auto group = [](const PhaseRow& r) {
        return std::tuple(r.arch_rank, r.sparsity_rank, r.batch, r.phase);
    };
    auto key = [&group](const PhaseRow& r) {
        return std::tuple_cat(group(r), std::tuple(r.dataflow));
    };
    PhaseRows all = best_phase_rows(db, f, names, args.phase, key);
    std::vector<PhaseRow> rows = std::move(all.rows);
    std::sort(rows.begin(), rows.end(), [&](const PhaseRow& a, const PhaseRow& b) {
        return std::tuple(group(a), a.edp(), a.dataflow) <
               std::tuple(group(b), b.edp(), b.dataflow);
    });
    QueryTable table;
    table.columns = {"arch",   "sparsity",  "batch", "phase",      "dataflow",
                     "cycles", "energy_pj", "edp",   "edp_vs_best"};
    double best_edp = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const PhaseRow& r = rows[i];
        if (i == 0 || group(r) != group(rows[i - 1])) best_edp = r.edp();  // rows sort best first
        std::vector<QueryValue> row;
        row.emplace_back(names.arch.at(r.arch));
        row.emplace_back(names.sparsity.at(r.sparsity));
        row.emplace_back(r.batch);
        row.emplace_back(std::string(kPhaseNames[std::size_t(r.phase)]));
        row.emplace_back(all.texts[std::size_t(r.dataflow)]);
        row.emplace_back(r.cycles);
        row.emplace_back(r.energy_pj);
        row.emplace_back(r.edp());
        row.emplace_back(best_edp > 0 ? r.edp() / best_edp : 1.0);
        table.rows.push_back(std::move(row));
    }
    return table;
}

QueryTable query_compare_archs(Database& db, const QueryArgs& args) {
    require(db, args.baseline, "--baseline", "compare-archs");
    require_known(db, "--baseline", "architecture", *args.baseline,
                  "SELECT DISTINCT name FROM architectures ORDER BY 1");
    PointFilter f = point_filter(db, args);
    if (args.phase) check_phase(db, *args.phase, true);
    const SpecNames names = load_spec_names(db);
    auto group = [](const PhaseRow& r) { return std::tuple(r.network_rank, r.batch, r.phase); };
    auto key = [&group](const PhaseRow& r) {
        return std::tuple_cat(group(r), std::tuple(r.arch_rank, r.sparsity_rank));
    };
    PhaseRows all = best_phase_rows(db, f, names, args.phase, key);
    std::vector<PhaseRow> rows = std::move(all.rows);
    // In each group the baseline's rows first, then by EDP.
    std::vector<bool> is_baseline_rank(names.arch_rank.size());
    for (const auto& [id, rank] : names.arch_rank) {
        is_baseline_rank[std::size_t(rank)] = names.arch.at(id) == *args.baseline;
    }
    auto order = [&](const PhaseRow& r) {
        return std::tuple(group(r), !is_baseline_rank[std::size_t(r.arch_rank)], r.edp(),
                          r.arch_rank, r.sparsity_rank);
    };
    std::sort(rows.begin(), rows.end(),
              [&](const PhaseRow& a, const PhaseRow& b) { return order(a) < order(b); });
    QueryTable table;
    table.columns = {"network", "batch",     "phase",    "arch", "sparsity", "dataflow",
                     "cycles",  "energy_pj", "area_um2", "edp",  "speedup",  "energy_ratio"};
    bool have_base = false;
    double base_cycles = 0;
    double base_energy = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const PhaseRow& r = rows[i];
        if (i == 0 || group(r) != group(rows[i - 1])) {
            have_base = is_baseline_rank[std::size_t(r.arch_rank)];
            base_cycles = double(r.cycles);
            base_energy = r.energy_pj;
        }
        std::vector<QueryValue> row;
        row.emplace_back(names.network.at(r.network));
        row.emplace_back(r.batch);
        row.emplace_back(std::string(kPhaseNames[std::size_t(r.phase)]));
        row.emplace_back(names.arch.at(r.arch));
        row.emplace_back(names.sparsity.at(r.sparsity));
        row.emplace_back(all.texts[std::size_t(r.dataflow)]);
        row.emplace_back(r.cycles);
        row.emplace_back(r.energy_pj);
        row.emplace_back(names.area.at(r.arch));
        row.emplace_back(r.edp());
        if (have_base && r.cycles > 0 && r.energy_pj > 0) {
            // Speed-up = baseline cycles / cycles; energy ratio = energy / baseline energy.
            row.emplace_back(base_cycles / double(r.cycles));
            row.emplace_back(r.energy_pj / base_energy);
        } else {
            row.emplace_back(std::monostate{});
            row.emplace_back(std::monostate{});
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace trainloop
