#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "store/canned_queries.hpp"
#include "store/queries/best_phase_rows.hpp"

namespace trainloop {

using namespace query_detail;

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
    // In each group the baseline's rows first, then by energy × wall time.
    std::vector<bool> is_baseline_rank(names.arch_rank.size());
    for (const auto& [id, rank] : names.arch_rank) {
        is_baseline_rank[std::size_t(rank)] = names.arch.at(id) == *args.baseline;
    }
    auto order = [&](const PhaseRow& r) {
        return std::tuple(group(r), !is_baseline_rank[std::size_t(r.arch_rank)],
                          r.energy_pj * r.seconds(), r.arch_rank, r.sparsity_rank);
    };
    std::sort(rows.begin(), rows.end(),
              [&](const PhaseRow& a, const PhaseRow& b) { return order(a) < order(b); });
    QueryTable table;
    table.columns = {"network",  "batch",   "phase",        "arch",      "sparsity",
                     "dataflow", "cycles",  "seconds",      "energy_pj", "area_um2",
                     "edp",      "speedup", "energy_ratio", "point_id"};
    bool have_base = false;
    double base_seconds = 0;
    double base_energy = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const PhaseRow& r = rows[i];
        if (i == 0 || group(r) != group(rows[i - 1])) {
            have_base = is_baseline_rank[std::size_t(r.arch_rank)];
            base_seconds = r.seconds();
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
        row.emplace_back(r.seconds());
        row.emplace_back(r.energy_pj);
        row.emplace_back(names.area.at(r.arch));
        row.emplace_back(r.edp());
        if (have_base && r.cycles > 0 && r.energy_pj > 0) {
            // Speed-up = baseline wall time / wall time (clocks may differ);
            // energy ratio = energy / baseline energy.
            row.emplace_back(base_seconds / r.seconds());
            row.emplace_back(r.energy_pj / base_energy);
        } else {
            row.emplace_back(std::monostate{});
            row.emplace_back(std::monostate{});
        }
        row.emplace_back(r.point);
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace trainloop
