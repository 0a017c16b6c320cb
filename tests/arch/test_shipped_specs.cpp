#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "arch/arch_model.hpp"
#include "arch/architecture_parser.hpp"
#include "components/component_library_parser.hpp"

namespace trainloop {
namespace {

const std::filesystem::path kSpecs = std::filesystem::path(TRAINLOOP_SOURCE_DIR) / "arch_specs";

TEST(ShippedArchitectures, Procrustes16x16HasTheTableINumbers) {
    const Architecture arch = load_architecture(kSpecs / "procrustes_baseline_16x16.yaml");
    EXPECT_EQ(arch.name, "procrustes_baseline_16x16");
    EXPECT_EQ(arch.pe_array.rows, 16);
    EXPECT_EQ(arch.pe_array.columns, 16);
    EXPECT_EQ(arch.pe_array.num_pes(), 256);
    EXPECT_EQ(arch.pe_array.datatype, Datatype::fp32);
    EXPECT_EQ(arch.pe_array.word_bits(), 32);
    EXPECT_EQ(arch.pe_array.mac_component, "fp32_mac");

    ASSERT_EQ(arch.levels.size(), 3u);
    EXPECT_EQ(arch.levels[0].name, "DRAM");
    EXPECT_TRUE(arch.levels[0].unbounded());
    const StorageLevel* glb = arch.find_level("GLB");
    ASSERT_NE(glb, nullptr);
    EXPECT_EQ(glb->capacity_bytes, 131072);
    EXPECT_EQ(glb->instances, 1);
    EXPECT_EQ(glb->component, "sram");
    const StorageLevel* rf = arch.find_level("RF");
    ASSERT_NE(rf, nullptr);
    EXPECT_EQ(rf->capacity_bytes, 1024);
    EXPECT_EQ(rf->capacity_words(), 256);
    EXPECT_TRUE(rf->per_pe);
    EXPECT_EQ(rf->instances, 256);
    EXPECT_EQ(rf->storage_class, StorageClass::regfile);
    for (const StorageLevel& level : arch.levels) {
        EXPECT_EQ(level.data_spaces, DataSpaceSet::all()) << level.name;
    }

    ASSERT_EQ(arch.networks.size(), 3u);
    EXPECT_EQ(arch.networks[0].axis, ArrayAxis::x);
    EXPECT_EQ(arch.networks[0].kind, NetworkKind::broadcast);
    EXPECT_EQ(arch.networks[1].axis, ArrayAxis::y);
    EXPECT_EQ(arch.networks[1].kind, NetworkKind::reduction);
    EXPECT_EQ(arch.networks[2].kind, NetworkKind::unicast);
    for (const OnChipNetwork& n : arch.networks) {
        EXPECT_EQ(n.parent, "GLB") << n.name;
        EXPECT_EQ(n.child, "RF") << n.name;
        EXPECT_EQ(n.component, "array_network") << n.name;
    }
    EXPECT_TRUE(arch.sparse.dense());
    EXPECT_EQ(arch.components.name, "accelergy_40nm") << "§VI-A: Accelergy's 40 nm library";
}

TEST(ShippedArchitectures, Procrustes32x32Has1024PesAndADoubledGlb) {
    const Architecture arch = load_architecture(kSpecs / "procrustes_baseline_32x32.yaml");
    EXPECT_EQ(arch.pe_array.num_pes(), 1024);
    EXPECT_EQ(arch.find_level("GLB")->capacity_bytes, 2 * 131072);
    EXPECT_EQ(arch.find_level("RF")->capacity_bytes, 1024);
    EXPECT_EQ(arch.find_level("RF")->instances, 1024);
}

TEST(ShippedArchitectures, ProcrustesSparseIsTheBaselinePlusItsSparseFeatures) {
    for (const char* size : {"16x16", "32x32"}) {
        SCOPED_TRACE(size);
        const Architecture base =
            load_architecture(kSpecs / fmt::format("procrustes_baseline_{}.yaml", size));
        const Architecture arch =
            load_architecture(kSpecs / fmt::format("procrustes_sparse_{}.yaml", size));
        EXPECT_EQ(arch.pe_array.num_pes(), base.pe_array.num_pes());
        EXPECT_EQ(arch.find_level("GLB")->capacity_bytes, base.find_level("GLB")->capacity_bytes);
        // §IV-B: w in CSB off chip, in the global buffer and (nonzeros only,
        // masks in the mask memory) in the RFs; dw, produced dense, is not.
        for (const char* level : {"DRAM", "GLB", "RF"}) {
            SCOPED_TRACE(level);
            EXPECT_EQ(arch.sparse.format_of(level, DataSpace::weights, Phase::fw),
                      CompressedFormat::csb);
            EXPECT_EQ(arch.sparse.format_of(level, DataSpace::weights, Phase::bw),
                      CompressedFormat::csb);
            EXPECT_EQ(arch.sparse.format_of(level, DataSpace::weights, Phase::wu),
                      CompressedFormat::uncompressed);
            // §IV-A: x compressed for its reuse in the weight update only.
            EXPECT_EQ(arch.sparse.format_of(level, DataSpace::inputs, Phase::wu),
                      CompressedFormat::csb);
            EXPECT_EQ(arch.sparse.format_of(level, DataSpace::inputs, Phase::fw),
                      CompressedFormat::uncompressed);
        }
        // Table III: the units Procrustes adds (per PE and per chip).
        ASSERT_EQ(arch.units.size(), 4u);
        EXPECT_TRUE(base.units.empty());
        EXPECT_EQ(arch.components.name, "accelergy_40nm");
        EXPECT_EQ(base.components.name, "accelergy_40nm");
        // §II-B: the MACs skip zero weights in fw and bw, zero inputs in wu.
        const ArchModel model = build_arch_model(arch);
        EXPECT_EQ(model.compute_skip.in(Phase::fw), DataSpaceSet({true, false, false}));
        EXPECT_EQ(model.compute_skip.in(Phase::bw), DataSpaceSet({true, false, false}));
        EXPECT_EQ(model.compute_skip.in(Phase::wu), DataSpaceSet({false, true, false}));
        // §IV-C: half-tile pairing along the axis K is spread over in K,N (x).
        EXPECT_EQ(arch.sparse.load_balancing.scheme, LoadBalancingScheme::half_tile_pairing);
        EXPECT_EQ(arch.sparse.load_balancing.axis, ArrayAxis::x);
    }
}

// ReSprop thesis (Goli, UBC 2020), Table 7.9 and §6.3-6.4: 4 tiles × 64 PEs × a
// 4 × 4 Cartesian multiplier array, 25 KB of buffers per PE; both operands a
// phase reads are compressed and their zeros skipped (SpHG's in bw and wu).
TEST(ShippedArchitectures, GscnHasTheTable79NumbersAndSkipsBothOperands) {
    const Architecture arch = load_architecture(kSpecs / "gscn_4x64.yaml");
    const Architecture dense = load_architecture(kSpecs / "gscn_dense_4x64.yaml");
    for (const Architecture* a : {&arch, &dense}) {
        EXPECT_EQ(a->pe_array.rows, 4);
        EXPECT_EQ(a->pe_array.columns, 64);
        EXPECT_EQ(a->pe_array.macs_per_pe, 16);
        EXPECT_EQ(a->pe_array.num_macs(), 4096);
        EXPECT_EQ(a->pe_array.datatype, Datatype::int16);
        const StorageLevel* pe = a->find_level("PEBuffers");
        ASSERT_NE(pe, nullptr);
        EXPECT_EQ(pe->capacity_bytes, 25 * 1024) << "2 + 10 + 10 KB and 32 × 32 × 24 bits";
        EXPECT_EQ(pe->instances, 256);
    }
    EXPECT_TRUE(dense.sparse.dense()) << "the dense counterpart has no sparse feature";
    const ArchModel model = build_arch_model(arch);
    EXPECT_EQ(model.compute_skip.in(Phase::fw), DataSpaceSet({true, true, false}));  // w, x
    EXPECT_EQ(model.compute_skip.in(Phase::bw), DataSpaceSet({true, false, true}));  // w, dy
    EXPECT_EQ(model.compute_skip.in(Phase::wu), DataSpaceSet({false, true, true}));  // x, dy
    EXPECT_EQ(arch.sparse.format_of("PEBuffers", DataSpace::outputs, Phase::bw),
              CompressedFormat::rle);
    EXPECT_EQ(arch.sparse.format_of("PEBuffers", DataSpace::outputs, Phase::fw),
              CompressedFormat::uncompressed)
        << "y is being produced in fw";
    EXPECT_EQ(arch.sparse.format_of("DRAM", DataSpace::weights, Phase::wu),
              CompressedFormat::uncompressed)
        << "dw is being produced in wu";
    EXPECT_EQ(arch.sparse.load_balancing.scheme, LoadBalancingScheme::none);
    // Its own dataflow (`train-cost --evaluator cartesian`): §6.4-6.5 and Table 7.9.
    ASSERT_TRUE(arch.cartesian.has_value());
    EXPECT_EQ(arch.cartesian->tiles_h * arch.cartesian->tiles_w, 64);
    EXPECT_EQ(arch.cartesian->filter_vector, 4);
    EXPECT_EQ(arch.cartesian->input_vector, 4);
    EXPECT_EQ(arch.cartesian->accumulator_banks, 32);
    EXPECT_EQ(arch.cartesian->tiling, CartesianTiling::split_filters);
    EXPECT_TRUE(arch.cartesian->predictor);
    EXPECT_EQ(arch.cartesian->sample_tiles, 4);
    EXPECT_FALSE(dense.cartesian.has_value()) << "the dense counterpart is a plain array";
}

// Eager Pruning §5.2's SCNN: "128 tiles, each unrolling 4 non-zero inputs and 4
// non-zero filter weights ... divided into 32 groups and those within each group
// share the weights", at least 2,048 DSPs, 200 MHz; §5.2 counts it in Cartesian
// products, without bank conflicts.
TEST(ShippedArchitectures, EagerPruningsScnnIsThirtyTwoGroupsOfFourTiles) {
    const Architecture arch = load_architecture(kSpecs / "eager_pruning_scnn_baseline.yaml");
    EXPECT_DOUBLE_EQ(arch.clock_ghz, 0.2);
    ASSERT_TRUE(arch.cartesian.has_value());
    const CartesianArray& c = *arch.cartesian;
    EXPECT_EQ(c.filter_groups, 32);
    EXPECT_EQ(c.filter_groups * c.sample_tiles * c.tiles_h * c.tiles_w, 128) << "tiles";
    EXPECT_EQ(c.filter_vector, 4);
    EXPECT_EQ(c.input_vector, 4);
    EXPECT_EQ(c.multipliers(), 2048);
    EXPECT_EQ(c.tiling, CartesianTiling::planar);
    EXPECT_FALSE(c.predictor);
    EXPECT_EQ(c.bank_stalls, CartesianBankStalls::none);
}

// Chen et al. 2024 §V-A: the proposed design and its three baselines have
// "the same number of CUs as well as the same size of SRAM, DRAM, and DRAM
// bandwidth"; they differ in format (rp_dual, CSR, bitmap, CSR), SRAM
// (unified; 20 % for indices in SCNN and SIGMA), load balancing (two-level
// only in the proposed design) and network (a torus for it).
TEST(ShippedArchitectures, Chen2024DesignsShareTableIIAndDifferWhereSectionVASays) {
    struct Expected {
        const char* file;
        CompressedFormat format;
        bool partitioned;
        LoadBalancingScheme balancing;
    };
    const Expected designs[] = {
        {"chen2024_dual_8x8.yaml", CompressedFormat::rp_dual, false,
         LoadBalancingScheme::two_level_work_stealing},
        {"chen2024_scnn_8x8.yaml", CompressedFormat::csr, true, LoadBalancingScheme::none},
        {"chen2024_sigma_8x8.yaml", CompressedFormat::bitmap, true, LoadBalancingScheme::none},
        {"chen2024_sparsetrain_8x8.yaml", CompressedFormat::csr, false, LoadBalancingScheme::none},
    };
    for (const Expected& d : designs) {
        SCOPED_TRACE(d.file);
        const Architecture arch = load_architecture(kSpecs / d.file);
        EXPECT_EQ(arch.pe_array.num_pes(), 64);             // Table II
        EXPECT_EQ(arch.pe_array.macs_per_pe, 16);           // Table II
        EXPECT_EQ(arch.pe_array.word_bits(), 32);           // Table II
        EXPECT_EQ(arch.levels[0].shared_bandwidth, 256.0);  // 1024 GB/s, 1 GHz, one bus
        ASSERT_NE(arch.find_level("GLB"), nullptr);
        ASSERT_NE(arch.find_level("PE_SRAM"), nullptr);
        EXPECT_EQ(arch.find_level("GLB")->capacity_bytes, 256LL << 20);    // Table II
        EXPECT_EQ(arch.find_level("PE_SRAM")->capacity_bytes, 3LL << 20);  // Table II
        EXPECT_TRUE(arch.find_level("PE_SRAM")->per_pe);
        for (const char* level : {"GLB", "PE_SRAM"}) {
            const std::optional<double> share = arch.find_level(level)->metadata_share;
            EXPECT_EQ(share.has_value(), d.partitioned) << level;
            if (share) {
                EXPECT_EQ(*share, 0.2) << level;
            }
        }
        for (const char* level : {"DRAM", "GLB", "PE_SRAM"}) {
            for (DataSpace s : kAllDataSpaces) {
                for (Phase p : kAllPhases) {
                    EXPECT_EQ(arch.sparse.format_of(level, s, p), d.format) << level;
                }
            }
        }
        EXPECT_EQ(arch.sparse.load_balancing.scheme, d.balancing);
        EXPECT_EQ(arch.sparse.skipping.size(), 3u) << "only nonzero products, in every phase";
    }
}

TEST(ShippedArchitectures, EveryArchitectureFileLoads) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kSpecs)) {
        if (entry.path().extension() != ".yaml") continue;
        EXPECT_NO_THROW(load_architecture(entry.path())) << entry.path();
        ++count;
    }
    EXPECT_GE(count, 2);
}

TEST(ShippedComponentLibrary, HasTheHorowitzAndEyerissFigures) {
    const ComponentLibrary lib = load_component_library(kSpecs / "components/default_45nm.yaml");
    EXPECT_EQ(lib.name, "default_45nm");
    const Component* fp32 = lib.find("fp32_mac");
    ASSERT_NE(fp32, nullptr);
    EXPECT_EQ(fp32->component_class, ComponentClass::mac);
    ASSERT_EQ(fp32->points.size(), 1u);
    EXPECT_DOUBLE_EQ(*fp32->points[0].energy.get(Action::mac), 3.7 + 0.9);
    EXPECT_FALSE(fp32->points[0].energy.get(Action::read).has_value());
    EXPECT_DOUBLE_EQ(*lib.find("int8_mac")->points[0].energy.get(Action::mac), 0.2 + 0.03);

    const Component* sram = lib.find("sram");
    ASSERT_NE(sram, nullptr);
    bool found_8kb_64 = false;
    for (const ComponentPoint& p : sram->points) {
        if (p.capacity_bytes == 8 * 1024 && p.word_bits == 64) {
            found_8kb_64 = true;
            EXPECT_DOUBLE_EQ(*p.energy.get(Action::read), 10.0);
            EXPECT_DOUBLE_EQ(*p.energy.get(Action::update), *p.energy.get(Action::write))
                << "update defaults to write";
        }
    }
    EXPECT_TRUE(found_8kb_64);
    const Component* rf = lib.find("regfile");
    ASSERT_NE(rf, nullptr);
    for (const ComponentPoint& p : rf->points) {
        if (p.capacity_bytes == 512 && p.word_bits == 16) {
            EXPECT_DOUBLE_EQ(*p.energy.get(Action::read),
                             *lib.find("fp16_mac")->points[0].energy.get(Action::mac))
                << "Eyeriss: RF access = 1× a 16-bit MAC";
        }
    }
    EXPECT_DOUBLE_EQ(*lib.find("dram")->points[0].energy.get(Action::read), 1950.0);
    EXPECT_DOUBLE_EQ(*lib.find("array_network")->points[0].energy.get(Action::hop), 6.0);
}

}  // namespace
}  // namespace trainloop
