#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "store/canned_queries.hpp"
#include "store/queries/query_support.hpp"

namespace trainloop {

using namespace query_detail;

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

}  // namespace trainloop
