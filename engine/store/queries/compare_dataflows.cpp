#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "store/canned_queries.hpp"
#include "store/queries/best_phase_rows.hpp"

namespace trainloop {

using namespace query_detail;

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
    table.columns = {"arch",   "sparsity",  "batch", "phase",       "dataflow",
                     "cycles", "energy_pj", "edp",   "edp_vs_best", "point_id"};
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
        row.emplace_back(r.point);
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace trainloop
