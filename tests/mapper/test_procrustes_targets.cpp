// The Procrustes reproduction's targets (docs/reproductions/
// procrustes.md has every claim): the shipped specs, profile and component
// library, mapped by the mapper as the reproduction does (K,N, batch 16,
// anneal, EDP, budget 4000, seed 1), give the paper's headline figures within
// the tolerances, and the rankings and directions of §VI-C–E. The
// claims the report shows as not met (MobileNet v2's energy, the WRN-28-10
// and MobileNet v2 speedups, VGG-S's phase order) are not pinned here: the
// report bounds each and says why it cannot be met honestly.
//
// Each test maps whole networks (seconds in an optimized build); under the
// sanitizers' Debug build they would take minutes, so they skip there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "arch/architecture_parser.hpp"
#include "density/sparsity_library.hpp"
#include "network/network_mapper.hpp"
#include "workload/network_library.hpp"

namespace trainloop {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

struct Step {
    double energy_pj = 0;
    double cycles = 0;
    std::array<double, 3> phase_energy_pj{};
};

Step map_step(const char* arch_name, const char* network_name, std::int64_t batch, bool sparse,
              const char* dataflow = "K,N") {
    const Architecture arch = load_architecture(std::filesystem::path(TRAINLOOP_SOURCE_DIR) /
                                                "arch_specs" / (std::string(arch_name) + ".yaml"));
    const ArchModel model = build_arch_model(arch);
    const Network network = load_network(network_name);
    const NetworkTraining training = derive_training_problems(network, batch);
    const SparsityProfile profile = load_sparsity_profile_named("procrustes");
    const NetworkMapPlan plan = plan_network_mapping(
        model, training, {Phase::fw, Phase::bw, Phase::wu}, {parse_dataflow(dataflow), true},
        sparse ? &profile : nullptr, network.name());
    NetworkMapOptions options;
    options.search.strategy = SearchStrategy::anneal;
    options.search.objective = Objective::edp;
    options.search.budget.max_evaluations = 4000;
    options.search.seed = 1;
    const NetworkMapResult result = map_network(model, training, plan, options);
    EXPECT_FALSE(result.failure) << network_name << " on " << arch_name;
    Step step{result.step.energy_pj, double(result.step.cycles), {}};
    for (Phase p : kAllPhases) {
        if (result.total(p)) step.phase_energy_pj[std::size_t(p)] = result.total(p)->energy_pj;
    }
    return step;
}

// Procrustes §VI-C, Fig. 17: ResNet-18 trains with 3.26× less energy (±15 %),
// 2.28–4× faster (±20 %), fw and bw saving more than wu.
TEST(ProcrustesTargets, ResNet18EnergySavingsSpeedupAndPhaseOrder) {
    if (kSanitized) GTEST_SKIP() << "maps a whole network: run in the optimized build";
    const Step dense = map_step("procrustes_baseline_16x16", "resnet18", 16, false);
    const Step sparse = map_step("procrustes_sparse_16x16", "resnet18", 16, true);
    const double savings = dense.energy_pj / sparse.energy_pj;
    const double speedup = dense.cycles / sparse.cycles;
    EXPECT_NEAR(savings, 3.26, 0.15 * 3.26);
    EXPECT_GE(speedup, 2.28 * 0.8);
    EXPECT_LE(speedup, 4.0 * 1.2);
    const auto phase_saving = [&](Phase p) {
        return dense.phase_energy_pj[std::size_t(p)] / sparse.phase_energy_pj[std::size_t(p)];
    };
    EXPECT_GT(phase_saving(Phase::fw), phase_saving(Phase::wu));
    EXPECT_GT(phase_saving(Phase::bw), phase_saving(Phase::wu));
}

// The five networks' savings lie in 2.27–3.26× (±15 %) — VGG-S and DenseNet,
// the CIFAR-10 networks that map in seconds, pinned here (ResNet-18 above,
// WRN-28-10 below) — and their speedups in 2.28–4× (±20 %).
TEST(ProcrustesTargets, CifarNetworksSavingsAndSpeedupsInThePapersRange) {
    if (kSanitized) GTEST_SKIP() << "maps whole networks: run in the optimized build";
    for (const char* network : {"vgg_s", "densenet_cifar"}) {
        SCOPED_TRACE(network);
        const Step dense = map_step("procrustes_baseline_16x16", network, 16, false);
        const Step sparse = map_step("procrustes_sparse_16x16", network, 16, true);
        const double savings = dense.energy_pj / sparse.energy_pj;
        const double speedup = dense.cycles / sparse.cycles;
        EXPECT_GE(savings, 2.27 * 0.85);
        EXPECT_LE(savings, 3.26 * 1.15);
        EXPECT_GE(speedup, 2.28 * 0.8);
        EXPECT_LE(speedup, 4.0 * 1.2);
    }
}

// The ImageNet MobileNet v2 and the largest CIFAR-10 network, WRN-28-10: both
// speedups in 2.28–4× (±20 %), WRN-28-10's savings in 2.27–3.26× (±15 %).
// (MobileNet v2's savings and both networks' own speedup figures are the
// report's bounded misses.)
TEST(ProcrustesTargets, MobileNetAndWideResNetSpeedupsInThePapersRange) {
    if (kSanitized) GTEST_SKIP() << "maps whole networks: run in the optimized build";
    for (const char* network : {"mobilenet_v2", "wrn_28_10"}) {
        SCOPED_TRACE(network);
        const Step dense = map_step("procrustes_baseline_16x16", network, 16, false);
        const Step sparse = map_step("procrustes_sparse_16x16", network, 16, true);
        const double speedup = dense.cycles / sparse.cycles;
        EXPECT_GE(speedup, 2.28 * 0.8);
        EXPECT_LE(speedup, 4.0 * 1.2);
        if (std::string(network) == "wrn_28_10") {
            const double savings = dense.energy_pj / sparse.energy_pj;
            EXPECT_GE(savings, 2.27 * 0.85);
            EXPECT_LE(savings, 3.26 * 1.15);
        }
    }
}

// §VI-E, Fig. 20: K,N scales 3.9× from 16×16 to 32×32 PEs (±20 %) with
// about the same energy, given a minibatch that fills the larger array's
// minibatch axis (batch 64; at 16 the axis caps the gain at 2×).
TEST(ProcrustesTargets, KNScalesNearlyFourTimesOnFourTimesThePes) {
    if (kSanitized) GTEST_SKIP() << "maps a whole network: run in the optimized build";
    const Step small = map_step("procrustes_sparse_16x16", "resnet18", 64, true);
    const Step large = map_step("procrustes_sparse_32x32", "resnet18", 64, true);
    EXPECT_NEAR(small.cycles / large.cycles, 3.9, 0.2 * 3.9);
    EXPECT_NEAR(large.energy_pj / small.energy_pj, 1.0, 0.1);
}

// §VI-D, Figs. 18 and 19 on VGG-S (a CIFAR-10 network that maps in
// seconds): the four dataflows spend about the same energy, dense and sparse
// ("variations are negligible": within 5 % here), and the sparse step is
// fastest on K,N, then C,N, slowest on P,Q.
TEST(ProcrustesTargets, DataflowsSpendAboutTheSameEnergyAndKNIsFastestThenCNAndPQSlowest) {
    if (kSanitized) GTEST_SKIP() << "maps whole networks: run in the optimized build";
    std::map<std::string, Step> dense, sparse;
    for (const char* flow : {"C,K", "K,N", "P,Q", "C,N"}) {
        dense[flow] = map_step("procrustes_baseline_16x16", "vgg_s", 16, false, flow);
        sparse[flow] = map_step("procrustes_sparse_16x16", "vgg_s", 16, true, flow);
    }
    for (const auto* runs : {&dense, &sparse}) {
        double lo = 1e300, hi = 0;
        for (const auto& [flow, step] : *runs) {
            lo = std::min(lo, step.energy_pj);
            hi = std::max(hi, step.energy_pj);
        }
        EXPECT_LE(hi / lo - 1, 0.05) << (runs == &dense ? "dense" : "sparse");
    }
    EXPECT_LT(sparse["K,N"].cycles, sparse["C,N"].cycles);
    EXPECT_LT(sparse["C,N"].cycles, sparse["C,K"].cycles);
    EXPECT_LT(sparse["C,N"].cycles, sparse["P,Q"].cycles);
    EXPECT_LT(sparse["C,K"].cycles, sparse["P,Q"].cycles);
}

}  // namespace
}  // namespace trainloop
