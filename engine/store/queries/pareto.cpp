#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "store/canned_queries.hpp"
#include "store/pareto_flags.hpp"
#include "store/queries/query_support.hpp"

namespace trainloop {

using namespace query_detail;

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

}  // namespace trainloop
