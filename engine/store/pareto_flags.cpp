#include "store/pareto_flags.hpp"

#include <string>

namespace trainloop {
namespace {

bool dominates(const ParetoMetrics& a, const ParetoMetrics& b) {
    bool strictly = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] > b[i]) return false;
        if (a[i] < b[i]) strictly = true;
    }
    return strictly;
}

// Runs `select` (columns: id, current flag, group key..., metrics...; sorted by
// group key then metrics), and sets `flag_column` of `table` where it changes.
void update_flag(Database& db, const std::string& select, int group_columns, int metric_columns,
                 const std::string& table, const std::string& flag_column) {
    struct Row {
        std::int64_t id;
        bool flag;
    };
    Statement update = db.prepare("UPDATE " + table + " SET " + flag_column + " = ? WHERE id = ?");
    Statement s = db.prepare(select);
    std::vector<Row> group_rows;
    std::vector<ParetoMetrics> group_metrics;
    std::vector<std::int64_t> group_key;
    auto flush = [&] {
        const std::vector<bool> members = pareto_members(group_metrics);
        for (std::size_t i = 0; i < group_rows.size(); ++i) {
            if (members[i] != group_rows[i].flag) {
                update.bind(1, std::int64_t{members[i] ? 1 : 0}).bind(2, group_rows[i].id).run();
            }
        }
        group_rows.clear();
        group_metrics.clear();
    };
    while (s.step()) {
        std::vector<std::int64_t> key;
        for (int c = 0; c < group_columns; ++c) key.push_back(s.int64(2 + c));
        if (key != group_key) {
            flush();
            group_key = std::move(key);
        }
        ParetoMetrics m{};
        for (int c = 0; c < metric_columns; ++c)
            m[static_cast<std::size_t>(c)] = s.real(2 + group_columns + c);
        group_rows.push_back({s.int64(0), s.int64(1) != 0});
        group_metrics.push_back(m);
    }
    flush();
}

}  // namespace

std::vector<bool> pareto_members(const std::vector<ParetoMetrics>& sorted_rows) {
    std::vector<bool> member(sorted_rows.size(), false);
    std::vector<std::size_t> front;
    for (std::size_t i = 0; i < sorted_rows.size(); ++i) {
        bool dominated = false;
        // A dominated dominator is itself dominated by a front member, so the
        // front found so far is enough to test against.
        for (const std::size_t f : front) {
            if (dominates(sorted_rows[f], sorted_rows[i])) {
                dominated = true;
                break;
            }
        }
        if (!dominated) {
            member[i] = true;
            front.push_back(i);
        }
    }
    return member;
}

void update_pareto_flags(Database& db) {
    // Layer-phase results: within one architecture, (energy, cycles); the
    // third metric is constant there.
    update_flag(db,
                "SELECT r.id, r.pareto_arch, p.arch_id, p.network_id, p.batch, p.sparsity_id, "
                "r.layer_index, CASE r.phase WHEN 'fw' THEN 0 WHEN 'bw' THEN 1 ELSE 2 END AS ph, "
                "r.energy_pj, r.cycles, 0.0 "
                "FROM results r JOIN points p ON p.id = r.point_id "
                "ORDER BY 3, 4, 5, 6, 7, 8, 9, 10",
                6, 3, "results", "pareto_arch");
    // Across architectures: (energy, wall time, area); clocks differ, so
    // latency is cycles / clock (ns), not cycles.
    update_flag(db,
                "SELECT r.id, r.pareto_layer, p.network_id, p.batch, r.layer_index, "
                "CASE r.phase WHEN 'fw' THEN 0 WHEN 'bw' THEN 1 ELSE 2 END AS ph, "
                "r.energy_pj, r.cycles / a.clock_ghz, a.area_um2 "
                "FROM results r JOIN points p ON p.id = r.point_id "
                "JOIN architectures a ON a.id = p.arch_id "
                "ORDER BY 3, 4, 5, 6, 7, 8, 9",
                4, 3, "results", "pareto_layer");
    // Whole training steps (points that mapped all three phases): (energy,
    // wall time, area).
    update_flag(db,
                "SELECT p.id, p.pareto_step, p.network_id, p.batch, "
                "t.energy_pj, t.cycles / a.clock_ghz, a.area_um2 "
                "FROM points p JOIN phase_totals t ON t.point_id = p.id AND t.phase = 'step' "
                "JOIN architectures a ON a.id = p.arch_id "
                "ORDER BY 3, 4, 5, 6, 7",
                2, 3, "points", "pareto_step");
}

}  // namespace trainloop
