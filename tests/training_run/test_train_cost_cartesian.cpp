// End-to-end: `trainloop train-cost --evaluator cartesian`, the
// Cartesian-product evaluator (cartesian/cartesian_product.hpp) reached from a
// whole training run (training_run/cartesian_costs.hpp) on an architecture's
// `cartesian_product:` section: its steps are the `cartesian` command's
// layer-phases summed, its sparse run gains over dense training, a results
// database and a sweep store what it prints, and the runs it cannot do exit
// 2 with a located message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

using trainloop::testing::Capture;
using trainloop::testing::CommandResult;
using trainloop::testing::run_trainloop;
using trainloop::testing::temp_file;

const std::string kGscn = std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/gscn_4x64.yaml";

// LeNet's two convolutions (workloads/lenet.yaml), without its fc layers,
// which the `cartesian` command does not evaluate.
const std::string kConvNet =
    "network: two_convs\n"
    "inputs:\n"
    "  - {name: image, channels: 1, height: 28, width: 28}\n"
    "layers:\n"
    "  - {name: conv1, type: conv, inputs: [image], out_channels: 20, kernel: 5}\n"
    "  - {name: pool1, type: maxpool, inputs: [conv1], kernel: 2, stride: 2}\n"
    "  - {name: conv2, type: conv, inputs: [pool1], out_channels: 50, kernel: 5}\n";

// ReSprop's SpHG (workloads/sparsity/resprop.yaml) without its warm-up: dy at 0.1 in
// both back-propagation convolutions from iteration 0.
const std::string kSpHG =
    "sparsity_profile: sphg\n"
    "rules:\n"
    "  - tensors: dy\n"
    "    phases: [bw, wu]\n"
    "    density: 0.1\n";

nlohmann::json json_of(const std::string& arguments) {
    const CommandResult r = run_trainloop(arguments, Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << arguments << "\n" << r.output;
    return nlohmann::json::parse(r.output);
}

// GSCN's array as `cartesian` options (arch_specs/gscn_4x64.yaml's section).
const std::string kGscnOptions =
    "--pes 8x8 --vectors 4x4 --banks 32 --tiling split-filters --predictor --tiles 4";

// Σ over the layer-phases of `cartesian`'s slowest PE, each rounded up (only `phase`'s
// unless it is empty).
double cartesian_step_cycles(const nlohmann::json& j, const std::string& phase = "") {
    double cycles = 0;
    for (const auto& layer : j["layers"])
        if (phase.empty() || layer["phase"] == phase)
            cycles += std::ceil(layer["slowest_pe_cycles"].get<double>() - 1e-9);
    return cycles;
}

TEST(TrainCostCartesian, AStepIsTheCartesianCommandsLayerPhasesSummed) {
    const std::string net = temp_file("two_convs.yaml", kConvNet);
    const std::string profile = temp_file("sphg.yaml", kSpHG);
    const nlohmann::json run =
        json_of("train-cost --arch " + kGscn + " --workload " + net + " --batch 8 --sparsity " +
                profile + " --iterations 10 --evaluator cartesian --quiet --format json");
    EXPECT_EQ(run["evaluator"], "cartesian");
    EXPECT_EQ(run["cartesian_product"]["tiling"], "split_filters");
    EXPECT_EQ(run["cartesian_product"]["sample_tiles"], 4);
    EXPECT_FALSE(run.contains("workload_stddev")) << "not computed by this evaluator";
    EXPECT_FALSE(run.contains("strategy")) << "no search";
    EXPECT_EQ(run["evaluations"], 0);

    const nlohmann::json dense =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --format json");
    const nlohmann::json sparse =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --sparsity " +
                profile + " --format json");
    EXPECT_EQ(run["dense_step"]["cycles"].get<double>(), cartesian_step_cycles(dense));
    ASSERT_EQ(run["samples"].size(), 1u);
    EXPECT_EQ(run["samples"][0]["step_cycles"].get<double>(), cartesian_step_cycles(sparse));
    EXPECT_EQ(run["total_cycles"].get<std::int64_t>(),
              10 * run["samples"][0]["step_cycles"].get<std::int64_t>());

    // SpHG cuts both back-propagation convolutions' products tenfold; fw is unchanged, so
    // the step is faster, but never by more than dense training's step over its fw.
    EXPECT_GT(run["speedup"].get<double>(), 1.0);
    EXPECT_LT(run["speedup"].get<double>(),
              cartesian_step_cycles(dense) / cartesian_step_cycles(dense, "fw"));
    EXPECT_LT(run["energy_ratio"].get<double>(), 1.0);
    EXPECT_LT(run["total_offchip_words"].get<double>(),
              run["dense_total_offchip_words"].get<double>());
    EXPECT_GT(run["macs_removed_fraction"].get<double>(), 0.5);
}

// `cartesian --arch` prices each layer-phase as train-cost does: its cycles, energy
// and off-chip words summed over the layer-phases are train-cost's step.
TEST(TrainCostCartesian, TheCartesianCommandWithAnArchitecturePricesWhatAStepCosts) {
    const std::string net = temp_file("two_convs.yaml", kConvNet);
    const std::string profile = temp_file("sphg.yaml", kSpHG);
    const nlohmann::json run =
        json_of("train-cost --arch " + kGscn + " --workload " + net + " --batch 8 --sparsity " +
                profile + " --iterations 1 --evaluator cartesian --quiet --format json");
    const nlohmann::json layers = json_of("cartesian --workload " + net + " --batch 8 --arch " +
                                          kGscn + " --sparsity " + profile + " --format json");
    double cycles = 0;
    double energy = 0;
    double offchip = 0;
    for (const auto& [phase, total] : layers["totals"].items()) {
        cycles += total["cycles"].get<double>();
        energy += total["energy_pj"].get<double>();
        offchip += total["offchip_words"].get<double>();
        double parts = 0;
        for (const auto& [part, pj] : total["energy"].items()) parts += pj.get<double>();
        EXPECT_NEAR(parts, total["energy_pj"].get<double>(), 1e-9 * parts) << phase;
        EXPECT_GT(total["energy"]["network_pj"].get<double>(), 0) << phase;
    }
    EXPECT_EQ(cycles, run["samples"][0]["step_cycles"].get<double>());
    EXPECT_NEAR(energy, run["total_energy_pj"].get<double>(), 1e-9 * energy);
    EXPECT_NEAR(offchip, run["total_offchip_words"].get<double>(), 1e-9 * offchip);
    EXPECT_EQ(layers["arch"], kGscn);
    // Without an architecture there is nothing to price with.
    const nlohmann::json unpriced =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --format json");
    EXPECT_FALSE(unpriced["layers"][0].contains("energy_pj"));
    EXPECT_FALSE(unpriced.contains("arch"));
}

// gscn_4x64 with its DRAM limited to `words` per cycle, reads and writes together.
std::string gscn_with_dram_bandwidth(const std::string& words) {
    std::string spec = trainloop::testing::read_text(kGscn);
    const auto replace = [&spec](const std::string& from, const std::string& to) {
        const std::size_t at = spec.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        spec.replace(at, from.size(), to);
    };
    replace("component_library: components/",
            "component_library: " + std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/components/");
    replace("    capacity: unbounded ",
            "    shared_bandwidth: " + words + "\n    capacity: unbounded ");
    return temp_file("gscn_limited.yaml", spec);
}

// The outermost level's bandwidth bounds a layer-phase as it bounds a loop nest:
// its cycles are the slowest PE's or the compulsory words' over the bandwidth.
TEST(TrainCostCartesian, ALimitedDramBoundsALayerPhaseByItsCompulsoryWords) {
    const std::string net = temp_file("two_convs.yaml", kConvNet);
    const std::string limited = gscn_with_dram_bandwidth("2");
    const nlohmann::json j =
        json_of("cartesian --workload " + net + " --batch 8 --arch " + limited + " --format json");
    int memory_bound = 0;
    double step = 0;
    for (const auto& layer : j["layers"]) {
        const double compute = std::ceil(layer["slowest_pe_cycles"].get<double>() - 1e-9);
        const double memory = std::ceil(layer["offchip_words"].get<double>() / 2 - 1e-9);
        EXPECT_EQ(layer["cycles"].get<double>(), std::max(compute, memory)) << layer["layer"];
        memory_bound += memory > compute;
        step += layer["cycles"].get<double>();
    }
    EXPECT_GT(memory_bound, 0) << "2 words per cycle must bound some layer-phase";
    // train-cost takes the same cycles; unlimited, the slowest PE's.
    const nlohmann::json run =
        json_of("train-cost --arch " + limited + " --workload " + net +
                " --batch 8 --sparsity dense --iterations 1 --evaluator cartesian --quiet "
                "--format json");
    EXPECT_EQ(run["dense_step"]["cycles"].get<double>(), step);
    const nlohmann::json unlimited =
        json_of("cartesian --workload " + net + " --batch 8 --arch " + kGscn + " --format json");
    EXPECT_EQ(unlimited["totals"]["fw"]["cycles"].get<double>(),
              cartesian_step_cycles(unlimited, "fw"));
    std::remove(limited.c_str());
}

TEST(TrainCostCartesian, RandomZerosAreTheCartesianCommandsRandomZerosSummed) {
    const std::string net = temp_file("two_convs_random.yaml", kConvNet);
    const std::string profile = temp_file("sphg_random.yaml", kSpHG);
    const std::string run_args = "train-cost --arch " + kGscn + " --workload " + net +
                                 " --batch 8 --sparsity " + profile +
                                 " --iterations 10 --evaluator cartesian --quiet --format json";
    const nlohmann::json expected = json_of(run_args);
    const nlohmann::json random = json_of(run_args + " --zeros random");
    EXPECT_EQ(random["cartesian_product"]["zeros"], "random");
    EXPECT_EQ(expected["cartesian_product"]["zeros"], "expected");
    const nlohmann::json sparse =
        json_of("cartesian --workload " + net + " --batch 8 " + kGscnOptions + " --sparsity " +
                profile + " --zeros random --format json");
    EXPECT_EQ(random["samples"][0]["step_cycles"].get<double>(), cartesian_step_cycles(sparse));
    // The PEs wait for the one that drew the most nonzeros: slower than expected zeros.
    EXPECT_GT(random["total_cycles"].get<std::int64_t>(),
              expected["total_cycles"].get<std::int64_t>());

    const CommandResult loop_nest =
        run_trainloop("train-cost --arch " + kGscn + " --workload " + net + " --sparsity " +
                      profile + " --iterations 1 --zeros random --quiet");
    EXPECT_EQ(loop_nest.exit_code, 2) << loop_nest.output;
    EXPECT_NE(loop_nest.output.find("--zeros without --evaluator cartesian"), std::string::npos)
        << loop_nest.output;
}

TEST(TrainCostCartesian, FullyConnectedLayersRunAsOneByOneConvolutions) {
    // LeNet's fc layers are evaluated too: every phase of every MAC layer has a cost.
    const nlohmann::json run = json_of("train-cost --arch " + kGscn +
                                       " --workload lenet --batch 8 --sparsity dense "
                                       "--iterations 1 --evaluator cartesian --quiet "
                                       "--format json");
    const nlohmann::json convs =
        json_of("cartesian --workload lenet --batch 8 " + kGscnOptions + " --format json");
    EXPECT_GT(run["dense_step"]["cycles"].get<double>(), cartesian_step_cycles(convs))
        << "ip1 and ip2 add their cycles to the convolutions'";
    EXPECT_EQ(run["speedup"].get<double>(), 1.0) << "a dense profile is dense training";
    const CommandResult text =
        run_trainloop("train-cost --arch " + kGscn +
                      " --workload lenet --batch 8 --sparsity dense --iterations 1 --evaluator "
                      "cartesian --quiet");
    ASSERT_EQ(text.exit_code, 0) << text.output;
    EXPECT_NE(text.output.find("on the Cartesian-product array: 4 tiles of 8×8 PEs, F×I = 4×4, "
                               "split_filters tiling with GSCN's predictor"),
              std::string::npos)
        << text.output;
    EXPECT_EQ(text.output.find("workload spread"), std::string::npos) << text.output;
}

TEST(TrainCostCartesian, AnArchitectureWithoutTheSectionExit2NamingIt) {
    const std::string procrustes =
        std::string(TRAINLOOP_SOURCE_DIR) + "/arch_specs/procrustes_sparse_16x16.yaml";
    const CommandResult r = run_trainloop("train-cost --arch " + procrustes +
                                          " --workload lenet --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("procrustes_sparse_16x16.yaml"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("no `cartesian_product:` section"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--evaluator loop-nest"), std::string::npos) << r.output;
}

TEST(TrainCostCartesian, ALayerThatIsNeitherConvNorFcExit2NamingIt) {
    // The TIMIT LSTM's recurrent cells: no plane to convolve.
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn +
                                          " --workload lstm_timit --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--evaluator"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("is neither a conv, an fc nor a matmul layer"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("expected: conv, fc and matmul layers"), std::string::npos) << r.output;
}

TEST(TrainCostCartesian, ALayerPhasePast64BitsOfCyclesExit2NamingIt) {
    // A 1 × 1 convolution of a 4096 × 4096 plane: its weight gradient's filter
    // operand (dy) is as large as the plane, so GSCN's PEs issue about 4096
    // products per MAC (the MACs themselves fit in 64 bits); at 2048 samples
    // the slowest PE takes about 1.1e19 cycles.
    const std::string network = temp_file("huge_plane.yaml",
                                          "network: huge_plane\n"
                                          "inputs:\n"
                                          "  - {name: image, channels: 256, height: 4096, "
                                          "width: 4096}\n"
                                          "layers:\n"
                                          "  - {name: wide, type: conv, inputs: [image], "
                                          "out_channels: 256, kernel: 1}\n");
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn + " --workload " + network +
                                          " --batch 2048 --sparsity dense --iterations 1 "
                                          "--evaluator cartesian --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--batch: layer 'wide' wu takes 1.1e+19 cycles, more than 64 bits "
                            "hold"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("hint: a smaller --batch"), std::string::npos) << r.output;
    // `cartesian --arch` prices the layer-phase the same way, and stops the same way.
    const CommandResult priced = run_trainloop("cartesian --arch " + kGscn + " --workload " +
                                               network + " --batch 2048 --phase wu");
    EXPECT_EQ(priced.exit_code, 2) << priced.output;
    EXPECT_NE(priced.output.find("--batch: layer 'wide' wu takes 1.1e+19 cycles"),
              std::string::npos)
        << priced.output;
    std::remove(network.c_str());
}

// One value a query prints (CSV, one row, one column).
std::string query_value(const std::string& db, const std::string& sql) {
    const CommandResult r = run_trainloop(
        "query --db " + db + " --format csv --sql \"" + sql + "\"", Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << sql << "\n" << r.output;
    const std::size_t header_end = r.output.find('\n');
    std::string value = r.output.substr(header_end + 1);
    while (!value.empty() && value.back() == '\n') value.pop_back();
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')  // CSV-quoted
        value = value.substr(1, value.size() - 2);
    return value;
}

TEST(TrainCostCartesian, ADatabaseStoresTheRunItPrints) {
    const std::string net = temp_file("two_convs_db.yaml", kConvNet);
    const std::string profile = temp_file("sphg_db.yaml", kSpHG);
    const std::string db = trainloop::testing::fresh_db("cartesian.db");
    const std::string command = "train-cost --arch " + kGscn + " --workload " + net +
                                " --batch 8 --sparsity " + profile +
                                " --iterations 10 --evaluator cartesian --quiet --format json";
    const nlohmann::json run = json_of(command + " --db " + db);
    EXPECT_EQ(query_value(db, "SELECT total_cycles FROM training_runs"),
              std::to_string(run["total_cycles"].get<std::int64_t>()));
    EXPECT_EQ(query_value(db, "SELECT dense_total_cycles FROM training_runs"),
              std::to_string(run["dense_total_cycles"].get<std::int64_t>()));
    EXPECT_EQ(query_value(db,
                          "SELECT dataflow || ' ' || objective || ' ' || search || ' ' || "
                          "budget || ' ' || evaluations || ' ' || status FROM points"),
              "cartesian none none 0 0 done");
    // The run's last state, layer-phase by layer-phase.
    const std::string layer_phases = query_value(db, "SELECT count(*) FROM results");
    EXPECT_EQ(query_value(db, "SELECT layer_phases FROM phase_totals WHERE phase = 'step'"),
              layer_phases);
    EXPECT_EQ(query_value(db, "SELECT cycles FROM phase_totals WHERE phase = 'step'"),
              std::to_string(run["samples"][0]["step_cycles"].get<std::int64_t>()));
    EXPECT_EQ(query_value(db,
                          "SELECT sum(cycles) = (SELECT cycles FROM phase_totals WHERE "
                          "phase = 'step') FROM results"),
              "1")
        << "the phases run in turn";
    EXPECT_EQ(query_value(db,
                          "SELECT count(DISTINCT m.text) || ' ' || min(m.text) FROM results "
                          "r JOIN mappings m ON m.id = r.mapping_id"),
              "1 cartesian_product 8x8 PEs x 4 sample tiles, F 4 x I 4, 32 banks, "
              "split_filters tiling, predictor");
    // Energy by component and by class each add up to the layer-phase's energy.
    EXPECT_EQ(query_value(db,
                          "SELECT count(*) FROM results r WHERE "
                          "abs(energy_pj - (SELECT sum(value) FROM "
                          "json_each(r.energy_breakdown))) > 1e-6 * energy_pj OR "
                          "abs(energy_pj - (SELECT sum(value) FROM "
                          "json_each(r.energy_by_class))) > 1e-6 * energy_pj"),
              "0");
    // The networks carry every layer-phase's operands and products (gscn_4x64's
    // are all priced), in their own class.
    EXPECT_EQ(query_value(db,
                          "SELECT count(*) FROM results WHERE NOT ("
                          "json_extract(energy_breakdown, '$.scatter_crossbar') > 0 AND "
                          "json_extract(energy_breakdown, '$.cartesian_operands') > 0 AND "
                          "json_extract(energy_by_class, '$.network') > 0)"),
              "0");
    // Unused products are multiplied too: the datapath does more than the effectual MACs.
    EXPECT_EQ(query_value(db,
                          "SELECT count(*) FROM results WHERE performed_macs < "
                          "effectual_macs OR utilization <= 0 OR utilization > 1"),
              "0");

    // Such a point has no loop nest for `eval --db` to evaluate again: said, exit 2.
    const CommandResult again =
        run_trainloop("eval --db " + db + " --point 1 --layer conv1 --phase fw");
    EXPECT_EQ(again.exit_code, 2) << again.output;
    EXPECT_NE(again.output.find("costed by the Cartesian-product evaluator"), std::string::npos)
        << again.output;

    // The same command again rewrites its point; the loop-nest evaluator's run is another.
    json_of(command + " --db " + db);
    EXPECT_EQ(query_value(db, "SELECT count(*) FROM points"), "1");
    const CommandResult searched = run_trainloop(
        "train-cost --arch " + kGscn + " --workload " + net + " --batch 8 --sparsity " + profile +
        " --iterations 10 --quiet --search random --budget 50 --db " + db);
    ASSERT_EQ(searched.exit_code, 0) << searched.output;
    EXPECT_EQ(query_value(db,
                          "SELECT group_concat(dataflow, ' ') FROM (SELECT dataflow FROM "
                          "points ORDER BY id)"),
              "cartesian any");
    // Random zeros are another run, and its mapping text says so.
    json_of(command + " --zeros random --db " + db);
    EXPECT_EQ(query_value(db, "SELECT count(*) FROM points"), "3");
    EXPECT_EQ(query_value(db, "SELECT count(*) FROM mappings WHERE text LIKE '%, random zeros'"),
              "1");
}

TEST(TrainCostCartesian, ASweepStoresWhatTrainCostPrintsAndFailsOnlyThePointItCannotDo) {
    const std::string net = temp_file("two_convs_sweep.yaml", kConvNet);
    const std::string profile = temp_file("sphg_sweep.yaml", kSpHG);
    const std::string sweep = temp_file("cartesian_sweep.yaml",
                                        "sweep: cartesian_runs\n"
                                        "architectures: [gscn_4x64]\n"
                                        "networks: [" +
                                            net +
                                            ", lstm_timit]\n"
                                            "batches: [8]\n"
                                            "sparsity: [" +
                                            profile +
                                            "]\n"
                                            "evaluator: cartesian\n"
                                            "iterations: [10]\n");
    const std::string db = trainloop::testing::fresh_db("cartesian_sweep.db");
    const CommandResult r = run_trainloop("sweep " + sweep + " --db " + db + " -q -j1");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const nlohmann::json direct =
        json_of("train-cost --arch " + kGscn + " --workload " + net + " --batch 8 --sparsity " +
                profile + " --iterations 10 --evaluator cartesian --quiet --format json");
    EXPECT_EQ(query_value(db,
                          "SELECT t.total_cycles FROM training_runs t JOIN points p ON p.id "
                          "= t.point_id WHERE p.idx = 0"),
              std::to_string(direct["total_cycles"].get<std::int64_t>()));
    const std::string failure = query_value(db, "SELECT failure FROM points WHERE idx = 1");
    EXPECT_NE(failure.find("neither a conv, an fc nor a matmul layer"), std::string::npos)
        << failure;
    EXPECT_EQ(query_value(db,
                          "SELECT group_concat(status, ' ') FROM (SELECT status FROM points "
                          "ORDER BY idx)"),
              "done failed");
}

TEST(TrainCostCartesian, ASweepOfArchitecturesWithoutTheSectionIsRefusedAtTheEntry) {
    const std::string sweep = temp_file("cartesian_no_section.yaml",
                                        "sweep: no_section\n"
                                        "architectures: [gscn_4x64, procrustes_sparse_16x16]\n"
                                        "networks: [lenet]\n"
                                        "evaluator: cartesian\n"
                                        "iterations: [1]\n");
    const CommandResult r = run_trainloop("sweep --check " + sweep);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("cartesian_no_section.yaml:2"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("'procrustes_sparse_16x16' has no `cartesian_product:` section"),
              std::string::npos)
        << r.output;
}

TEST(TrainCostCartesian, AnUnknownEvaluatorExit2ListingTheTwo) {
    const CommandResult r = run_trainloop("train-cost --arch " + kGscn +
                                          " --workload lenet --sparsity dense --iterations 1 "
                                          "--evaluator cartesain --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("loop-nest"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cartesian"), std::string::npos) << r.output;
}

}  // namespace
