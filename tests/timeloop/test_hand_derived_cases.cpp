// Golden cases of our own construction (tests/timeloop/cases/<case>/): small
// Timeloop-format inputs whose every count is derived by hand below, from the
// counting rules of docs/nest_analysis.md (Timeloop's, docs/timeloop_conventions.md):
//
// - tile: the footprint of the factors at the level and inside it (its own
//   spatial factors included); an input axis spans (P'−1)·stride + (R'−1)·dil + 1.
// - fills (read-only): each step of the temporal loops above the level brings
//   in the words of the new tile the previous tile did not hold.
// - parent reads: the child's delta sum once per distinct position of the
//   child tiles under one parent instance (multicast); at the innermost keeper
//   one read per MAC and operand. A bypassed level is skipped: its parent
//   serves the child.
// - outputs: updates = what the child sends up after spatial reduction (one
//   per MAC at the RegFile); reads = updates − partition (partition = the
//   tile grown by the temporal loops above); fills = residencies − partition.
//
// Counts in JSON "accesses" are totals over the utilized instances; the
// comments give them per instance first ("/PE") where there are several.
// Every case shares one ERT (cases/*/ERT.yaml), in pJ per word:
//   RegFile read 1, write (fill) 2, update 4; GlobalBuffer 10 / 20 / 40;
//   DRAM 400 / 800 / 1200 per 4-word vector = 100 / 200 / 300; MAC 1.
// Updates are priced by the ERT action `random_update`, which timeloop-model
// uses for them (it never reads `update`). timeloop-model v3.0.3 gives these
// very counts and energies on all four cases (tools/oracles/build_timeloop.sh).
// No networks in the ERT, leakage 0: energy = Σ reads·r + fills·w + updates·u.
#include <gtest/gtest.h>

#include <array>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.hpp"

namespace {

nlohmann::json eval_case(const std::string& name) {
    const std::string dir =
        std::string(TRAINLOOP_SOURCE_DIR) + "/tests/timeloop/cases/" + name + "/";
    std::string command = "eval --format json --timeloop";
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml"}) {
        command += " " + dir + f;
    }
    const auto r =
        trainloop::testing::run_trainloop(command, trainloop::testing::Capture::stdout_only);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const std::string& out = r.output;
    const auto json = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
    EXPECT_TRUE(json.is_object() && json.contains("accesses")) << out;
    return json;
}

// Totals over all instances, as in the JSON.
struct Counts {
    const char* level;
    const char* tensor;
    std::int64_t tile, instances, reads, fills, updates;
};

void expect_counts(const nlohmann::json& j, std::initializer_list<Counts> expected) {
    for (const Counts& c : expected) {
        SCOPED_TRACE(std::string(c.level) + " " + c.tensor);
        ASSERT_TRUE(j["accesses"].contains(c.level));
        ASSERT_TRUE(j["accesses"][c.level].contains(c.tensor));
        const nlohmann::json& a = j["accesses"][c.level][c.tensor];
        EXPECT_EQ(a["tile"], c.tile);
        EXPECT_EQ(a["instances"], c.instances);
        EXPECT_EQ(a["reads"], c.reads);
        EXPECT_EQ(a["fills"], c.fills);
        EXPECT_EQ(a["updates"], c.updates);
    }
}

void expect_energy(const nlohmann::json& j,
                   std::initializer_list<std::pair<const char*, double>> levels, double total) {
    for (const auto& [component, pj] : levels) {
        EXPECT_NEAR(j["energy_breakdown"][component].get<double>(), pj, 1e-6) << component;
    }
    EXPECT_NEAR(j["energy_pj"].get<double>(), total, 1e-6);
}

// ---------------------------------------------------------------------------
// 1. bypass: C=2 K=4 P=4 Q=2 R=3 (S=N=1), stride 1; 4×1 PEs.
//    DRAM: C2 | GB: Q2 (outer) P2 (inner; P steps 2) | GB spatial K4 (X) | RF: P2 R3.
//    The GlobalBuffer keeps Weights and Outputs; Inputs bypass it.
//    Tensors: Weights C·K·R = 24; Inputs C·W·H = 2·(3+3)·2 = 24; Outputs K·P·Q = 32.
//    MACs = 2·4·4·2·3 = 192; compute cycles = temporal Π = 2·2·2·2·3 = 48 (4 PEs).
//    Steps above the RF, innermost first: p2 (P+2, 4 steps: 2·2 outer iterations × 1),
//    q2 (Q+1, 2 steps), c2 (C+1, 1 step). Above the GB: c2 only.
TEST(HandDerived, BypassInputsSkipTheGlobalBuffer) {
    const nlohmann::json j = eval_case("bypass");
    ASSERT_TRUE(j.is_object() && j.contains("accesses"));
    EXPECT_EQ(j["macs"], 192);
    EXPECT_EQ(j["compute_cycles"], 48);
    EXPECT_EQ(j["cycles"], 48);  // no bandwidth limits
    EXPECT_EQ(j["bottleneck"], "compute");
    EXPECT_DOUBLE_EQ(j["utilization"].get<double>(), 1.0);
    // The bypassed tensor has no entry at the GlobalBuffer.
    EXPECT_FALSE(j["accesses"]["GlobalBuffer"].contains("Inputs"));
    expect_counts(
        j, {
               // RF Weights: tile R3 = 3 (one c, one k). p2, q2 do not index weights (the
               // tile stays); c2 brings a disjoint tile: fills 3 + 3 = 6 /PE → 24.
               // Reads: one per MAC = 48 /PE → 192.
               {"RegFile", "Weights", 3, 4, 192, 24, 0},
               // RF Inputs: tile = 1 channel × W (2−1)+(3−1)+1 = 4 × H 1 = 4.
               // Fills /PE: first 4; p2 slides 2 columns (overlap 2): 4 steps × 2 = 8;
               // q2 moves to the other row (disjoint): 2 × 4 = 8; c2: 1 × 4 = 4.
               // 4 + 8 + 8 + 4 = 24 /PE (= a whole 6-wide row per (c,q): 6·4) → 96.
               // Reads 48 /PE → 192.
               {"RegFile", "Inputs", 4, 4, 192, 96, 0},
               // RF Outputs: tile P2 = 2. Updates one per MAC: 48 /PE → 192.
               // Partition: tile × temporal loops above (P2, Q2; C irrelevant) = 8 words.
               // Reads = 48 − 8 = 40 /PE → 160.
               // Residencies: 2 + p2 4×2 + q2 2×2 + c2 1×2 (c2 irrelevant, but the P/Q loops
               // inside it wrapped: disjoint) = 16; fills = 16 − 8 = 8 /PE → 32
               // (each of the 8 words returns once, for the second channel).
               {"RegFile", "Outputs", 2, 4, 160, 32, 192},
               // GB Weights: tile K4·R3 = 12; above the GB only c2 (disjoint): fills 12 + 12 = 24.
               // Reads serving the RFs: union of the 4 RF tiles = K4·R3 = 12 (no sharing: K
               // indexes weights), stepped as the RF: p2/q2 reuse, c2 → 12 + 12 = 24.
               {"GlobalBuffer", "Weights", 12, 1, 24, 24, 0},
               // GB Outputs: tile K4·P4·Q2 = 32. Updates: the RFs' drains, no spatial
               // reduction (K indexes outputs): union K4·P2 = 8 words stepped like the RF
               // tile: 8 + 4·8 + 2·8 + 1·8 = 64 (= 4 PEs × 16 drains).
               // Partition = 32 (c2 does not index outputs) → reads = 64 − 32 = 32.
               // Residencies: c2 does not index outputs and nothing moves inside it → 32;
               // fills = 32 − 32 = 0.
               {"GlobalBuffer", "Outputs", 32, 1, 32, 0, 64},
               // DRAM Weights: reads = the GB's fills = 24.
               {"DRAM", "Weights", 24, 1, 24, 0, 0},
               // DRAM Inputs serves the RFs directly (the GB is bypassed): union of the 4 RF
               // tiles under DRAM = the same 4 words (K does not index inputs: multicast 4),
               // stepped by c2, q2 and p2 (the GB's loops included): 4 + 8 + 8 + 4 = 24.
               // Tile: the whole tensor 2·6·2 = 24.
               {"DRAM", "Inputs", 24, 1, 24, 0, 0},
               // DRAM Outputs: updates = the GB's drains (residencies) = 32; partition 32
               // → reads 0; the outermost level has no fills.
               {"DRAM", "Outputs", 32, 1, 0, 0, 32},
           });
    expect_energy(j,
                  {
                      {"MAC", 192.0},  // 192 MACs × 1
                      // W 192·1 + 24·2 = 240; I 192·1 + 96·2 = 384;
                      // O 160·1 + 32·2 + 192·4 = 992. Σ = 1616.
                      {"RegFile", 1616.0},
                      // W 24·10 + 24·20 = 720; O 32·10 + 0·20 + 64·40 = 2880. Σ = 3600.
                      {"GlobalBuffer", 3600.0},
                      // W 24·100 + I 24·100 + O 32·300 = 2400 + 2400 + 9600 = 14400.
                      {"DRAM", 14400.0},
                  },
                  192.0 + 1616.0 + 3600.0 + 14400.0);
}

// ---------------------------------------------------------------------------
// 2. Two dimensions on one array axis: N=2 C=4 K=4 P=2 Q=2 (R=S=1); 4×2 PEs.
//    DRAM: K2 (K steps 2) | GB: Q2 | GB spatial: K2, C2 on X (split 2), N2 on Y |
//    RF: C2 (outer) P2 (inner). c = cs·2 + c_rf, k = k_dram·2 + ks.
//    Tensors: Weights C·K = 16; Inputs N·C·P·Q = 32; Outputs N·K·P·Q = 32.
//    MACs = 2·4·4·2·2 = 128; compute cycles = 2·2·2·2 = 16 (8 PEs).
//    Steps above the RF, innermost first: q2 (Q+1, 2 steps: 2 outer iterations × 1),
//    k2 (K+2, 1 step). Above the GB: k2 only.
TEST(HandDerived, TwoDimensionsOnOneArrayAxisMulticastAndReduce) {
    const nlohmann::json j = eval_case("two_dims_one_axis");
    ASSERT_TRUE(j.is_object() && j.contains("accesses"));
    EXPECT_EQ(j["macs"], 128);
    EXPECT_EQ(j["compute_cycles"], 16);
    EXPECT_EQ(j["cycles"], 16);
    EXPECT_EQ(j["bottleneck"], "compute");
    EXPECT_DOUBLE_EQ(j["utilization"].get<double>(), 1.0);  // 128 / (16 × 8)
    expect_counts(
        j, {
               // RF Weights: tile C2 = 2 (one k). q2 does not index weights (stays); k2:
               // disjoint → fills 2 + 2 = 4 /PE → 32. Reads 16 /PE → 128.
               {"RegFile", "Weights", 2, 8, 128, 32, 0},
               // RF Inputs: tile N1·C2·P2·Q1 = 4. Fills: 4 + q2 2×4 (disjoint rows) + k2 1×4
               // (k2 does not index inputs, but q2 inside it wrapped: disjoint) = 16 /PE → 128.
               // Reads 16 /PE → 128.
               {"RegFile", "Inputs", 4, 8, 128, 128, 0},
               // RF Outputs: tile P2 = 2. Updates 16 /PE → 128. Partition: × Q2 × K2 (the
               // temporal loops above) = 8 → reads 16 − 8 = 8 /PE → 64. Residencies:
               // 2 + q2 2×2 + k2 1×2 = 8 → fills 8 − 8 = 0 (C is reduced inside the RF, so no
               // word ever returns).
               {"RegFile", "Outputs", 2, 8, 64, 0, 128},
               // GB Weights: tile C4·K2 = 8; fills 8 + k2 8 = 16. Reads serving the RFs: the
               // union of the 8 RF tiles is C4·K2 = 8 words (the two N rows need the same
               // weights: multicast 2, 8 PEs × 4 fills = 32 = 2 × 16); stepped: 8 + 8 = 16.
               {"GlobalBuffer", "Weights", 8, 1, 16, 16, 0},
               // GB Inputs: tile N2·C4·P2·Q2 = 32; k2 does not index inputs and nothing moves
               // inside it → fills 32. Reads serving the RFs: union N2·C4·P2·Q1 = 16 (the two
               // K columns share: multicast 2), stepped 16 + q2 2×16 + k2 1×16 = 64
               // (= 8 PEs × 16 fills / 2).
               {"GlobalBuffer", "Inputs", 32, 1, 64, 32, 0},
               // GB Outputs: tile N2·K2·P2·Q2 = 16. Updates: the two C columns of one K column
               // reduce spatially (2:1): union N2·K2·P2·Q1 = 8, stepped 8 + 2×8 + 8 = 32
               // (= 8 PEs × 8 drains / 2). Partition: × K2 (k2 above) = 32 → reads 32 − 32 = 0.
               // Residencies 16 + k2 16 = 32 → fills 32 − 32 = 0.
               {"GlobalBuffer", "Outputs", 16, 1, 0, 0, 32},
               // DRAM: Weights reads = GB fills 16; Inputs reads = GB fills 32;
               // Outputs updates = GB drains 32, reads 32 − partition 32 = 0.
               {"DRAM", "Weights", 16, 1, 16, 0, 0},
               {"DRAM", "Inputs", 32, 1, 32, 0, 0},
               {"DRAM", "Outputs", 32, 1, 0, 0, 32},
           });
    expect_energy(j,
                  {
                      {"MAC", 128.0},
                      // W 128 + 32·2 = 192; I 128 + 128·2 = 384; O 64 + 0 + 128·4 = 576.
                      {"RegFile", 1152.0},
                      // W 16·10 + 16·20 = 480; I 64·10 + 32·20 = 1280; O 32·40 = 1280.
                      {"GlobalBuffer", 3040.0},
                      // W 16·100 + I 32·100 + O 32·300 = 1600 + 3200 + 9600.
                      {"DRAM", 14400.0},
                  },
                  128.0 + 1152.0 + 3040.0 + 14400.0);
}

// ---------------------------------------------------------------------------
// 3. A strided 7×7 first layer: N=2 K=2 C=3 P=Q=4 R=S=7, Wstride = Hstride = 2.
//    Input 13×13 ((4−1)·2 + 7). 2×2 PEs.
//    DRAM: P2 (outer, P steps 2 → W moves 4) C3 (inner) | GB: Q4 (Q steps 1 → H
//    moves 2) | GB spatial: K2 (X), N2 (Y) | RF: P2 S7 R7.
//    Tensors: Weights 3·2·49 = 294; Inputs 2·3·13·13 = 1014; Outputs 2·2·4·4 = 64.
//    MACs = 2·2·3·4·4·49 = 9408; compute cycles = 98·4·6 = 2352 (4 PEs).
//    Steps above the RF, innermost first: q4 (3 steps × 6 outer iterations = 18),
//    c3 (2 × 2 = 4 steps), p2 (1 step). Above the GB: c3 (4), p2 (1).
TEST(HandDerived, Strided7x7FirstLayerHaloTiles) {
    const nlohmann::json j = eval_case("strided_7x7");
    ASSERT_TRUE(j.is_object() && j.contains("accesses"));
    EXPECT_EQ(j["macs"], 9408);
    EXPECT_EQ(j["compute_cycles"], 2352);
    EXPECT_EQ(j["cycles"], 2352);
    EXPECT_DOUBLE_EQ(j["utilization"].get<double>(), 1.0);
    expect_counts(j, {
                         // RF Weights: tile R7·S7 = 49. q4 does not index weights (stays); each c3
                         // and p2 step brings a new channel: 49 + 4·49 + 1·49 = 294 /PE (6 × 49) →
                         // 1176. Reads 2352 /PE → 9408.
                         {"RegFile", "Weights", 49, 4, 9408, 1176, 0},
                         // RF Inputs: tile 1 channel × W (2−1)·2 + (7−1) + 1 = 9 × H (1−1)·2 + 7 =
                         // 7 = 63. A q4 step moves the window down 2 rows: overlap 9·5 = 45,
                         // new 18. Fills /PE: 63 + 18 steps × 18 + c3 4 × 63 (new channel) + p2 1 ×
                         // 63 (channel wraps back: disjoint) = 63 + 324 + 252 + 63 = 702
                         // (= 6 sweeps × a 9×13 column of 117) → 2808. Reads 2352 /PE → 9408.
                         {"RegFile", "Inputs", 63, 4, 9408, 2808, 0},
                         // RF Outputs: tile P2 = 2. Updates 2352 /PE → 9408. Partition: × Q4 × P2 =
                         // 16 → reads 2352 − 16 = 2336 /PE → 9344. Residencies: 2 + q4 18×2 + c3
                         // 4×2 (q wrapped: disjoint) + p2 1×2 = 48 → fills 48 − 16 = 32 /PE → 128
                         // (16 words × 3 channels = 48 visits, 32 of them returns).
                         {"RegFile", "Outputs", 2, 4, 9344, 128, 9408},
                         // GB Weights: tile K2·49 = 98; fills 98 + c3 4·98 + p2 98 = 588. Reads
                         // serving the RFs: union K2·49 = 98 (the two N rows share: multicast 2),
                         // q4 reuse, 98 + 4·98 + 98 = 588 (= 4 PEs × 294 / 2).
                         {"GlobalBuffer", "Weights", 98, 1, 588, 588, 0},
                         // GB Inputs: tile N2 × 1 channel × W 9 × H (4−1)·2 + 7 = 13 = 234.
                         // Fills: 234 + c3 4 × 234 + p2 1 × 234 (channel changes: disjoint,
                         // although W overlaps 5 columns) = 1404.
                         // Reads serving the RFs: union N2·9·7 = 126 (the two K columns share:
                         // multicast 2); a q4 step brings N2·9·2 = 36: 126 + 18·36 + 4·126 + 126
                         // = 126 + 648 + 504 + 126 = 1404 (= 4 PEs × 702 / 2).
                         {"GlobalBuffer", "Inputs", 234, 1, 1404, 1404, 0},
                         // GB Outputs: tile N2·K2·P2·Q4 = 32. Updates: no spatial reduction (K and
                         // N index outputs): union N2·K2·P2 = 8, stepped 8 + 18·8 + 4·8 + 8 = 192
                         // (= 4 PEs × 48). Partition: × P2 (C does not index outputs) = 64 →
                         // reads 192 − 64 = 128. Residencies: c3 reuses (nothing inside it moves
                         // the GB tile), p2 disjoint: 32 + 32 = 64 → fills 64 − 64 = 0.
                         {"GlobalBuffer", "Outputs", 32, 1, 128, 0, 192},
                         // DRAM: Weights reads = GB fills 588; Inputs reads = GB fills 1404;
                         // Outputs updates = GB drains 64, reads 64 − 64 = 0.
                         {"DRAM", "Weights", 294, 1, 588, 0, 0},
                         {"DRAM", "Inputs", 1014, 1, 1404, 0, 0},
                         {"DRAM", "Outputs", 64, 1, 0, 0, 64},
                     });
    expect_energy(j,
                  {
                      {"MAC", 9408.0},
                      // W 9408 + 1176·2 = 11760; I 9408 + 2808·2 = 15024;
                      // O 9344 + 128·2 + 9408·4 = 47232. Σ = 74016.
                      {"RegFile", 74016.0},
                      // W 588·10 + 588·20 = 17640; I 1404·10 + 1404·20 = 42120;
                      // O 128·10 + 192·40 = 8960. Σ = 68720.
                      {"GlobalBuffer", 68720.0},
                      // W 588·100 + I 1404·100 + O 64·300 = 58800 + 140400 + 19200.
                      {"DRAM", 218400.0},
                  },
                  9408.0 + 74016.0 + 68720.0 + 218400.0);
}

// ---------------------------------------------------------------------------
// 4. An FC layer: C=16 K=8 N=4 (P=Q=R=S=1). 4×4 PEs; the GlobalBuffer reads 4 and
//    writes 8 words per cycle.
//    DRAM: C2 (outer, C steps 8) K2 (inner, K steps 4) | GB: C2 (C steps 4) |
//    GB spatial: C4 (X, reduced), K4 (Y) | RF: N4.
//    Tensors: Weights 128; Inputs 64; Outputs 32. MACs = 512; compute cycles
//    = 4·2·2·2 = 32 (16 PEs).
//    Steps above the RF, innermost first: c2g (C+4, 4 steps: 4 outer iterations × 1),
//    k2 (K+4, 2 steps: c2d's 2 iterations × 1), c2d (C+8, 1 step). Above the GB:
//    k2 (2 steps), c2d (1 step).
TEST(HandDerived, FullyConnectedLayer) {
    const nlohmann::json j = eval_case("fc");
    ASSERT_TRUE(j.is_object() && j.contains("accesses"));
    EXPECT_EQ(j["macs"], 512);
    EXPECT_EQ(j["compute_cycles"], 32);
    // GlobalBuffer per cycle: reads W 128 + I 128 + O 32 = 288 → ⌈288 / 4⌉ = 72;
    // writes: fills 128 + 64 + 32 + updates 64 = 288 → ⌈288 / 8⌉ = 36. 72 > 32.
    EXPECT_EQ(j["level_cycles"]["GlobalBuffer"], 72);
    EXPECT_EQ(j["cycles"], 72);
    EXPECT_EQ(j["bottleneck"], "GlobalBuffer");
    EXPECT_DOUBLE_EQ(j["utilization"].get<double>(), 512.0 / (72.0 * 16.0));
    expect_counts(j, {
                         // RF Weights: tile 1 (one c, one k). Every loop above indexes weights and
                         // moves the tile off itself: 1 + 4 + 2 + 1 = 8 /PE → 128. Reads: one per
                         // MAC, 32 /PE → 512 (N4 is the weight reuse inside the RF).
                         {"RegFile", "Weights", 1, 16, 512, 128, 0},
                         // RF Inputs: tile N4 = 4 (one c). c2g 4 × 4; k2 2 × 4 (k does not index
                         // inputs, but c2g inside it wrapped: disjoint); c2d 1 × 4:
                         // 4 + 16 + 8 + 4 = 32 /PE → 512. Reads 32 /PE → 512.
                         {"RegFile", "Inputs", 4, 16, 512, 512, 0},
                         // RF Outputs: tile N4 = 4 (one k). Updates 32 /PE → 512. Partition: × K2 =
                         // 8 → reads 32 − 8 = 24 /PE → 384. Residencies: c2g does not index outputs
                         // (stays), k2 2 × 4, c2d 1 × 4 (k wrapped) → 4 + 8 + 4 = 16 → fills 16 − 8
                         // = 8 /PE → 128.
                         {"RegFile", "Outputs", 4, 16, 384, 128, 512},
                         // GB Weights: tile C8·K4 = 32; fills 32 + k2 2·32 + c2d 32 = 128. Reads
                         // serving the RFs: union C4·K4 = 16 (no sharing), stepped 16 + 4·16 + 2·16
                         // + 16 = 128.
                         {"GlobalBuffer", "Weights", 32, 1, 128, 128, 0},
                         // GB Inputs: tile N4·C8 = 32; k2 does not index inputs and nothing moves
                         // inside it (stays); c2d disjoint: fills 32 + 32 = 64. Reads serving the
                         // RFs: union N4·C4 = 16 (the 4 K rows share: multicast 4), stepped 16 +
                         // 4·16 + 2·16 + 16 = 128 (= 16 PEs × 32 / 4).
                         {"GlobalBuffer", "Inputs", 32, 1, 128, 64, 0},
                         // GB Outputs: tile N4·K4 = 16. Updates: the 4 C columns reduce 4:1: union
                         // N4·K4 = 16, stepped 16 + k2 2·16 + c2d 16 = 64 (= 16 PEs × 16 / 4).
                         // Partition: × K2 = 32 → reads 64 − 32 = 32. Residencies 16 + 2·16 + 16 =
                         // 64 → fills 64 − 32 = 32.
                         {"GlobalBuffer", "Outputs", 16, 1, 32, 32, 64},
                         // DRAM: Weights reads = GB fills 128; Inputs reads = GB fills 64;
                         // Outputs updates = GB drains 64, reads 64 − partition 32 = 32.
                         {"DRAM", "Weights", 128, 1, 128, 0, 0},
                         {"DRAM", "Inputs", 64, 1, 64, 0, 0},
                         {"DRAM", "Outputs", 32, 1, 32, 0, 64},
                     });
    expect_energy(j,
                  {
                      {"MAC", 512.0},
                      // W 512 + 128·2 = 768; I 512 + 512·2 = 1536;
                      // O 384 + 128·2 + 512·4 = 2688. Σ = 4992.
                      {"RegFile", 4992.0},
                      // W 128·10 + 128·20 = 3840; I 128·10 + 64·20 = 2560;
                      // O 32·10 + 32·20 + 64·40 = 3520. Σ = 9920.
                      {"GlobalBuffer", 9920.0},
                      // W 128·100 + I 64·100 + O 32·100 + 64·300
                      // = 12800 + 6400 + 3200 + 19200.
                      {"DRAM", 41600.0},
                  },
                  512.0 + 4992.0 + 9920.0 + 41600.0);
}

}  // namespace
