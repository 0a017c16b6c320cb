#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "store/canned_queries.hpp"
#include "store/queries/query_support.hpp"

namespace trainloop {

using namespace query_detail;

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

}  // namespace trainloop
