#include "store/store_merge.hpp"

#include <fmt/format.h>

#include "common/spec_error.hpp"
#include "store/schema.hpp"

namespace trainloop {
namespace {

std::int64_t single_int(Database& db, const std::string& sql) {
    Statement s = db.prepare(sql);
    s.step();
    return s.int64(0);
}

// Escapes a path for an SQL string literal.
std::string sql_literal(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'') quoted += '\'';
        quoted += c;
    }
    return quoted + "'";
}

// Copies what `src` (attached) holds that `main` lacks. Inside a transaction.
MergeSummary copy_attached(Database& db) {
    MergeSummary summary;
    const std::int64_t points_before = single_int(db, "SELECT count(*) FROM src.points");
    const std::int64_t last_point = single_int(db, "SELECT coalesce(max(id), 0) FROM main.points");
    const std::int64_t last_result =
        single_int(db, "SELECT coalesce(max(id), 0) FROM main.results");
    db.execute(R"sql(
INSERT INTO main.architectures (name, hash, yaml, area_um2, pe_rows, pe_columns, clock_ghz,
                                summary)
  SELECT name, hash, yaml, area_um2, pe_rows, pe_columns, clock_ghz, summary
  FROM src.architectures WHERE true
  ON CONFLICT (hash) DO NOTHING;
INSERT INTO main.networks (name, hash, yaml)
  SELECT name, hash, yaml FROM src.networks WHERE true ON CONFLICT (hash) DO NOTHING;
INSERT INTO main.sparsity_profiles (name, hash, yaml)
  SELECT name, hash, yaml FROM src.sparsity_profiles WHERE true ON CONFLICT (hash) DO NOTHING;
INSERT INTO main.sweeps (name, hash, yaml, tool_version, points)
  SELECT name, hash, yaml, tool_version, points FROM src.sweeps WHERE true
  ON CONFLICT (hash) DO NOTHING;
INSERT INTO main.mappings (text)
  SELECT text FROM src.mappings WHERE true ON CONFLICT (text) DO NOTHING;
INSERT INTO main.points (sweep_id, idx, arch_id, network_id, batch, sparsity_id, dataflow,
                         objective, search, budget, seed, phases, status, failure, evaluations,
                         layer_phases, iteration, rejections)
  SELECT ms.id, sp.idx, ma.id, mn.id, sp.batch, mz.id, sp.dataflow, sp.objective, sp.search,
         sp.budget, sp.seed, sp.phases, sp.status, sp.failure, sp.evaluations, sp.layer_phases,
         sp.iteration, sp.rejections
  FROM src.points sp
  JOIN src.sweeps ss ON ss.id = sp.sweep_id JOIN main.sweeps ms ON ms.hash = ss.hash
  JOIN src.architectures sa ON sa.id = sp.arch_id JOIN main.architectures ma ON ma.hash = sa.hash
  JOIN src.networks sn ON sn.id = sp.network_id JOIN main.networks mn ON mn.hash = sn.hash
  JOIN src.sparsity_profiles sz ON sz.id = sp.sparsity_id
  JOIN main.sparsity_profiles mz ON mz.hash = sz.hash
  WHERE NOT EXISTS (SELECT 1 FROM main.points p WHERE p.sweep_id = ms.id AND p.idx = sp.idx)
  ORDER BY ss.hash, sp.idx;
)sql");
    summary.points_added =
        single_int(db, fmt::format("SELECT count(*) FROM main.points WHERE id > {}", last_point));
    summary.points_skipped = points_before - summary.points_added;
    // The points just added, with their ids in src.
    const std::string new_points = fmt::format(
        "SELECT sp.id AS src_id, np.id AS new_id FROM src.points sp "
        "JOIN src.sweeps ss ON ss.id = sp.sweep_id JOIN main.sweeps ms ON ms.hash = ss.hash "
        "JOIN main.points np ON np.sweep_id = ms.id AND np.idx = sp.idx WHERE np.id > {}",
        last_point);
    // Results: the record's own columns, then one per metric (layer_phase_metrics.def).
    db.execute(fmt::format(R"sql(
INSERT INTO main.results (point_id, layer, layer_index, phase, choice, mapping_id, macs,
                          energy_breakdown, reused, energy_by_class, converged,
                          lower_bound_cycles, lower_bound_energy_pj, {1})
  SELECT n.new_id, r.layer, r.layer_index, r.phase, r.choice, mm.id, r.macs,
         r.energy_breakdown, r.reused, r.energy_by_class, r.converged,
         r.lower_bound_cycles, r.lower_bound_energy_pj, {2}
  FROM ({0}) n JOIN src.results r ON r.point_id = n.src_id
  JOIN src.mappings sm ON sm.id = r.mapping_id JOIN main.mappings mm ON mm.text = sm.text
  ORDER BY n.new_id, r.id;
INSERT INTO main.phase_totals (point_id, phase, layer_phases, cycles, energy_pj, macs,
                               effectual_macs, imbalance_cycles, performed_macs)
  SELECT n.new_id, t.phase, t.layer_phases, t.cycles, t.energy_pj, t.macs, t.effectual_macs,
         t.imbalance_cycles, t.performed_macs
  FROM ({0}) n JOIN src.phase_totals t ON t.point_id = n.src_id;
INSERT INTO main.training_runs (point_id, iterations, samples, total_cycles, total_energy_pj,
                                dense_total_cycles, dense_total_energy_pj, total_macs,
                                effectual_macs, macs_removed_fraction, distinct_states)
  SELECT n.new_id, r.iterations, r.samples, r.total_cycles, r.total_energy_pj,
         r.dense_total_cycles, r.dense_total_energy_pj, r.total_macs, r.effectual_macs,
         r.macs_removed_fraction, r.distinct_states
  FROM ({0}) n JOIN src.training_runs r ON r.point_id = n.src_id;
INSERT INTO main.training_run_samples (point_id, sample, iteration, begin_iteration,
                                       end_iteration, exact, step_cycles, step_energy_pj,
                                       step_effectual_macs)
  SELECT n.new_id, s.sample, s.iteration, s.begin_iteration, s.end_iteration, s.exact,
         s.step_cycles, s.step_energy_pj, s.step_effectual_macs
  FROM ({0}) n JOIN src.training_run_samples s ON s.point_id = n.src_id;
)sql",
                           new_points, metric_columns(), metric_columns("r.")));
    summary.results_added =
        single_int(db, fmt::format("SELECT count(*) FROM main.results WHERE id > {}", last_result));
    return summary;
}

}  // namespace

MergeSummary merge_databases(ResultsStore& out, const std::vector<std::filesystem::path>& inputs,
                             const std::function<void(std::size_t)>& merged) {
    Database& db = out.database();
    MergeSummary total;
    std::error_code ec;
    for (const std::filesystem::path& input : inputs) {
        if (std::filesystem::equivalent(input, db.path(), ec)) {
            throw SpecError({input.string(), 0, 0}, "", "an input is the output database",
                            "input databases other than OUT");
        }
        {
            // Checks the input the way a query would (missing, corrupt, foreign, version),
            // then its schema and pages: a damaged input is blamed here, by name, rather
            // than failing half-way through the copy as an error of the output.
            Database check(input, OpenMode::read_only);
            check_readable(check);
            std::vector<std::string> problems = check_schema(check);
            if (problems.empty()) {
                Statement quick = check.prepare("PRAGMA quick_check");
                while (quick.step()) {
                    if (quick.text(0) != "ok") problems.push_back(quick.text(0));
                }
            }
            if (!problems.empty()) {
                throw SpecError(
                    {input.string(), 0, 0}, "",
                    fmt::format("cannot merge this input: {}{}", problems.front(),
                                problems.size() > 1
                                    ? fmt::format(" (and {} more problems)", problems.size() - 1)
                                    : ""),
                    "intact input databases",
                    "`trainloop db check FILE` lists the problems; nothing was "
                    "merged from this input");
            }
        }
        db.execute("ATTACH DATABASE " + sql_literal(input.string()) + " AS src");
        try {
            Transaction t(db);
            const MergeSummary s = copy_attached(db);
            t.commit();
            total.points_added += s.points_added;
            total.points_skipped += s.points_skipped;
            total.results_added += s.results_added;
        } catch (...) {
            db.execute("DETACH DATABASE src");
            throw;
        }
        db.execute("DETACH DATABASE src");
        if (merged) merged(std::size_t(&input - inputs.data()) + 1);
    }
    out.update_pareto_flags();
    return total;
}

std::vector<std::string> check_database(Database& db) {
    check_readable(db);
    // A missing table would make the checks below fail to prepare: report the
    // schema's problems alone.
    std::vector<std::string> problems = check_schema(db);
    if (!problems.empty()) return problems;
    Statement integrity = db.prepare("PRAGMA integrity_check");
    while (integrity.step()) {
        const std::string line = integrity.text(0);
        if (line != "ok") problems.push_back(line);
    }
    Statement keys = db.prepare("PRAGMA foreign_key_check");
    while (keys.step()) {
        problems.push_back(fmt::format("row {} of {} refers to a missing row of {}", keys.int64(1),
                                       keys.text(0), keys.text(2)));
    }
    return problems;
}

}  // namespace trainloop
