// Energy by component class (eval/energy_classes.hpp): the classes add up to
// the evaluation's energy, storage levels go by their storage class, and the
// sparse overheads (format metadata, balancing traffic) appear only where a
// sparse feature causes them.
#include <gtest/gtest.h>

#include "density/sparsity_library.hpp"
#include "eval/energy_classes.hpp"
#include "eval/mapping_case.hpp"
#include "sparse/phase_densities.hpp"

namespace trainloop {
namespace {

const std::string kSource = TRAINLOOP_SOURCE_DIR;

double of(const std::array<double, kNumEnergyClasses>& pj, EnergyClass c) {
    return pj[static_cast<std::size_t>(c)];
}

double sum(const std::array<double, kNumEnergyClasses>& pj) {
    double total = 0;
    for (double v : pj) total += v;
    return total;
}

MappingCase example_case(const std::string& arch) {
    MappingTarget overrides;
    overrides.arch = kSource + "/arch_specs/" + arch + ".yaml";
    return load_mapping_case(kSource + "/examples/mappings/resnet18_3x3_KN_fw.yaml", overrides);
}

TEST(EnergyClasses, DenseEvaluationHasNoSparseOverheadAndAddsUp) {
    const MappingCase c = example_case("procrustes_baseline_16x16");
    const Evaluation e = evaluate_case(c);
    ASSERT_TRUE(e.valid());
    const auto pj = energy_by_class(c.arch, e.energy);
    EXPECT_NEAR(sum(pj), e.energy_pj, 1e-9 * e.energy_pj);
    EXPECT_EQ(of(pj, EnergyClass::sparse_overhead), 0.0);
    // DRAM, GLB (sram), RF (regfile): one level per class, priced as its component.
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::dram), e.energy.component_pj(0));
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::buffer), e.energy.component_pj(1));
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::rf), e.energy.component_pj(2));
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::mac), e.energy.component_pj(e.energy.mac_component()));
}

TEST(EnergyClasses, CompressedWeightsAndBalancingAreSparseOverheads) {
    const MappingCase c = example_case("procrustes_sparse_16x16");
    const SparsityProfile profile = load_sparsity_profile_named("procrustes");
    const PhaseDensities d =
        phase_densities(profile, c.network->name(), c.problem->layer, c.problem->phase);
    const Evaluation e = evaluate_case(c, d, {});
    ASSERT_TRUE(e.valid());
    const auto pj = energy_by_class(c.arch, e.energy);
    EXPECT_NEAR(sum(pj), e.energy_pj, 1e-9 * e.energy_pj);
    // CSB weights read their metadata wherever they are stored compressed
    // (DRAM and GLB at least): priced at those levels, counted as overhead,
    // and taken out of the levels' classes.
    EXPECT_GT(e.energy.level_metadata[0], 0.0);
    EXPECT_GT(e.energy.level_metadata[1], 0.0);
    double metadata = 0;
    for (double pj_at_level : e.energy.level_metadata) metadata += pj_at_level;
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::sparse_overhead), metadata + e.energy.balancing);
    EXPECT_DOUBLE_EQ(of(pj, EnergyClass::dram),
                     e.energy.component_pj(0) - e.energy.level_metadata[0]);
}

}  // namespace
}  // namespace trainloop
