// A partitioned SRAM (`metadata_share`, Chen et al. 2024 §V-A: SCNN and
// SIGMA reserve 20 % of each on-chip SRAM for the indices): its capacity
// splits into a data part and an index part; compressed tiles fit when their
// data fit the one and their metadata the other. A unified SRAM (the key
// absent) fits their sum in the whole capacity.
#include <gtest/gtest.h>

#include "arch/arch_model.hpp"
#include "arch_test_support.hpp"
#include "eval/evaluation.hpp"
#include "support/eval_fixtures.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;
using arch_test::kInlineFile;
using arch_test::parse_inline;
using arch_test::tiny_with;

// kTinyArch's GLB (64 KB of 32-bit words: 16,384) with weights in CSR there.
const std::string kGlbCsr = R"(sparse:
  formats:
    - {level: GLB, data_space: weights, format: csr}
)";

// A unicast network too, for the GLB's words to single PEs.
const std::string kUnicast =
    R"(  - {name: unicast, axis: both, kind: unicast, parent: GLB, child: RF}
)";

std::string glb_with(const std::string& extra) {
    return tiny_with("    capacity: 64 KB\n", "    capacity: 64 KB\n" + extra) + kUnicast + kGlbCsr;
}

TEST(PartitionedSram, TheShareSplitsTheCapacityIntoDataAndIndexParts) {
    const ArchModel unified = build_arch_model(parse_inline(glb_with("")));
    EXPECT_EQ(unified.levels[1].capacity_words, 16384);
    EXPECT_EQ(unified.levels[1].metadata_capacity_words, -1);
    const Architecture arch = parse_inline(glb_with("    metadata_share: 0.2\n"));
    EXPECT_EQ(arch.levels[1].metadata_share, 0.2);
    const ArchModel partitioned = build_arch_model(arch);
    EXPECT_EQ(partitioned.levels[1].metadata_capacity_words, 3276);  // ⌊16,384 × 0.2⌋
    EXPECT_EQ(partitioned.levels[1].capacity_words, 16384 - 3276);
    // Pricing sees one SRAM of the whole capacity.
    EXPECT_EQ(partitioned.levels[1].read_pj, unified.levels[1].read_pj);
}

TEST(PartitionedSram, AShareOutsideZeroToOneOrOnAnUnboundedLevelIsRejected) {
    for (const char* bad : {"0", "1", "1.5", "-0.1"}) {
        const SpecError e = expect_spec_error(
            [&] { parse_inline(glb_with(std::string("    metadata_share: ") + bad + "\n")); });
        expect_located(e, kInlineFile, 15, "storage[1].metadata_share", "");
        EXPECT_NE(e.expected().find("between 0 and 1"), std::string::npos) << e.what();
    }
    const SpecError e = expect_spec_error([] {
        parse_inline(tiny_with("    capacity: unbounded\n",
                               "    capacity: unbounded\n    metadata_share: 0.2\n"));
    });
    EXPECT_NE(e.message().find("unbounded"), std::string::npos) << e.message();
}

// fc weights K=64 × C=64 kept whole in the GLB (4,096 words dense), CSR at
// density 0.25: about 1,024 data words and the row pointers and column
// indices beside them.
struct FcCase {
    IterationSpace space = testing::space_of({{Dim::N, 4}, {Dim::K, 64}, {Dim::C, 64}});
    PhaseProblem problem = make_phase_problem("fc", Phase::fw, space);
    PhaseDensities densities;
    Mapping mapping;
    FcCase() {
        densities.spaces[DataSpace::weights].density = 0.25;
        using testing::loops;
        mapping.num_levels = 3;
        mapping.level(0).keep = DataSpaceSet::all();
        mapping.level(0).temporal = loops({{Dim::N, 4}});
        mapping.level(1).keep.insert(DataSpace::weights);
        mapping.level(1).temporal = loops({{Dim::K, 64}, {Dim::C, 64}});
        mapping.level(2).keep = DataSpaceSet{};
    }
};

TEST(PartitionedSram, CompressedTilesFitWhenDataAndMetadataEachFitTheirPart) {
    const FcCase c;
    ArchModel model = build_arch_model(parse_inline(glb_with("")));
    const Evaluation unified = evaluate(model, c.problem, c.mapping, c.densities);
    ASSERT_TRUE(unified.valid()) << describe(*unified.violation, parse_inline(glb_with("")),
                                             c.problem);
    const SpaceCounts& w = unified.counts.levels[1].space(DataSpace::weights);
    ASSERT_GT(w.footprint_metadata_words, 0);
    const double data = w.footprint_words - w.footprint_metadata_words;
    EXPECT_NEAR(data, 1024, 1e-9);

    // Each part exactly as large as it must be: valid.
    model.levels[1].capacity_words = std::int64_t(std::ceil(data));
    model.levels[1].metadata_capacity_words = std::int64_t(std::ceil(w.footprint_metadata_words));
    EXPECT_TRUE(evaluate(model, c.problem, c.mapping, c.densities).valid());
    // A unified level of that total capacity would not hold both once the
    // index part is taken from it: one word less in the data part fails...
    model.levels[1].capacity_words -= 1;
    const Evaluation short_data = evaluate(model, c.problem, c.mapping, c.densities);
    ASSERT_FALSE(short_data.valid());
    EXPECT_EQ(short_data.violation->kind, ViolationKind::capacity);
    // ...and so does one word less in the index part, as its own kind.
    model.levels[1].capacity_words += 1;
    model.levels[1].metadata_capacity_words -= 1;
    const Evaluation short_index = evaluate(model, c.problem, c.mapping, c.densities);
    ASSERT_FALSE(short_index.valid());
    EXPECT_EQ(short_index.violation->kind, ViolationKind::metadata_capacity);
    const std::string message = describe(
        *short_index.violation, parse_inline(glb_with("    metadata_share: 0.2\n")), c.problem);
    EXPECT_NE(message.find("level GLB's index part"), std::string::npos) << message;
    EXPECT_EQ(violation_kind_name(ViolationKind::metadata_capacity), "metadata_capacity");
}

TEST(PartitionedSram, IndexBitsSetTheMetadataTheEvaluatorStores) {
    // The 64 x 64 weight tile at density 0.25 in CSR: 1,024 nonzeros, 65 row
    // pointers. Derived from the tile: 6-bit column indices, 13-bit pointers
    // (offsets 0..4096); with `index_bits: 8` both are 8 bits.
    const FcCase c;
    const auto metadata_words = [&](const std::string& format) {
        std::string spec = glb_with("");
        spec.replace(spec.find("format: csr}"), 12, format);
        const Evaluation e =
            evaluate(build_arch_model(parse_inline(spec)), c.problem, c.mapping, c.densities);
        EXPECT_TRUE(e.valid());
        return e.counts.levels[1].space(DataSpace::weights).footprint_metadata_words;
    };
    EXPECT_NEAR(metadata_words("format: csr}"), (65.0 * 13 + 1024.0 * 6) / 32, 1e-9);
    EXPECT_NEAR(metadata_words("format: csr, index_bits: 8}"), (65.0 * 8 + 1024.0 * 8) / 32, 1e-9);
}

TEST(PartitionedSram, ADenseTileCannotUseTheIndexPart) {
    const FcCase c;
    // 4,096 dense words in a GLB of 4,100 words: fits when unified, not when
    // a fifth of it is kept for indices.
    std::string text = glb_with("");
    text.replace(text.find("64 KB"), 5, "16400 B");
    {
        const Architecture unified = parse_inline(text);
        const Evaluation e = evaluate(build_arch_model(unified), c.problem, c.mapping);
        EXPECT_TRUE(e.valid()) << describe(*e.violation, unified, c.problem);
    }
    std::string partitioned = glb_with("    metadata_share: 0.2\n");
    partitioned.replace(partitioned.find("64 KB"), 5, "16400 B");
    const Architecture arch = parse_inline(partitioned);
    const Evaluation e = evaluate(build_arch_model(arch), c.problem, c.mapping);
    ASSERT_FALSE(e.valid());
    EXPECT_EQ(e.violation->kind, ViolationKind::capacity);
    EXPECT_NE(describe(*e.violation, arch, c.problem).find("metadata_share of 0.2"),
              std::string::npos)
        << describe(*e.violation, arch, c.problem);
}

}  // namespace
}  // namespace trainloop
