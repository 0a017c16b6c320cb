// The canned queries of `trainloop query` on a 10-million-result database
// (issue: each must answer in under 100 ms), and the store's write rate.
//
// SlowCannedQuery/*: builds (once; cached as results_10m.db in the build's
// bench directory, reused while its row count and schema match) a database
// of 40,960 points — 128 architectures × 5 networks × 2 sparsity profiles ×
// 4 dataflows × 2 objectives × 4 batch sizes — with 245 layer-phases each
// (10,035,200 results), deterministic pseudo-random metrics, Pareto flags
// computed by the store's own update_pareto_flags; then times each canned
// query on a read-only connection, as `trainloop query` runs it.
// SmallDbQuery/*: the same queries on a small database (the CI smoke run).
// WritePoints: ResultsStore::write_points throughput, 245 results per point.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <random>

#include "store/canned_queries.hpp"
#include "store/pareto_flags.hpp"
#include "store/results_store.hpp"
#include "store/schema.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;

struct Shape {
    int archs, networks, sparsity, dataflows, objectives, batches, layers;
    std::int64_t points() const {
        return std::int64_t{archs} * networks * sparsity * dataflows * objectives * batches;
    }
    // Every layer has fw and wu; all but the first have bw.
    std::int64_t layer_phases() const { return 3 * layers - 1; }
};

constexpr Shape kLarge{128, 5, 2, 4, 2, 4, 82};  // 40,960 points × 245 = 10,035,200 results
constexpr Shape kSmall{8, 3, 2, 4, 1, 2, 12};    // 384 points × 35

const char* const kDataflows[] = {"C,K", "K,N", "P,Q", "C,N"};
const char* const kObjectives[] = {"edp", "energy"};
const char* const kPhases[] = {"fw", "bw", "wu"};

std::string arch_name(int a) { return fmt::format("arch_{:03}", a); }
std::string network_name(int n) { return fmt::format("net_{}", n); }

// Writes the database with raw prepared statements in one transaction (the
// store's per-point path deduplicates mappings with a lookup per result,
// which is right for sweeps and too slow for ten million rows).
void build_database(const fs::path& path, const Shape& shape) {
    ResultsStore store = ResultsStore::open_for_writing(path);
    Database& db = store.database();
    db.execute("PRAGMA synchronous = OFF");
    std::mt19937_64 rng(20261122);
    std::uniform_real_distribution<double> jitter(0.5, 2.0);
    Transaction t(db);
    db.execute(
        "INSERT INTO sweeps (name, hash, yaml, tool_version, points) "
        "VALUES ('bench', 'bench', 'sweep: bench', 'bench', " +
        std::to_string(shape.points()) + ")");
    Statement arch = db.prepare(
        "INSERT INTO architectures (id, name, hash, yaml, area_um2, pe_rows, pe_columns) "
        "VALUES (?, ?, ?, ?, ?, 16, 16)");
    std::vector<double> area(std::size_t(shape.archs));
    for (int a = 0; a < shape.archs; ++a) {
        area[std::size_t(a)] = 2e7 * (1 + a % 16) * jitter(rng);
        arch.bind(1, a + 1).bind(2, arch_name(a)).bind(3, fmt::format("a{}", a));
        arch.bind(4, fmt::format("architecture: {}", arch_name(a)))
            .bind(5, area[std::size_t(a)])
            .run();
    }
    Statement spec = db.prepare("INSERT INTO networks (id, name, hash, yaml) VALUES (?, ?, ?, ?)");
    for (int n = 0; n < shape.networks; ++n) {
        spec.bind(1, n + 1).bind(2, network_name(n)).bind(3, fmt::format("n{}", n));
        spec.bind(4, fmt::format("network: {}", network_name(n))).run();
    }
    db.execute(
        "INSERT INTO sparsity_profiles (id, name, hash, yaml) VALUES "
        "(1, 'dense', 's1', 'sparsity_profile: dense'), "
        "(2, 'procrustes', 's2', 'sparsity_profile: procrustes')");
    constexpr int kMappings = 4096;
    Statement mapping = db.prepare("INSERT INTO mappings (id, text) VALUES (?, ?)");
    for (int m = 0; m < kMappings; ++m) {
        mapping.bind(1, m + 1)
            .bind(2, fmt::format("DRAM[N{} K{}] GLB[C{} X:K16 Y:N16 bypass:outputs] RF[K{} C{} "
                                 "R3 S3]",
                                 1 + m % 7, 1 + m % 11, 1 + m % 13, 1 + m % 5, 1 + m % 3))
            .run();
    }
    Statement point = db.prepare(
        "INSERT INTO points (id, sweep_id, idx, arch_id, network_id, batch, sparsity_id, "
        "dataflow, objective, search, budget, seed, phases, status, evaluations, layer_phases) "
        "VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, 'anneal', 2000, 1, 'fw,bw,wu', 'done', ?, ?)");
    Statement result = db.prepare(
        "INSERT INTO results (point_id, layer, layer_index, phase, choice, mapping_id, macs, "
        "cycles, energy_pj, utilization, effectual_macs, imbalance_cycles, imbalance_pct, "
        "energy_breakdown, reused) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)");
    Statement total = db.prepare(
        "INSERT INTO phase_totals (point_id, phase, layer_phases, cycles, energy_pj, macs, "
        "effectual_macs, imbalance_cycles) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    std::vector<std::string> layer_names;
    for (int l = 0; l < shape.layers; ++l) layer_names.push_back(fmt::format("L{:03}", l));
    std::int64_t id = 0;
    for (int a = 0; a < shape.archs; ++a) {
        for (int n = 0; n < shape.networks; ++n) {
            for (int b = 0; b < shape.batches; ++b) {
                for (int s = 0; s < shape.sparsity; ++s) {
                    for (int d = 0; d < shape.dataflows; ++d) {
                        for (int o = 0; o < shape.objectives; ++o) {
                            ++id;
                            const std::int64_t batch = std::int64_t{16} << b;
                            point.bind(1, id).bind(2, id - 1).bind(3, a + 1).bind(4, n + 1);
                            point.bind(5, batch).bind(6, s + 1).bind(7, kDataflows[d]);
                            point.bind(8, kObjectives[o]).bind(9, 2000 * shape.layer_phases());
                            point.bind(10, shape.layer_phases()).run();
                            std::array<std::int64_t, 4> cycles{};
                            std::array<double, 4> energy{};
                            std::array<std::int64_t, 4> macs{};
                            std::array<std::int64_t, 4> count{};
                            for (int l = 0; l < shape.layers; ++l) {
                                for (int p = 0; p < 3; ++p) {
                                    if (l == 0 && p == 1) continue;  // the first layer has no bw
                                    const std::int64_t m = batch * 1'000'000 * (1 + l % 9);
                                    const auto c = static_cast<std::int64_t>(
                                        double(m) / 256 / (1 + a % 4) * jitter(rng) * (1 + s));
                                    const double e = double(m) * 4.0 * jitter(rng) / (1 + s);
                                    const double mac_pj = e * 0.3;
                                    result.bind(1, id).bind(2, layer_names[std::size_t(l)]);
                                    result.bind(3, l).bind(4, kPhases[p]);
                                    result.bind(5, std::int64_t(1 + rng() % kMappings));
                                    result.bind(6, m).bind(7, c).bind(8, e).bind(9, 0.7);
                                    result.bind(10, m / (1 + s)).bind(11, std::int64_t{0});
                                    result.bind(12, 0.0);
                                    result.bind(
                                        13,
                                        fmt::format("{{\"DRAM\":{},\"GLB\":{},\"RF\":{},"
                                                    "\"MAC\":{},\"row_broadcast\":{}}}",
                                                    e * 0.4, e * 0.15, e * 0.1, mac_pj, e * 0.05));
                                    result.run();
                                    cycles[std::size_t(p)] += c;
                                    energy[std::size_t(p)] += e;
                                    macs[std::size_t(p)] += m;
                                    ++count[std::size_t(p)];
                                }
                            }
                            for (int p = 0; p < 3; ++p) {
                                cycles[3] += cycles[std::size_t(p)];
                                energy[3] += energy[std::size_t(p)];
                                macs[3] += macs[std::size_t(p)];
                                count[3] += count[std::size_t(p)];
                            }
                            for (int p = 0; p < 4; ++p) {
                                const std::size_t i = std::size_t(p);
                                total.bind(1, id).bind(2, p < 3 ? kPhases[p] : "step");
                                total.bind(3, count[i]).bind(4, cycles[i]).bind(5, energy[i]);
                                total.bind(6, macs[i]).bind(7, macs[i]).bind(8, std::int64_t{0});
                                total.run();
                            }
                        }
                    }
                }
            }
        }
    }
    trainloop::update_pareto_flags(db);
    db.execute(fmt::format("INSERT INTO meta (key, value) VALUES ('bench_results', '{}')",
                           shape.points() * shape.layer_phases()));
    t.commit();
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)");
}

bool cache_is_valid(const fs::path& path, const Shape& shape) {
    if (!fs::exists(path)) return false;
    try {
        Database db(path, OpenMode::read_only);
        check_readable(db);
        Statement s = db.prepare("SELECT value FROM meta WHERE key = 'bench_results'");
        return s.step() && s.text(0) == std::to_string(shape.points() * shape.layer_phases());
    } catch (const std::exception&) {
        return false;
    }
}

// The database for `shape`, built under `dir` unless a valid copy is there.
fs::path database(const fs::path& dir, const std::string& name, const Shape& shape) {
    const fs::path path = dir / name;
    if (cache_is_valid(path, shape)) return path;
    const fs::path building = dir / (name + ".building");
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(building.string() + suffix);
    const auto start = std::chrono::steady_clock::now();
    build_database(building, shape);
    fs::rename(building, path);
    std::cerr << fmt::format(
        "built {} ({} results) in {:.1f} s\n", path.string(), shape.points() * shape.layer_phases(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return path;
}

struct NamedQuery {
    const char* label;
    const char* name;
    QueryArgs args;
};

std::vector<NamedQuery> queries() {
    QueryArgs best;
    best.arch = arch_name(7);
    best.network = network_name(2);
    best.dataflow = "K,N";
    QueryArgs layer;
    layer.network = network_name(2);
    layer.layer = "L010";
    layer.phase = "wu";
    QueryArgs phase;
    phase.network = network_name(2);
    phase.phase = "fw";
    QueryArgs network;
    network.network = network_name(2);
    QueryArgs archs = network;
    archs.baseline = arch_name(0);
    QueryArgs all_archs;
    all_archs.baseline = arch_name(0);
    return {{"summary", "summary", {}},
            {"best", "best", best},
            {"pareto_layer", "pareto", layer},
            {"pareto_phase", "pareto", phase},
            {"pareto_step", "pareto", network},
            {"compare_dataflows", "compare-dataflows", network},
            {"compare_archs", "compare-archs", archs},
            {"compare_archs_all_networks", "compare-archs", all_archs}};
}

void run_query(benchmark::State& state, const fs::path& path, const NamedQuery& q) {
    ResultsStore store = ResultsStore::open_for_reading(path);
    std::size_t rows = 0;
    for (auto _ : state) {
        const QueryTable table = run_canned_query(store.database(), q.name, q.args);
        rows = table.rows.size();
        benchmark::DoNotOptimize(rows);
    }
    state.counters["rows"] = double(rows);
}

void BM_SlowCannedQuery(benchmark::State& state, const NamedQuery& q) {
    static const fs::path path = database(TRAINLOOP_BENCH_DIR, "results_10m.db", kLarge);
    run_query(state, path, q);
}

void BM_SmallDbQuery(benchmark::State& state, const NamedQuery& q) {
    static const fs::path path = database(TRAINLOOP_BENCH_DIR, "results_small.db", kSmall);
    run_query(state, path, q);
}

void BM_WritePoints(benchmark::State& state) {
    const fs::path path = fs::path(TRAINLOOP_BENCH_DIR) / "write_points.db";
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
    ResultsStore store = ResultsStore::open_for_writing(path);
    const std::int64_t sweep = store.ensure_sweep({"w", "sweep: w", "w", 0});
    std::int64_t index = 0;
    for (auto _ : state) {
        PointRecord p;
        p.index = index++;
        p.arch = {{"a", "architecture: a"}, 1.0, 16, 16, 1.0, ""};
        p.network = {"n", "network: n"};
        p.sparsity = {"dense", "sparsity_profile: dense"};
        p.batch = 16;
        for (int l = 0; l < kLarge.layers; ++l) {
            for (const char* phase : kPhases) {
                LayerPhaseRecord r;
                r.layer = fmt::format("L{:03}", l);
                r.layer_index = l;
                r.phase = phase;
                r.mapping = fmt::format("DRAM[K{}] GLB[C{}]", 1 + l % 7, 1 + (index + l) % 64);
                r.energy_breakdown = "{}";
                p.results.push_back(std::move(r));
            }
        }
        store.write_point(sweep, p);
    }
    state.SetItemsProcessed(state.iterations() * kLarge.layers * 3);
}

const bool registered = [] {
    for (const NamedQuery& q : queries()) {
        benchmark::RegisterBenchmark(fmt::format("SlowCannedQuery/{}", q.label).c_str(),
                                     BM_SlowCannedQuery, q)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(fmt::format("SmallDbQuery/{}", q.label).c_str(),
                                     BM_SmallDbQuery, q)
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("WritePoints", BM_WritePoints)->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace
}  // namespace trainloop
