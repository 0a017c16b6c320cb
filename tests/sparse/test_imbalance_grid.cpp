// The closed form against the Monte-Carlo reference over a grid of
// densities (0.05–0.9), arrays (4×4–32×32), tile sizes (1–4096) and every
// density model, on a C,K weight-sparse mapping without balancing: the
// closed form's expected slowest-PE cycles must be within 5 % of the
// Monte-Carlo mean. Prints the worst cases.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "arch/architecture_parser.hpp"
#include "density/sparsity_library.hpp"
#include "imbalance_fixtures.hpp"
#include "spec/mapping_case.hpp"

namespace trainloop {
namespace {

using testing::Dataflow;
using testing::weight_sparse_case;

// A [1024, 1024] weight mask with per-filter densities spread around `density`.
std::shared_ptr<const MaskTensor> clustered_mask(double density) {
    auto mask = std::make_shared<MaskTensor>();
    mask->file = "generated";
    mask->shape = {1024, 1024};
    mask->nonzero.resize(1024 * 1024);
    std::mt19937_64 rng(42);
    const BetaParameters b = cluster_beta(density, 0.4);
    std::size_t nonzeros = 0;
    for (std::size_t k = 0; k < 1024; ++k) {
        const double x = std::gamma_distribution<double>(b.alpha, 1.0)(rng);
        const double d = x / (x + std::gamma_distribution<double>(b.beta, 1.0)(rng));
        std::bernoulli_distribution bit(d);
        for (std::size_t c = 0; c < 1024; ++c) nonzeros += mask->nonzero[k * 1024 + c] = bit(rng);
    }
    mask->density = double(nonzeros) / double(mask->nonzero.size());
    return mask;
}

struct GridResult {
    std::string label;
    double closed_form;
    double monte_carlo;
    double error() const { return std::abs(closed_form - monte_carlo) / monte_carlo; }
};

TEST(SlowImbalanceGrid, ClosedFormWithinFivePercentOfMonteCarlo) {
    const double densities[] = {0.05, 0.1, 0.3, 0.5, 0.9};
    // N:M patterns with those densities, along c.
    const NMModel patterns[] = {
        {1, 20, 'c'}, {1, 10, 'c'}, {3, 10, 'c'}, {1, 2, 'c'}, {9, 10, 'c'}};
    const std::int64_t arrays[] = {4, 8, 16, 32};
    const std::int64_t tile_sides[] = {1, 4, 16, 64};  // tiles of 1, 16, 256, 4096 weights
    std::vector<GridResult> results;
    for (std::size_t di = 0; di < 5; ++di) {
        const auto mask = clustered_mask(densities[di]);
        const std::pair<std::string, DensityModel> models[] = {
            {"uniform", UniformModel{}},
            {"even", EvenModel{}},
            {"n_m", patterns[di]},
            {"clustered/filter",
             ClusteredModel{ClusterDistribution::beta, 0.6, ClusterUnit::filter}},
            {"clustered/channel",
             ClusteredModel{ClusterDistribution::beta, 0.6, ClusterUnit::channel}},
            {"mask", MaskModel{mask}},
        };
        for (const auto& [name, model] : models) {
            const double density = std::holds_alternative<NMModel>(model)
                                       ? std::get<NMModel>(model).density()
                                   : std::holds_alternative<MaskModel>(model) ? mask->density
                                                                              : densities[di];
            for (std::int64_t side : arrays) {
                for (std::int64_t t : tile_sides) {
                    const auto c =
                        weight_sparse_case(Dataflow::CK, side, side, t, t, 100000, model, density);
                    // About 2^15 PE-waves per case and at least 128 waves: a
                    // Monte-Carlo error of about 1 % (the maximum of a wave
                    // varies less than one PE's work, but not by √PEs).
                    // Large tiles vary little from wave to wave: 48 waves do.
                    const std::int64_t waves =
                        std::max<std::int64_t>(t >= 16 ? 48 : 128, 32768 / (side * side));
                    const double cf = c.run(ImbalanceMethod::closed_form).cycles;
                    const double mc = c.run(ImbalanceMethod::monte_carlo, waves).cycles;
                    results.push_back(
                        {fmt::format("{} d={} {}x{} tile={}", name, density, side, side, t * t), cf,
                         mc});
                    EXPECT_LE(results.back().error(), 0.05)
                        << results.back().label << ": closed form " << cf << ", Monte-Carlo " << mc;
                }
            }
        }
    }
    std::sort(results.begin(), results.end(),
              [](const GridResult& a, const GridResult& b) { return a.error() > b.error(); });
    std::printf("%zu cases; worst closed form vs Monte-Carlo:\n", results.size());
    for (std::size_t i = 0; i < results.size() && (i < 8 || results[i].error() > 0.05); ++i) {
        std::printf("  %-45s closed %.4g  MC %.4g  error %.2f %%\n", results[i].label.c_str(),
                    results[i].closed_form / 1e5, results[i].monte_carlo / 1e5,
                    100 * results[i].error());
    }
}

// The balancing schemes on the mappings they are meant for: half-tile pairing
// on K,N along K (Procrustes §IV-C), the other two on C,K; tiles of 64 and
// 1,024 weights, within 8 %. (Tiles of a few elements are off by up to ~50 %
// for two-level stealing and ~20 % for pairing: the closed forms treat the
// balanced work as continuous; see docs/load_imbalance.md.)
TEST(SlowImbalanceGrid, SchemesClosedFormWithinEightPercentOfMonteCarlo) {
    std::vector<GridResult> results;
    const std::pair<std::string, DensityModel> models[] = {
        {"uniform", UniformModel{}},
        {"clustered/filter", ClusteredModel{ClusterDistribution::beta, 0.6, ClusterUnit::filter}},
    };
    for (auto scheme :
         {LoadBalancingScheme::half_tile_pairing, LoadBalancingScheme::two_level_work_stealing,
          LoadBalancingScheme::flexible_allocation, LoadBalancingScheme::line_indexing}) {
        const Dataflow dataflow =
            scheme == LoadBalancingScheme::half_tile_pairing ? Dataflow::KN : Dataflow::CK;
        for (const auto& [name, model] : models) {
            for (double density : {0.05, 0.1, 0.3, 0.5, 0.9}) {
                for (std::int64_t side : {4, 16, 32}) {
                    for (std::int64_t t : {8, 32}) {
                        const auto c = weight_sparse_case(dataflow, side, side, t, t, 100000, model,
                                                          density, scheme);
                        const std::int64_t waves =
                            std::max<std::int64_t>(64, 16384 / (side * side));
                        const double cf = c.run(ImbalanceMethod::closed_form).cycles;
                        const double mc = c.run(ImbalanceMethod::monte_carlo, waves).cycles;
                        results.push_back({fmt::format("{} {} d={} {}x{} tile={}",
                                                       load_balancing_scheme_name(scheme), name,
                                                       density, side, side, t * t),
                                           cf, mc});
                        EXPECT_LE(results.back().error(), 0.08)
                            << results.back().label << ": closed form " << cf << ", Monte-Carlo "
                            << mc;
                    }
                }
            }
        }
    }
    std::sort(results.begin(), results.end(),
              [](const GridResult& a, const GridResult& b) { return a.error() > b.error(); });
    std::printf("%zu cases; worst closed form vs Monte-Carlo:\n", results.size());
    for (std::size_t i = 0; i < 8 && i < results.size(); ++i) {
        std::printf("  %-55s closed %.4g  MC %.4g  error %.2f %%\n", results[i].label.c_str(),
                    results[i].closed_form / 1e5, results[i].monte_carlo / 1e5,
                    100 * results[i].error());
    }
}

// The Monte-Carlo reference averaged over 4 seeds of up to 4,096 waves each:
// its own error is about 1 % even where a wave's slowest PE is 0 or 1 MAC
// (the FC layer's nearly empty tiles), well inside the 5 % checked.
double monte_carlo_cycles(const ArchModel& arch, const MappingCase& c, const NestAnalysis& nest,
                          const PhaseDensities& d) {
    double sum = 0;
    constexpr int kSeeds = 4;
    for (int seed = 1; seed <= kSeeds; ++seed) {
        ImbalanceOptions o;
        o.method = ImbalanceMethod::monte_carlo;
        o.seed = std::uint64_t(seed);
        o.sampled_waves = 4096;
        sum += estimate_load_imbalance(arch, *c.problem, c.mapping, nest, d, o).cycles;
    }
    return sum / kSeeds;
}

// Tiles of 1, 4 and 9 weights (a few MACs per PE and wave) on
// 16×16 and 32×32 arrays, each scheme on the mapping it is meant for: the
// closed form's small-count paths (the exact heaviest pair, the expected
// rounding of an even share) keep it within 5 % of Monte-Carlo. Two-level
// work stealing is not in this grid: at a few MACs per wave its closed form
// is still off by up to 40 % (docs/load_imbalance.md).
TEST(SlowImbalanceGrid, SmallTilesClosedFormWithinFivePercentOfMonteCarlo) {
    std::vector<GridResult> results;
    for (auto scheme :
         {LoadBalancingScheme::none, LoadBalancingScheme::half_tile_pairing,
          LoadBalancingScheme::flexible_allocation, LoadBalancingScheme::line_indexing}) {
        const Dataflow dataflow =
            scheme == LoadBalancingScheme::half_tile_pairing ? Dataflow::KN : Dataflow::CK;
        for (double density : {0.05, 0.1, 0.3, 0.5, 0.9}) {
            for (std::int64_t side : {16, 32}) {
                for (std::int64_t t : {1, 2, 3}) {
                    const auto c = weight_sparse_case(dataflow, side, side, t, t, 100000,
                                                      UniformModel{}, density, scheme);
                    const double cf = c.run(ImbalanceMethod::closed_form).cycles;
                    const double mc = c.run(ImbalanceMethod::monte_carlo, 2048).cycles;
                    results.push_back(
                        {fmt::format("{} d={} {}x{} tile={}", load_balancing_scheme_name(scheme),
                                     density, side, side, t * t),
                         cf, mc});
                    EXPECT_LE(results.back().error(), 0.05)
                        << results.back().label << ": closed form " << cf << ", Monte-Carlo " << mc;
                }
            }
        }
    }
    std::sort(results.begin(), results.end(),
              [](const GridResult& a, const GridResult& b) { return a.error() > b.error(); });
    std::printf("%zu cases; worst closed form vs Monte-Carlo:\n", results.size());
    for (std::size_t i = 0; i < 8 && i < results.size(); ++i) {
        std::printf("  %-50s closed %.5g  MC %.5g  error %.2f %%\n", results[i].label.c_str(),
                    results[i].closed_form / 1e5, results[i].monte_carlo / 1e5,
                    100 * results[i].error());
    }
}

// On the shipped example mappings (ResNet-18's 3×3, 1×1 and FC
// layers, C,K and K,N, every phase) with the Procrustes profile, on the
// Procrustes architecture with and without half-tile pairing, the closed
// form is within 5 % of the Monte-Carlo reference. Their wave shapes include
// tiles of 4–36 weights and an FC layer whose tiles are almost all empty.
TEST(SlowImbalanceGrid, ExampleMappingsClosedFormWithinFivePercentOfMonteCarlo) {
    const std::filesystem::path root(TRAINLOOP_SOURCE_DIR);
    const SparsityProfile profile = load_sparsity_profile_named("procrustes");
    std::vector<GridResult> results;
    for (const auto& entry : std::filesystem::directory_iterator(root / "examples/mappings")) {
        MappingTarget sparse_arch;
        sparse_arch.arch = root / "arch_specs" / "procrustes_sparse_16x16.yaml";
        const MappingCase c = load_mapping_case(entry.path(), sparse_arch);
        const PhaseDensities d =
            phase_densities(profile, c.network->name(), c.problem->layer, c.problem->phase);
        const NestAnalysis nest = analyze_nest(*c.problem, c.mapping);
        for (LoadBalancingScheme scheme :
             {LoadBalancingScheme::half_tile_pairing, LoadBalancingScheme::none}) {
            ArchModel arch = c.arch_model;
            if (scheme == LoadBalancingScheme::none) arch.load_balancing = {};
            const LoadImbalance cf = estimate_load_imbalance(arch, *c.problem, c.mapping, nest, d);
            if (!cf.applies) continue;
            const double mc = monte_carlo_cycles(arch, c, nest, d);
            results.push_back({fmt::format("{} {}", entry.path().filename().string(),
                                           load_balancing_scheme_name(scheme)),
                               cf.cycles, mc});
            EXPECT_LE(results.back().error(), 0.05)
                << results.back().label << ": closed form " << cf.cycles << ", Monte-Carlo " << mc;
        }
    }
    EXPECT_GE(results.size(), 24u);
    std::sort(results.begin(), results.end(),
              [](const GridResult& a, const GridResult& b) { return a.error() > b.error(); });
    std::printf("%zu cases; worst closed form vs Monte-Carlo:\n", results.size());
    for (std::size_t i = 0; i < 6 && i < results.size(); ++i) {
        std::printf("  %-45s closed %.6g  MC %.6g  error %.2f %%\n", results[i].label.c_str(),
                    results[i].closed_form, results[i].monte_carlo, 100 * results[i].error());
    }
}

}  // namespace
}  // namespace trainloop
