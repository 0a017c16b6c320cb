#include "store/results_store.hpp"

#include <fmt/format.h>

#include <vector>

#include "store/content_hash.hpp"
#include "store/pareto_flags.hpp"
#include "store/schema.hpp"

#ifndef TRAINLOOP_VERSION
#define TRAINLOOP_VERSION "unknown"
#endif

namespace trainloop {

namespace {

// A JSON column: NULL when the writer has none (an empty text is not JSON).
void bind_json(Statement& s, int index, const std::string& json) {
    if (json.empty()) {
        s.bind_null(index);
    } else {
        s.bind(index, json);
    }
}

std::string repeat_text(std::string_view text, std::size_t times) {
    std::string out;
    for (std::size_t i = 0; i < times; ++i) out += text;
    return out;
}

}  // namespace

ResultsStore::ResultsStore(std::unique_ptr<Database> db) : db_(std::move(db)) {}

ResultsStore ResultsStore::open_for_writing(const std::filesystem::path& path) {
    auto db = std::make_unique<Database>(path, OpenMode::create);
    prepare_for_writing(*db);
    ResultsStore store(std::move(db));
    store.db_->execute(
        fmt::format("INSERT INTO meta (key, value) VALUES ('tool_version', '{}') "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    TRAINLOOP_VERSION));
    return store;
}

ResultsStore ResultsStore::open_for_reading(const std::filesystem::path& path) {
    auto db = std::make_unique<Database>(path, OpenMode::read_only);
    check_readable(*db);
    return ResultsStore(std::move(db));
}

Statement& ResultsStore::cached(const std::string& sql) {
    auto& slot = statements_[sql];
    if (!slot) slot = std::make_unique<Statement>(*db_, sql);
    return *slot;
}

std::int64_t ResultsStore::ensure_sweep(const SweepRecord& sweep) {
    const std::string& hash = sweep.hash;
    Statement& insert = cached(
        "INSERT INTO sweeps (name, hash, yaml, tool_version, points) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (hash) DO NOTHING");
    insert.bind(1, sweep.name).bind(2, hash).bind(3, sweep.yaml).bind(4, TRAINLOOP_VERSION);
    insert.bind(5, sweep.points).run();
    return id_of("SELECT id FROM sweeps WHERE hash = ?", hash);
}

std::set<std::int64_t> ResultsStore::recorded_points(std::int64_t sweep_id) {
    std::set<std::int64_t> done;
    Statement& s = cached("SELECT idx FROM points WHERE sweep_id = ?");
    s.bind(1, sweep_id);
    while (s.step()) done.insert(s.int64(0));
    s.reset();
    return done;
}

std::int64_t ResultsStore::spec_id(const std::string& table, const SpecText& spec,
                                   const ArchitectureRecord* arch) {
    const std::string hash = content_hash(spec.yaml);
    const std::string key = table + ":" + hash;
    if (const auto it = spec_ids_.find(key); it != spec_ids_.end()) return it->second;
    if (arch != nullptr) {
        Statement& insert = cached(
            "INSERT INTO architectures (name, hash, yaml, area_um2, pe_rows, pe_columns, "
            "clock_ghz, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING");
        insert.bind(1, spec.name).bind(2, hash).bind(3, spec.yaml).bind(4, arch->area_um2);
        insert.bind(5, arch->pe_rows).bind(6, arch->pe_columns).bind(7, arch->clock_ghz);
        bind_json(insert, 8, arch->summary);
        insert.run();
    } else {
        Statement& insert = cached(fmt::format(
            "INSERT INTO {} (name, hash, yaml) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING",
            table));
        insert.bind(1, spec.name).bind(2, hash).bind(3, spec.yaml).run();
    }
    const std::int64_t id = id_of(fmt::format("SELECT id FROM {} WHERE hash = ?", table), hash);
    spec_ids_[key] = id;  // forgotten if the transaction rolls back (write_points)
    return id;
}

// The id of the row a unique key names (the row exists: it was just inserted
// or was already there).
std::int64_t ResultsStore::id_of(const std::string& select_id, const std::string& key) {
    Statement& find = cached(select_id);
    find.bind(1, key);
    find.step();
    const std::int64_t id = find.int64(0);
    find.reset();
    return id;
}

std::int64_t ResultsStore::mapping_id(const std::string& text) {
    Statement& insert =
        cached("INSERT INTO mappings (text) VALUES (?) ON CONFLICT (text) DO NOTHING");
    insert.bind(1, text).run();
    return id_of("SELECT id FROM mappings WHERE text = ?", text);
}

void ResultsStore::write_point_in_transaction(std::int64_t sweep_id, const PointRecord& p) {
    const std::int64_t arch = spec_id("architectures", p.arch.spec, &p.arch);
    const std::int64_t network = spec_id("networks", p.network, nullptr);
    const std::int64_t sparsity = spec_id("sparsity_profiles", p.sparsity, nullptr);

    Statement& remove = cached("DELETE FROM points WHERE sweep_id = ? AND idx = ?");
    remove.bind(1, sweep_id).bind(2, p.index).run();
    Statement& point = cached(
        "INSERT INTO points (sweep_id, idx, arch_id, network_id, batch, sparsity_id, dataflow, "
        "objective, search, budget, seed, phases, status, failure, evaluations, layer_phases, "
        "iteration, rejections) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    point.bind(1, sweep_id).bind(2, p.index).bind(3, arch).bind(4, network).bind(5, p.batch);
    point.bind(6, sparsity).bind(7, p.dataflow).bind(8, p.objective).bind(9, p.search);
    point.bind(10, p.budget).bind(11, p.seed).bind(12, p.phases);
    point.bind(13, p.failure ? "failed" : "done");
    if (p.failure) {
        point.bind(14, *p.failure);
    } else {
        point.bind_null(14);
    }
    std::int64_t layer_phases = 0;
    for (const LayerPhaseRecord& r : p.results) layer_phases += r.choice == 0 ? 1 : 0;
    point.bind(15, p.evaluations).bind(16, layer_phases);
    if (p.iteration) {
        point.bind(17, *p.iteration);
    } else {
        point.bind_null(17);
    }
    if (p.rejections) {
        point.bind(18, *p.rejections);
    } else {
        point.bind_null(18);
    }
    point.run();
    const std::int64_t point_id = db_->last_insert_id();

    // The record's own columns, then one per metric (layer_phase_metrics.def).
    static const std::string insert_result = fmt::format(
        "INSERT INTO results (point_id, layer, layer_index, phase, choice, mapping_id, macs, "
        "energy_breakdown, reused, energy_by_class, converged, lower_bound_cycles, "
        "lower_bound_energy_pj, {}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?{})",
        metric_columns(), repeat_text(", ?", kNumLayerPhaseMetrics));
    constexpr int kFirstMetricBind = 14;
    Statement& result = cached(insert_result);
    for (const LayerPhaseRecord& r : p.results) {
        const std::int64_t mapping = mapping_id(r.mapping);
        result.bind(1, point_id).bind(2, r.layer).bind(3, r.layer_index).bind(4, r.phase);
        result.bind(5, r.choice).bind(6, mapping).bind(7, r.macs);
        result.bind(8, r.energy_breakdown).bind(9, std::int64_t{r.reused ? 1 : 0});
        bind_json(result, 10, r.energy_by_class);
        result.bind(11, std::int64_t{r.converged ? 1 : 0});
        if (r.lower_bound_cycles) {
            result.bind(12, *r.lower_bound_cycles);
        } else {
            result.bind_null(12);
        }
        if (r.lower_bound_energy_pj) {
            result.bind(13, *r.lower_bound_energy_pj);
        } else {
            result.bind_null(13);
        }
        int index = kFirstMetricBind;
        for_each_metric(r,
                        [&](const MetricInfo&, const auto& value) { result.bind(index++, value); });
        result.run();
    }
    Statement& total = cached(
        "INSERT INTO phase_totals (point_id, phase, layer_phases, cycles, energy_pj, macs, "
        "effectual_macs, imbalance_cycles, performed_macs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const PhaseTotalRecord& t : p.totals) {
        total.bind(1, point_id).bind(2, t.phase).bind(3, t.layer_phases).bind(4, t.cycles);
        total.bind(5, t.energy_pj).bind(6, t.macs).bind(7, t.effectual_macs);
        total.bind(8, t.imbalance_cycles).bind(9, t.performed_macs).run();
    }
    if (p.training_run) write_training_run(point_id, *p.training_run);
}

void ResultsStore::write_training_run(std::int64_t point_id, const TrainingRunRecord& r) {
    Statement& run = cached(
        "INSERT INTO training_runs (point_id, iterations, samples, total_cycles, total_energy_pj, "
        "dense_total_cycles, dense_total_energy_pj, total_macs, effectual_macs, "
        "macs_removed_fraction, distinct_states) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    run.bind(1, point_id).bind(2, r.iterations).bind(3, r.samples).bind(4, r.total_cycles);
    run.bind(5, r.total_energy_pj).bind(6, r.dense_total_cycles);
    run.bind(7, r.dense_total_energy_pj).bind(8, r.total_macs).bind(9, r.effectual_macs);
    run.bind(10, r.macs_removed_fraction).bind(11, r.distinct_states).run();
    Statement& sample = cached(
        "INSERT INTO training_run_samples (point_id, sample, iteration, begin_iteration, "
        "end_iteration, exact, step_cycles, step_energy_pj, step_effectual_macs) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < r.sample_costs.size(); ++i) {
        const TrainingRunSampleRecord& c = r.sample_costs[i];
        sample.bind(1, point_id).bind(2, std::int64_t(i)).bind(3, c.iteration).bind(4, c.begin);
        sample.bind(5, c.end).bind(6, std::int64_t{c.exact ? 1 : 0}).bind(7, c.step_cycles);
        sample.bind(8, c.step_energy_pj).bind(9, c.step_effectual_macs).run();
    }
}

void ResultsStore::write_point(std::int64_t sweep_id, const PointRecord& point) {
    write_points(sweep_id, std::span<const PointRecord>(&point, 1));
}

void ResultsStore::write_points(std::int64_t sweep_id, std::span<const PointRecord> points) {
    Transaction t(*db_);
    try {
        for (const PointRecord& p : points) write_point_in_transaction(sweep_id, p);
    } catch (...) {
        spec_ids_.clear();  // ids inserted in the rolled-back transaction are gone
        throw;
    }
    t.commit();
}

void ResultsStore::update_pareto_flags() {
    Transaction t(*db_);
    trainloop::update_pareto_flags(*db_);
    t.commit();
}

}  // namespace trainloop
