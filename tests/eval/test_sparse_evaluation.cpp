// The sparse adjustment of evaluate() (nest/action_counts.hpp): dense results
// are unchanged when every density is 1; skipping and gating at the MACs and
// at a level, and compressed formats, change exactly what they should.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "eval/evaluation.hpp"
#include "sparse/compressed_format.hpp"
#include "sparse/tile_occupancy.hpp"
#include "support/eval_fixtures.hpp"
#include "support/random_mapping.hpp"

namespace trainloop {
namespace {

using testing::space_of;

IterationSpace conv() { return testing::small_conv(); }

PhaseDensities densities(double w, double x, double y) {
    PhaseDensities d;
    d.spaces[DataSpace::weights].density = w;
    d.spaces[DataSpace::inputs].density = x;
    d.spaces[DataSpace::outputs].density = y;
    return d;
}

// A weight-stationary mapping on three_level(4, 4, ...): C on x, K on y.
Mapping ws_mapping() { return testing::small_conv_ws_mapping(); }

void expect_same_metrics(const Evaluation& dense, const Evaluation& sparse) {
    ASSERT_TRUE(dense.valid());
    ASSERT_TRUE(sparse.valid());
    EXPECT_EQ(sparse.cycles, dense.cycles);
    EXPECT_EQ(sparse.compute_cycles, dense.compute_cycles);
    EXPECT_EQ(sparse.level_cycles, dense.level_cycles);
    EXPECT_EQ(sparse.energy_pj, dense.energy_pj);  // exactly: × 1.0 changes nothing
    EXPECT_EQ(sparse.utilization, dense.utilization);
    for (std::size_t c = 0; c < dense.energy.num_components(); ++c) {
        EXPECT_EQ(sparse.energy.component_pj(c), dense.energy.component_pj(c)) << "component " << c;
    }
    EXPECT_FALSE(sparse.imbalance.applies);
}

TEST(SparseEvaluation, EveryDensityOneEqualsTheDenseEvaluatorOnRandomMappings) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    // Sparse features that only act on zeros: with no zeros nothing changes.
    arch.compute_skip.insert(DataSpace::weights);
    arch.compute_gate.insert(DataSpace::inputs);
    arch.levels[2].skip_when_zero[DataSpace::inputs].insert(DataSpace::weights);
    arch.levels[1].gate_when_zero[DataSpace::weights].insert(DataSpace::inputs);
    arch.has_sparse_features = true;
    std::mt19937_64 rng(11);
    int valid = 0;
    for (int n = 0; n < 300; ++n) {
        const Mapping m = testing::random_mapping(arch, conv(), rng);
        for (Phase phase : kAllPhases) {
            const PhaseProblem problem = make_phase_problem("conv", phase, conv());
            const Evaluation dense = evaluate(arch, problem, m);
            const Evaluation sparse = evaluate(arch, problem, m, densities(1, 1, 1));
            ASSERT_EQ(dense.valid(), sparse.valid());
            if (!dense.valid()) continue;
            ++valid;
            expect_same_metrics(dense, sparse);
        }
    }
    EXPECT_GT(valid, 100);
}

// Imperfect factors (nest/padding.hpp) under the sparse models: mappings of
// the layer padded (N 4 → 6, K 8 → 10, C 8 → 12) evaluated on it do the
// layer's MACs, equal the dense evaluation with no zeros, and with zeros do
// the effectual share of the real MACs, never faster than the peak.
TEST(SparseEvaluation, PaddedMappingsCountTheRealMacsAndNeverBeatThePeak) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights);
    arch.levels[2].skip_when_zero[DataSpace::inputs].insert(DataSpace::weights);
    arch.has_sparse_features = true;
    IterationSpace padded = conv();
    padded.bounds[Dim::N] = 6;
    padded.bounds[Dim::K] = 10;
    padded.bounds[Dim::C] = 12;
    std::mt19937_64 rng(17);
    int valid = 0;
    for (int n = 0; n < 200; ++n) {
        const Mapping m = testing::random_mapping(arch, padded, rng);
        for (Phase phase : kAllPhases) {
            const PhaseProblem problem = make_phase_problem("conv", phase, conv());
            const Evaluation dense = evaluate(arch, problem, m);
            const Evaluation no_zeros = evaluate(arch, problem, m, densities(1, 1, 1));
            const Evaluation sparse = evaluate(arch, problem, m, densities(0.3, 0.5, 1));
            ASSERT_EQ(dense.valid(), sparse.valid());
            if (!dense.valid()) continue;
            ++valid;
            EXPECT_EQ(dense.nest.macs, conv().macs());
            expect_same_metrics(dense, no_zeros);
            // Every phase: the weights' 0.3 times the inputs' 0.5 (an operand,
            // or in bw dx's known-zero mask); the outputs are dense.
            const double macs = double(conv().macs());
            EXPECT_NEAR(sparse.counts.effectual_macs, macs * 0.3 * 0.5, 1e-9 * macs);
            EXPECT_GE(double(sparse.compute_cycles) * double(arch.num_macs()),
                      sparse.counts.macs_performed * (1 - 1e-12));
        }
    }
    EXPECT_GT(valid, 100);
}

TEST(SparseEvaluation, ADenseArchitectureOnlyCountsEffectualMacs) {
    const ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.25, 0.5, 1));
    expect_same_metrics(dense, sparse);
    EXPECT_DOUBLE_EQ(sparse.counts.effectual_macs, double(dense.nest.macs) * 0.25 * 0.5);
    EXPECT_EQ(sparse.counts.macs_performed, double(dense.nest.macs));
}

TEST(SparseEvaluation, GatingTheMacsScalesMacEnergyButNotCycles) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_gate.insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.3, 0.5, 1));
    EXPECT_EQ(sparse.compute_cycles, dense.compute_cycles);
    EXPECT_DOUBLE_EQ(sparse.energy.mac, dense.energy.mac * 0.3);
    EXPECT_FALSE(sparse.imbalance.applies);
}

TEST(SparseEvaluation, SkippingTheMacsScalesMacEnergyAndTakesCyclesFromTheImbalanceModel) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.3, 0.5, 1));
    // MAC energy scales with the effectual fraction of the condition operand.
    EXPECT_DOUBLE_EQ(sparse.energy.mac, dense.energy.mac * 0.3);
    ASSERT_TRUE(sparse.imbalance.applies);
    EXPECT_EQ(sparse.compute_cycles, std::int64_t(std::ceil(sparse.imbalance.cycles)));
    EXPECT_LT(sparse.compute_cycles, dense.compute_cycles);
    EXPECT_GE(sparse.imbalance.cycles, sparse.imbalance.balanced_cycles);
    EXPECT_NEAR(sparse.imbalance.balanced_cycles, 0.3 * double(dense.compute_cycles),
                1e-9 * double(dense.compute_cycles));
}

// Eager Pruning's wu: the gradients of pruned weights are a known-zero mask on
// the output dw; skipping conditioned on it removes their MACs, with their
// operand reads and output updates where the MACs are served.
TEST(SparseEvaluation, SkippingOnTheOutputsMaskRemovesTheMasksMacs) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    const PhaseProblem wu = make_phase_problem("conv", Phase::wu, conv());
    ASSERT_EQ(wu.output(), DataSpace::weights);
    const Evaluation dense = evaluate(arch, wu, ws_mapping());
    const Evaluation unmasked_arch = evaluate(arch, wu, ws_mapping(), densities(0.3, 1, 1));
    // Without an entry conditioned on the output, the mask only lowers the effectual MACs.
    expect_same_metrics(dense, unmasked_arch);
    EXPECT_DOUBLE_EQ(unmasked_arch.counts.effectual_macs, 0.3 * double(dense.nest.macs));

    arch.compute_skip.insert(DataSpace::weights);  // in wu: dw, the output
    const Evaluation sparse = evaluate(arch, wu, ws_mapping(), densities(0.3, 1, 1));
    EXPECT_DOUBLE_EQ(sparse.energy.mac, dense.energy.mac * 0.3);
    EXPECT_DOUBLE_EQ(sparse.counts.macs_performed, 0.3 * double(dense.nest.macs));
    ASSERT_TRUE(sparse.imbalance.applies);
    EXPECT_LT(sparse.compute_cycles, dense.compute_cycles);
    const auto& dense_rf = dense.nest.levels[2];
    const auto& sparse_rf = sparse.counts.levels[2];
    for (DataSpace s : kAllDataSpaces) {
        EXPECT_DOUBLE_EQ(sparse_rf.space(s).reads, 0.3 * double(dense_rf.space(s).reads))
            << "data space " << int(s);
    }
    EXPECT_DOUBLE_EQ(sparse_rf.space(DataSpace::weights).updates,
                     0.3 * double(dense_rf.space(DataSpace::weights).updates));
    // In fw the weights are an input: the same entry conditions on their zeros.
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    EXPECT_DOUBLE_EQ(evaluate(arch, fw, ws_mapping(), densities(0.3, 1, 1)).energy.mac,
                     evaluate(arch, fw, ws_mapping()).energy.mac * 0.3);
}

// A MAC skipped at `compute` reads no operand and
// updates no partial sum at the level serving the MACs (the RF here).
TEST(SparseEvaluation, ASkippedMacReadsNoOperandAndUpdatesNoOutputWhereItIsServed) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
    const auto dense_rf = [&](DataSpace s) { return dense.nest.levels[2].space(s); };
    const auto sparse_rf = [&](DataSpace s) { return sparse.counts.levels[2].space(s); };
    EXPECT_DOUBLE_EQ(sparse_rf(DataSpace::inputs).reads,
                     0.25 * double(dense_rf(DataSpace::inputs).reads));
    EXPECT_DOUBLE_EQ(sparse_rf(DataSpace::outputs).updates,
                     0.25 * double(dense_rf(DataSpace::outputs).updates));
    EXPECT_DOUBLE_EQ(sparse_rf(DataSpace::outputs).reads,
                     0.25 * double(dense_rf(DataSpace::outputs).reads));
    // Uncompressed weights are still read, to find the zeros.
    EXPECT_DOUBLE_EQ(sparse_rf(DataSpace::weights).reads,
                     double(dense_rf(DataSpace::weights).reads));
    // The levels above the one serving the MACs are untouched.
    EXPECT_DOUBLE_EQ(sparse.counts.levels[1].space(DataSpace::inputs).reads,
                     double(dense.nest.levels[1].space(DataSpace::inputs).reads));
    // RF energy falls with the accesses.
    EXPECT_LT(sparse.energy.component_pj(2), 0.6 * dense.energy.component_pj(2));

    // Weights kept compressed in the RF: only the nonzeros are read.
    arch.levels[2].set_format(DataSpace::weights, CompressedFormat::bitmap);
    const Evaluation compressed = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
    EXPECT_DOUBLE_EQ(compressed.counts.levels[2].space(DataSpace::weights).reads,
                     0.25 * double(dense_rf(DataSpace::weights).reads));
    EXPECT_DOUBLE_EQ(compressed.counts.levels[2].space(DataSpace::inputs).reads,
                     0.25 * double(dense_rf(DataSpace::inputs).reads));
}

TEST(SparseEvaluation, AGatedMacSavesItsOperandAccessesEnergyButNotTheirCycles) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.levels[2].read_bandwidth = 1;
    arch.compute_gate.insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
    const SpaceCounts& x = sparse.counts.levels[2].space(DataSpace::inputs);
    const double dense_reads = double(dense.nest.levels[2].space(DataSpace::inputs).reads);
    EXPECT_DOUBLE_EQ(x.reads, 0.25 * dense_reads);
    EXPECT_DOUBLE_EQ(x.timed_reads, dense_reads);
    EXPECT_EQ(sparse.level_cycles[2], dense.level_cycles[2]);
}

// On an architecture whose sparse features have no
// overheads (skipping only: no format metadata, no balancing moves), energy
// never rises when a density falls, in any phase, on any valid mapping.
TEST(SparseEvaluation, EnergyNeverRisesAsDensityFallsWithoutOverheads) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights, Phase::fw);
    arch.compute_skip.insert(DataSpace::weights, Phase::bw);
    arch.compute_skip.insert(DataSpace::inputs, Phase::wu);
    arch.has_sparse_features = true;
    std::mt19937_64 rng(5);
    int checked = 0;
    for (int n = 0; n < 200; ++n) {
        const Mapping m = testing::random_mapping(arch, conv(), rng);
        for (Phase phase : kAllPhases) {
            const PhaseProblem problem = make_phase_problem("conv", phase, conv());
            double previous = evaluate(arch, problem, m, densities(1, 1, 1)).energy_pj;
            if (!evaluate(arch, problem, m).valid()) continue;
            for (double d : {0.7, 0.4, 0.1}) {
                const Evaluation e = evaluate(arch, problem, m, densities(d, d, 1));
                ASSERT_TRUE(e.valid());
                EXPECT_LE(e.energy_pj, previous * (1 + 1e-12))
                    << phase_name(phase) << " density " << d << " mapping " << n;
                previous = e.energy_pj;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 100);
}

// Half-tile pairing costs the energy of its half
// tiles moving over the 1-D links along the balancing axis (Procrustes
// §IV-C), no more: the other networks are untouched.
TEST(SparseEvaluation, PairingEnergyIsItsHalfTileMovesOverTheLinksAlongItsAxis) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights);
    ArchModel plain = arch;
    arch.load_balancing = {LoadBalancingScheme::half_tile_pairing, ArrayAxis::x};
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation paired = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
    const Evaluation none = evaluate(plain, fw, ws_mapping(), densities(0.25, 1, 1));
    ASSERT_GT(paired.imbalance.balancing_word_hops, 0);
    const std::size_t w = std::size_t(DataSpace::weights);
    // networks[1] runs along x (3 pJ per word and hop).
    EXPECT_NEAR(paired.energy.network[1][w] - none.energy.network[1][w],
                paired.imbalance.balancing_word_hops * 3.0,
                1e-9 * paired.imbalance.balancing_word_hops);
    EXPECT_EQ(paired.energy.network[0], none.energy.network[0]);
    EXPECT_EQ(paired.energy.network[2], none.energy.network[2]);
    // 4 PEs along x: partners are (4 + 1)/3 hops apart on average.
    EXPECT_NEAR(paired.imbalance.balancing_word_hops, paired.imbalance.balancing_words * 5.0 / 3.0,
                1e-9);
}

// Two-level work stealing moves work between torus neighbours (Chen et al.
// 2024 §IV-D): each word travels one hop and crosses one router, priced on the
// torus from the PEs' parent when there is one, else on the unicast network.
TEST(SparseEvaluation, StealingEnergyIsOneHopPerWordOnTheTorusWhenThereIsOne) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::weights);
    arch.load_balancing = {LoadBalancingScheme::two_level_work_stealing, std::nullopt};
    ArchModel plain = arch;
    plain.load_balancing = {};
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const PhaseDensities d = densities(0.1, 1, 1);
    const Evaluation none = evaluate(plain, fw, ws_mapping(), d);
    const std::size_t w = std::size_t(DataSpace::weights);

    // No torus: the unicast network (networks[2], 4 pJ per word and hop) carries it.
    const Evaluation on_bus = evaluate(arch, fw, ws_mapping(), d);
    const double hops = on_bus.imbalance.balancing_word_hops;
    ASSERT_GT(hops, 0) << "the case must make some PE steal";
    EXPECT_DOUBLE_EQ(hops, on_bus.imbalance.balancing_words) << "neighbours: one hop per word";
    EXPECT_NEAR(on_bus.energy.network[2][w] - none.energy.network[2][w], hops * 4.0, 1e-9 * hops);
    EXPECT_DOUBLE_EQ(on_bus.energy.balancing, hops * 4.0);

    // A torus from the same level takes the moves, and each hop ends in a router.
    ArchModel torus = arch;
    torus.networks[0].topology = NetworkTopology::torus;
    torus.networks[0].router_pj = 0.5;
    const Evaluation on_torus = evaluate(torus, fw, ws_mapping(), d);
    EXPECT_DOUBLE_EQ(on_torus.imbalance.balancing_word_hops, hops);
    EXPECT_NEAR(on_torus.energy.network[0][w] - none.energy.network[0][w], hops * (2.0 + 0.5),
                1e-9 * hops);
    EXPECT_EQ(on_torus.energy.network[2], none.energy.network[2]);
    EXPECT_DOUBLE_EQ(on_torus.energy.balancing, hops * 2.5);
}

TEST(SparseEvaluation, AFormatDeclaredForSomePhasesIsUsedOnlyInThem) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.levels[1].format[DataSpace::weights][Phase::fw] = CompressedFormat::bitmap;
    const PhaseDensities d = densities(0.25, 1, 1);
    const Evaluation fw =
        evaluate(arch, make_phase_problem("conv", Phase::fw, conv()), ws_mapping(), d);
    const Evaluation wu =
        evaluate(arch, make_phase_problem("conv", Phase::wu, conv()), ws_mapping(), d);
    EXPECT_GT(fw.counts.levels[1].space(DataSpace::weights).metadata_reads, 0);
    // In wu the weights' space holds dw, produced dense and stored uncompressed.
    EXPECT_EQ(wu.counts.levels[1].space(DataSpace::weights).metadata_reads, 0);
    EXPECT_EQ(wu.counts.levels[1].space(DataSpace::weights).drains,
              double(wu.nest.levels[1].space(DataSpace::weights).drains));
}

TEST(SparseEvaluation, AFeatureDeclaredForSomePhasesActsOnlyInThem) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::inputs, Phase::wu);  // Procrustes: x zeros only in wu
    const PhaseDensities d = densities(0.3, 0.5, 1);
    const Evaluation fw =
        evaluate(arch, make_phase_problem("conv", Phase::fw, conv()), ws_mapping(), d);
    const Evaluation wu =
        evaluate(arch, make_phase_problem("conv", Phase::wu, conv()), ws_mapping(), d);
    EXPECT_EQ(fw.counts.macs_performed, double(fw.nest.macs));
    EXPECT_FALSE(fw.imbalance.applies);
    EXPECT_DOUBLE_EQ(wu.counts.macs_performed, double(wu.nest.macs) * 0.5);
    EXPECT_TRUE(wu.imbalance.applies);
}

// The phase's output as a condition is its known-zero mask: with none given
// (density 1) nothing is skipped; with one, its MACs are.
TEST(SparseEvaluation, ThePhasesOutputAsASkippingConditionIsItsKnownZeroMask) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.compute_skip.insert(DataSpace::outputs);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation unmasked = evaluate(arch, fw, ws_mapping(), densities(1, 1, 1));
    EXPECT_EQ(unmasked.counts.macs_performed, double(unmasked.nest.macs));
    EXPECT_FALSE(unmasked.imbalance.applies);
    const Evaluation masked = evaluate(arch, fw, ws_mapping(), densities(1, 1, 0.1));
    EXPECT_DOUBLE_EQ(masked.counts.macs_performed, 0.1 * double(masked.nest.macs));
    EXPECT_DOUBLE_EQ(masked.counts.effectual_macs, 0.1 * double(masked.nest.macs));
    EXPECT_TRUE(masked.imbalance.applies);
    EXPECT_LT(masked.compute_cycles, unmasked.compute_cycles);
}

// A level skips (gates) a read only when the whole condition tile the read
// meets is empty (sparse/condition_tile.hpp). In ws_mapping the RF serves the
// MACs and has no spatial loop below it: each input read meets one weight.
// The GLB's input reads fill the RF's tile (Q6 R3 S3), which meets the
// weights of the K4 PEs on y (an input does not index K) over R3 S3: 36
// weights, all zero with probability (1 − d)^36.
TEST(SparseEvaluation, SkippingAtALevelRemovesReadsAndTheirCyclesGatingOnlyTheirEnergy) {
    ArchModel skip = testing::three_level(4, 4, 1 << 14, 256);
    skip.levels[1].read_bandwidth = 1;  // make the GLB's reads count in latency
    ArchModel gate = skip;
    const DataSpace x = DataSpace::inputs;
    skip.levels[1].skip_when_zero[x].insert(DataSpace::weights);
    gate.levels[1].gate_when_zero[x].insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const double w = 0.05;
    const Evaluation dense = evaluate(skip, fw, ws_mapping());
    const Evaluation skipped = evaluate(skip, fw, ws_mapping(), densities(w, 1, 1));
    const Evaluation gated = evaluate(gate, fw, ws_mapping(), densities(w, 1, 1));
    const double dense_reads = double(dense.nest.levels[1].space(DataSpace::inputs).reads);
    const double kept = 1 - std::pow(1 - w, 36);
    EXPECT_NEAR(skipped.counts.levels[1].space(x).reads, dense_reads * kept, 1e-9 * dense_reads);
    EXPECT_NEAR(gated.counts.levels[1].space(x).reads, dense_reads * kept, 1e-9 * dense_reads);
    // The removed reads, as Sparseloop reports them: skipped, or gated.
    EXPECT_NEAR(skipped.counts.levels[1].space(x).skipped_reads, dense_reads * (1 - kept),
                1e-9 * dense_reads);
    EXPECT_EQ(skipped.counts.levels[1].space(x).gated_reads, 0.0);
    EXPECT_NEAR(gated.counts.levels[1].space(x).gated_reads, dense_reads * (1 - kept),
                1e-9 * dense_reads);
    EXPECT_EQ(gated.counts.levels[1].space(x).skipped_reads, 0.0);
    EXPECT_DOUBLE_EQ(gated.counts.levels[1].space(x).timed_reads, dense_reads);
    EXPECT_LT(skipped.level_cycles[1], dense.level_cycles[1]);
    EXPECT_EQ(gated.level_cycles[1], dense.level_cycles[1]);
    EXPECT_EQ(skipped.energy.level[1][std::size_t(x)][0], gated.energy.level[1][std::size_t(x)][0]);
    // Weights' own reads are not conditioned on anything here.
    EXPECT_EQ(skipped.counts.levels[1].space(DataSpace::weights).reads,
              double(dense.nest.levels[1].space(DataSpace::weights).reads));

    // At the RF, serving the MACs, a read meets one weight: kept with its density.
    ArchModel serving = testing::three_level(4, 4, 1 << 14, 256);
    serving.levels[2].skip_when_zero[x].insert(DataSpace::weights);
    const Evaluation rf = evaluate(serving, fw, ws_mapping(), densities(w, 1, 1));
    const double rf_reads = double(dense.nest.levels[2].space(x).reads);
    EXPECT_NEAR(rf.counts.levels[2].space(x).reads, rf_reads * w, 1e-9 * rf_reads);
}

// A hypergeometric model counts from its tensor's size, which the evaluator
// reads from the layer: the 576 weights (K8 C8 R3 S3) at density 0.05 hold
// exactly 29 nonzeros (density 29/576), so a GLB read, which meets 36 of
// them (the test above), is skipped with probability Π (547 − i)/(576 − i).
TEST(SparseEvaluation, AHypergeometricOperandCountsFromItsLayersTensor) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    const DataSpace x = DataSpace::inputs;
    arch.levels[1].skip_when_zero[x].insert(DataSpace::weights);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    PhaseDensities d = densities(0.05, 1, 1);
    d.spaces[DataSpace::weights].model = HypergeometricModel{};
    const Evaluation e = evaluate(arch, fw, ws_mapping(), d);
    PhaseDensities sized = d;
    sized.spaces[DataSpace::weights].model = HypergeometricModel{576};
    EXPECT_EQ(with_tensor_sizes(d, fw).of(DataSpace::weights).model,
              sized.of(DataSpace::weights).model);
    const Evaluation explicit_size = evaluate(arch, fw, ws_mapping(), sized);
    const double dense_reads = double(e.nest.levels[1].space(x).reads);
    double all_zero = 1;
    for (int i = 0; i < 36; ++i) all_zero *= (547.0 - i) / (576.0 - i);
    EXPECT_NEAR(e.counts.levels[1].space(x).reads, dense_reads * (1 - all_zero),
                1e-9 * dense_reads);
    EXPECT_EQ(e.counts.levels[1].space(x).reads, explicit_size.counts.levels[1].space(x).reads);
    EXPECT_EQ(e.energy_pj, explicit_size.energy_pj);
    // And its density is the whole count's: 29 / 576.
    EXPECT_DOUBLE_EQ(with_tensor_sizes(d, fw).of(DataSpace::weights).density, 29.0 / 576);
    EXPECT_DOUBLE_EQ(e.densities[DataSpace::weights], 29.0 / 576);
}

// What a gated MAC saves: by default its operands' reads and its output's
// update at the level serving the MACs too; with `saves: mac` (Sparseloop's
// compute gating) only its own energy. Either way it takes its cycle.
TEST(SparseEvaluation, AGatedMacSavesItsAccessesUnlessItSavesOnlyItself) {
    ArchModel both = testing::three_level(4, 4, 1 << 14, 256);
    both.compute_gate.insert(DataSpace::inputs);
    ArchModel mac_only = both;
    mac_only.compute_gate_mac_only.insert(DataSpace::inputs);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(both, fw, ws_mapping());
    const Evaluation a = evaluate(both, fw, ws_mapping(), densities(1, 0.25, 1));
    const Evaluation m = evaluate(mac_only, fw, ws_mapping(), densities(1, 0.25, 1));
    EXPECT_DOUBLE_EQ(a.counts.macs_performed, 0.25 * double(dense.nest.macs));
    EXPECT_DOUBLE_EQ(m.counts.macs_performed, a.counts.macs_performed);
    const double reads = double(dense.nest.levels[2].space(DataSpace::weights).reads);
    EXPECT_DOUBLE_EQ(a.counts.levels[2].space(DataSpace::weights).reads, 0.25 * reads);
    EXPECT_DOUBLE_EQ(m.counts.levels[2].space(DataSpace::weights).reads, reads);
    EXPECT_LT(a.energy_pj, m.energy_pj);
    EXPECT_LT(m.energy_pj, dense.energy_pj);
    EXPECT_EQ(a.cycles, dense.cycles);
    EXPECT_EQ(m.cycles, dense.cycles);
}

TEST(SparseEvaluation, ACompressedLevelStoresAndMovesDataPlusMetadata) {
    ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
    arch.levels[1].set_format(DataSpace::weights, CompressedFormat::bitmap);
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Evaluation dense = evaluate(arch, fw, ws_mapping());
    const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
    const SpaceAccesses& acc = dense.nest.levels[1].space(DataSpace::weights);
    const SpaceCounts& c = sparse.counts.levels[1].space(DataSpace::weights);
    // Bitmap: the nonzeros plus one bit per element, in 32-bit words.
    const double per_word = 0.25 + 1.0 / 32.0;
    EXPECT_DOUBLE_EQ(c.footprint_words, double(acc.tile) * per_word);
    EXPECT_DOUBLE_EQ(c.reads, double(acc.reads) * 0.25);
    EXPECT_DOUBLE_EQ(c.metadata_reads, double(acc.reads) / 32.0);
    EXPECT_DOUBLE_EQ(c.fills, double(acc.fills) * 0.25);
    EXPECT_DOUBLE_EQ(c.metadata_fills, double(acc.fills) / 32.0);
    // Other levels and spaces keep their dense counts.
    EXPECT_EQ(sparse.counts.levels[2].space(DataSpace::weights).reads,
              double(dense.nest.levels[2].space(DataSpace::weights).reads));
}

// A skipped or gated access touches neither the data nor the metadata of the
// tile it would have read or updated: the operand and the output the MACs are
// served from keep their metadata in proportion to their data accesses.
TEST(SparseEvaluation, AMetadataAccessGoesWithTheSkippedOrGatedAccess) {
    for (const bool gate : {false, true}) {
        SCOPED_TRACE(gate ? "gated" : "skipped");
        ArchModel arch = testing::three_level(4, 4, 1 << 14, 256);
        (gate ? arch.compute_gate : arch.compute_skip).insert(DataSpace::weights);
        arch.levels[2].set_format(DataSpace::inputs, CompressedFormat::bitmap);
        arch.levels[2].set_format(DataSpace::outputs, CompressedFormat::bitmap);
        const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
        const Evaluation dense = evaluate(arch, fw, ws_mapping());
        const Evaluation sparse = evaluate(arch, fw, ws_mapping(), densities(0.25, 1, 1));
        for (const DataSpace s : {DataSpace::inputs, DataSpace::outputs}) {
            const SpaceAccesses& acc = dense.nest.levels[2].space(s);
            const SpaceCounts& c = sparse.counts.levels[2].space(s);
            // Dense data in a bitmap: every element, one bit each beside it.
            EXPECT_DOUBLE_EQ(c.reads, 0.25 * double(acc.reads)) << data_space_name(s);
            EXPECT_DOUBLE_EQ(c.metadata_reads, c.reads / 32.0) << data_space_name(s);
        }
        const SpaceCounts& y = sparse.counts.levels[2].space(DataSpace::outputs);
        EXPECT_DOUBLE_EQ(y.updates,
                         0.25 * double(dense.nest.levels[2].space(DataSpace::outputs).updates));
        EXPECT_DOUBLE_EQ(y.metadata_updates, y.updates / 32.0);
        // Time: a skipped access and its metadata take no cycle; a gated one
        // keeps both (as the arrays' lockstep keeps a gated MAC's cycle).
        const double kept_cycles = gate ? 1.0 : 0.25;
        for (const DataSpace s : {DataSpace::inputs, DataSpace::outputs}) {
            const SpaceCounts& c = sparse.counts.levels[2].space(s);
            const double dense_reads = double(dense.nest.levels[2].space(s).reads);
            EXPECT_DOUBLE_EQ(c.timed_metadata_reads, kept_cycles * dense_reads / 32.0)
                << data_space_name(s);
        }
        EXPECT_DOUBLE_EQ(
            y.timed_metadata_updates,
            kept_cycles * double(dense.nest.levels[2].space(DataSpace::outputs).updates) / 32.0);
    }
}

TEST(SparseEvaluation, ATileThatOverflowsDenseFitsWhenCompressed) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Mapping m = ws_mapping();
    ArchModel probe = testing::three_level(4, 4, 1 << 20, 256);
    const Evaluation roomy = evaluate(probe, fw, m);
    std::int64_t glb_words = 0;
    for (const SpaceAccesses& acc : roomy.nest.levels[1].spaces) glb_words += acc.tile;
    ArchModel arch = testing::three_level(4, 4, glb_words - 1, 256);
    arch.levels[1].set_format(DataSpace::weights, CompressedFormat::bitmap);
    const Evaluation dense = evaluate(arch, fw, m);
    ASSERT_FALSE(dense.valid());
    EXPECT_EQ(dense.violation->kind, ViolationKind::capacity);
    EXPECT_TRUE(evaluate(arch, fw, m, densities(0.5, 1, 1)).valid());
    // At density 1 the bitmap costs more than the dense tile: still too big.
    const Evaluation full = evaluate(arch, fw, m, densities(1, 1, 1));
    ASSERT_FALSE(full.valid());
    EXPECT_GT(full.violation->actual, glb_words);
}

// A fibertree format at level 1 with `ranks`.
ArchModel with_fibertree(ArchModel arch, std::initializer_list<RankFormat> ranks) {
    RankFormats r;
    for (RankFormat f : ranks) r.push_back(f);
    arch.levels[1].set_format(DataSpace::weights, CompressedFormat::fibertree);
    arch.levels[1].ranks[DataSpace::weights].fill(r);
    return arch;
}

TEST(SparseEvaluation, AOneRankFibertreeMovesWhatTheFlatFormatMoves) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const ArchModel plain = testing::three_level(4, 4, 1 << 16, 256);
    for (const auto& [rank, flat] : {std::pair{RankFormat::b, CompressedFormat::bitmap},
                                     std::pair{RankFormat::rle, CompressedFormat::rle}}) {
        ArchModel flat_arch = plain;
        flat_arch.levels[1].set_format(DataSpace::weights, flat);
        const Evaluation a = evaluate(flat_arch, fw, ws_mapping(), densities(0.3, 1, 1));
        const Evaluation b =
            evaluate(with_fibertree(plain, {rank}), fw, ws_mapping(), densities(0.3, 1, 1));
        const SpaceCounts& ca = a.counts.levels[1].space(DataSpace::weights);
        const SpaceCounts& cb = b.counts.levels[1].space(DataSpace::weights);
        EXPECT_DOUBLE_EQ(cb.footprint_words, ca.footprint_words) << compressed_format_name(flat);
        EXPECT_DOUBLE_EQ(cb.reads, ca.reads);
        EXPECT_DOUBLE_EQ(cb.metadata_reads, ca.metadata_reads);
        EXPECT_DOUBLE_EQ(b.energy_pj, a.energy_pj);
    }
}

TEST(SparseEvaluation, AFibertreeUnderACompressedParentStoresNoEmptyTile) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const double density = 0.02;
    const ArchModel alone =
        with_fibertree(testing::three_level(4, 4, 1 << 16, 256), {RankFormat::b});
    ArchModel under = alone;
    under.levels[0].set_format(DataSpace::weights, CompressedFormat::bitmap);
    const Evaluation a = evaluate(alone, fw, ws_mapping(), densities(density, 1, 1));
    const Evaluation b = evaluate(under, fw, ws_mapping(), densities(density, 1, 1));
    const SpaceCounts& ca = a.counts.levels[1].space(DataSpace::weights);
    const SpaceCounts& cb = b.counts.levels[1].space(DataSpace::weights);
    const TensorTile tile = tile_of(fw.projection(DataSpace::weights), a.nest.tile_box[1]);
    const double empty =
        tile_occupancy(UniformModel{}, density, tile, DataSpace::weights).probability_empty;
    ASSERT_GT(empty, 0.01) << "the test needs tiles that are often empty";
    // The parent's bitmap tells which tiles are empty; they are not stored here.
    EXPECT_NEAR(cb.footprint_metadata_words, ca.footprint_metadata_words * (1 - empty),
                1e-12 * ca.footprint_metadata_words);
    EXPECT_DOUBLE_EQ(cb.reads, ca.reads) << "the data is the nonzeros either way";
}

TEST(SparseEvaluation, AFibertreeTilesMetadataCountsInTheCapacityCheck) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Mapping m = ws_mapping();
    const ArchModel roomy =
        with_fibertree(testing::three_level(4, 4, 1 << 20, 256), {RankFormat::b, RankFormat::b});
    const Evaluation probe = evaluate(roomy, fw, m, densities(0.3, 1, 1));
    ASSERT_TRUE(probe.valid());
    double data = 0;
    double metadata = 0;
    for (const SpaceCounts& c : probe.counts.levels[1].spaces) {
        data += c.footprint_words - c.footprint_metadata_words;
        metadata += c.footprint_metadata_words;
    }
    ASSERT_GT(metadata, 1);
    // Room for the data and not the metadata: refused (the mapper's pruning,
    // before loop orders, counts the data alone; the evaluation has the tree).
    ArchModel tight = roomy;
    tight.levels[1].capacity_words = std::int64_t(std::ceil(data));
    const Evaluation e = evaluate(tight, fw, m, densities(0.3, 1, 1));
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::capacity);
}

TEST(SparseEvaluation, CompressedTrafficEnergyCrossesUncompressedAtTheFormatsCrossover) {
    const PhaseProblem fw = make_phase_problem("conv", Phase::fw, conv());
    const Mapping m = ws_mapping();
    const ArchModel plain = testing::three_level(4, 4, 1 << 16, 256);
    const std::size_t w = std::size_t(DataSpace::weights);
    for (CompressedFormat f : {CompressedFormat::bitmap, CompressedFormat::csr,
                               CompressedFormat::coo, CompressedFormat::rle}) {
        ArchModel compressed = plain;
        compressed.levels[1].set_format(DataSpace::weights, f);
        const Evaluation probe = evaluate(plain, fw, m);
        const TensorTile tile = tile_of(fw.projection(DataSpace::weights), probe.nest.tile_box[1]);
        const double cross = crossover_density(f, tile, DataSpace::weights, UniformModel{}, 32);
        ASSERT_GT(cross, 0.05) << compressed_format_name(f);
        ASSERT_LT(cross, 0.99) << compressed_format_name(f);
        const auto glb_weight_pj = [&](const ArchModel& arch, double d) {
            const Evaluation e = evaluate(arch, fw, m, densities(d, 1, 1));
            return e.energy.level[1][w][0] + e.energy.level[1][w][1];
        };
        EXPECT_LT(glb_weight_pj(compressed, cross - 0.03), glb_weight_pj(plain, cross - 0.03))
            << compressed_format_name(f) << " below its crossover " << cross;
        EXPECT_GT(glb_weight_pj(compressed, cross + 0.03), glb_weight_pj(plain, cross + 0.03))
            << compressed_format_name(f) << " above its crossover " << cross;
    }
}

}  // namespace
}  // namespace trainloop
