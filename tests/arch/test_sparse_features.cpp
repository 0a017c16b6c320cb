#include <gtest/gtest.h>

#include "arch/arch_model.hpp"
#include "arch/architecture_yaml.hpp"
#include "arch_test_support.hpp"

namespace trainloop {
namespace {

using arch_test::expect_located;
using arch_test::expect_spec_error;
using arch_test::kInlineFile;
using arch_test::kTinyArch;
using arch_test::parse_inline;

// Appended to kTinyArch (27 lines), so `sparse:` is line 27.
const std::string kSparse = R"(sparse:
  formats:
    - {level: DRAM, data_space: weights, format: csb}
    - {level: GLB, data_space: weights, format: csb}
    - {level: RF, data_space: inputs, format: bitmap}
  skipping:
    - {level: RF, target: inputs, condition_on: weights}
  gating:
    - {level: compute, target: weights, condition_on: [inputs, outputs]}
  load_balancing:
    scheme: half_tile_pairing
    axis: y
)";

std::string sparse_with(const std::string& from, const std::string& to) {
    std::string text = kTinyArch + kSparse;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "test bug: `" << from << "` not in the spec";
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

TEST(SparseFeatures, AreParsedIntoValues) {
    const Architecture arch = parse_inline(kTinyArch + kSparse);
    const SparseFeatures& s = arch.sparse;
    EXPECT_FALSE(s.dense());
    ASSERT_EQ(s.formats.size(), 3u);
    EXPECT_EQ(s.format_of("GLB", DataSpace::weights, Phase::fw), CompressedFormat::csb);
    EXPECT_EQ(s.format_of("RF", DataSpace::inputs, Phase::wu), CompressedFormat::bitmap);
    EXPECT_EQ(s.format_of("RF", DataSpace::weights, Phase::fw), CompressedFormat::uncompressed)
        << "not listed: uncompressed";
    ASSERT_EQ(s.skipping.size(), 1u);
    EXPECT_EQ(s.skipping[0].level, "RF");
    EXPECT_EQ(s.skipping[0].target, DataSpace::inputs);
    EXPECT_TRUE(s.skipping[0].condition_on.contains(DataSpace::weights));
    EXPECT_FALSE(s.skipping[0].condition_on.contains(DataSpace::inputs));
    ASSERT_EQ(s.gating.size(), 1u);
    EXPECT_EQ(s.gating[0].level, kComputeLevel);
    EXPECT_TRUE(s.gating[0].condition_on.contains(DataSpace::outputs));
    EXPECT_EQ(s.load_balancing.scheme, LoadBalancingScheme::half_tile_pairing);
    EXPECT_EQ(s.load_balancing.axis, ArrayAxis::y);
}

TEST(SparseFeatures, FormatAtAnUnknownLevelIsRejected) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(sparse_with("{level: GLB, data_space", "{level: GLBB, data_space")); });
    expect_located(e, kInlineFile, 30, "sparse.formats[1].level", "unknown storage level `GLBB`");
    EXPECT_EQ(e.hint(), "did you mean `GLB`?");
}

TEST(SparseFeatures, UnknownFormatSuggestsTheNearest) {
    const SpecError e =
        expect_spec_error([] { parse_inline(sparse_with("format: bitmap", "format: bitmapp")); });
    expect_located(e, kInlineFile, 31, "sparse.formats[2].format", "unknown value `bitmapp`");
    EXPECT_EQ(e.hint(), "did you mean `bitmap`?");
}

TEST(SparseFeatures, SecondFormatForTheSameLevelAndSpaceIsRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(
            sparse_with("{level: RF, data_space: inputs", "{level: GLB, data_space: weights"));
    });
    expect_located(e, kInlineFile, 31, "sparse.formats[2]", "second format for `weights`");
}

TEST(SparseFeatures, FormatsActInTheirPhasesOnly) {
    const Architecture arch = parse_inline(
        sparse_with("{level: GLB, data_space: weights, format: csb}",
                    "{level: GLB, data_space: weights, format: csb, phases: [fw, bw]}\n"
                    "    - {level: GLB, data_space: weights, format: bitmap, phases: wu}"));
    EXPECT_EQ(arch.sparse.format_of("GLB", DataSpace::weights, Phase::bw), CompressedFormat::csb);
    EXPECT_EQ(arch.sparse.format_of("GLB", DataSpace::weights, Phase::wu),
              CompressedFormat::bitmap);
    const ArchModel model = build_arch_model(arch);
    EXPECT_EQ(model.levels[1].format_in(DataSpace::weights, Phase::fw), CompressedFormat::csb);
    EXPECT_EQ(model.levels[1].format_in(DataSpace::weights, Phase::wu), CompressedFormat::bitmap);
    EXPECT_EQ(model.levels[0].format_in(DataSpace::weights, Phase::wu), CompressedFormat::csb)
        << "no `phases:` means every phase";
}

TEST(SparseFeatures, IndexBitsFixTheIndexFieldsOfCsrAndRpDual) {
    const Architecture arch =
        parse_inline(sparse_with("{level: GLB, data_space: weights, format: csb}",
                                 "{level: GLB, data_space: weights, format: csr, index_bits: 8}"));
    EXPECT_EQ(arch.sparse.formats[1].index_bits, 8);
    EXPECT_EQ(arch.sparse.formats[0].index_bits, 0) << "absent: derived from the tile";
    const ArchModel model = build_arch_model(arch);
    EXPECT_EQ(model.levels[1].index_bits_in(DataSpace::weights, Phase::wu), 8);
    EXPECT_EQ(model.levels[0].index_bits_in(DataSpace::weights, Phase::wu), 0);
}

TEST(SparseFeatures, RanksMakeAFibertreeFormat) {
    const std::string entry = "{level: GLB, data_space: weights, format: csb}";
    const Architecture arch = parse_inline(
        sparse_with(entry, "{level: GLB, data_space: weights, ranks: [UOP, CP], index_bits: 8}"));
    const FormatEntry& f = arch.sparse.formats[1];
    EXPECT_EQ(f.format, CompressedFormat::fibertree);
    ASSERT_EQ(f.ranks.size(), 2u);
    EXPECT_EQ(f.ranks[0], RankFormat::uop);
    EXPECT_EQ(f.ranks[1], RankFormat::cp);
    EXPECT_EQ(f.index_bits, 8);
    const ArchModel model = build_arch_model(arch);
    EXPECT_EQ(model.levels[1].ranks_in(DataSpace::weights, Phase::bw), f.ranks);
    EXPECT_TRUE(model.levels[0].ranks_in(DataSpace::weights, Phase::bw).empty());
    // `format: fibertree` may be stated too; written back and read again.
    const Architecture stated = parse_inline(sparse_with(
        entry, "{level: GLB, data_space: weights, format: fibertree, ranks: [B, b, rle]}"));
    EXPECT_EQ(stated.sparse.formats[1].ranks.size(), 3u);
    EXPECT_EQ(stated.sparse.formats[1].ranks[2], RankFormat::rle) << "either case, as Sparseloop";
    const std::string yaml = architecture_to_yaml(arch, "components/default_45nm.yaml");
    EXPECT_NE(yaml.find("format: fibertree, ranks: [UOP, CP], index_bits: 8"), std::string::npos)
        << yaml;
}

TEST(PeArrayPhaseUnits, SharedByDefaultSeparateWhenStated) {
    EXPECT_EQ(parse_inline(kTinyArch).pe_array.phase_units, PhaseUnits::shared);
    std::string text = kTinyArch;
    const std::string rows = "rows: ";
    const auto at = text.find(rows);
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "phase_units: separate\n  ");
    const Architecture arch = parse_inline(text);
    EXPECT_EQ(arch.pe_array.phase_units, PhaseUnits::separate);
    EXPECT_EQ(build_arch_model(arch).phase_units, PhaseUnits::separate);
    const std::string yaml = architecture_to_yaml(arch, "components/default_45nm.yaml");
    EXPECT_NE(yaml.find("phase_units: separate"), std::string::npos) << yaml;
    std::string typo = kTinyArch;
    typo.insert(typo.find(rows), "phase_units: seperate\n  ");
    const SpecError e = expect_spec_error([&] { parse_inline(typo); });
    EXPECT_NE(std::string(e.what()).find("seperate"), std::string::npos) << e.what();
    EXPECT_EQ(e.hint(), "did you mean `separate`?");
}

TEST(SparseFeatures, RanksErrorsNameTheKey) {
    const std::string entry = "{level: GLB, data_space: weights, format: csb}";
    const auto fails = [&](const std::string& to) {
        return expect_spec_error([&] { parse_inline(sparse_with(entry, to)); });
    };
    SpecError e = fails("{level: GLB, data_space: weights, ranks: [UOP, CPP]}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1].ranks[1]", "unknown value `CPP`");
    EXPECT_EQ(e.hint(), "did you mean `CP`?");
    e = fails("{level: GLB, data_space: weights, format: csr, ranks: [UOP, CP]}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1].ranks", "`ranks` on format `csr`");
    e = fails("{level: GLB, data_space: weights, format: fibertree}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1].format",
                   "format `fibertree` without `ranks`");
    e = fails("{level: GLB, data_space: weights}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1]",
                   "a format entry without `format` or `ranks`");
    e = fails("{level: GLB, data_space: weights, ranks: []}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1].ranks", "not a list of rank formats");
    e = fails(
        "{level: GLB, data_space: weights, ranks: [B, B, B, B, B, B, B, B, B, B, B, B, B, "
        "B, B, B, B]}");
    expect_located(e, kInlineFile, 30, "sparse.formats[1].ranks[16]", "17 ranks");
}

TEST(SparseFeatures, IndexBitsFixTheRunFieldsOfRle) {
    // GSCN (ReSprop thesis §7.5.4): "a 4-bit overhead for each 16-bit value".
    const Architecture arch =
        parse_inline(sparse_with("{level: GLB, data_space: weights, format: csb}",
                                 "{level: GLB, data_space: weights, format: rle, index_bits: 4}"));
    EXPECT_EQ(arch.sparse.formats[1].format, CompressedFormat::rle);
    EXPECT_EQ(build_arch_model(arch).levels[1].index_bits_in(DataSpace::weights, Phase::fw), 4);
}

TEST(SparseFeatures, IndexBitsOnAFormatWithoutIndexFieldsIsRejected) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(sparse_with("format: bitmap}", "format: bitmap, index_bits: 8}")); });
    expect_located(e, kInlineFile, 31, "sparse.formats[2].index_bits",
                   "`index_bits` on format `bitmap`, which has no index fields");
}

TEST(SparseFeatures, IndexBitsMustBeAPositiveWidthOfAtMost64) {
    for (const char* bad : {"0", "-3", "65", "eight"}) {
        const SpecError e = expect_spec_error([&] {
            parse_inline(sparse_with("{level: GLB, data_space: weights, format: csb}",
                                     std::string("{level: GLB, data_space: weights, format: "
                                                 "rp_dual, index_bits: ") +
                                         bad + "}"));
        });
        EXPECT_EQ(e.where().line, 30) << bad;
        EXPECT_EQ(e.key_path(), "sparse.formats[1].index_bits") << bad;
    }
}

TEST(SparseFeatures, TwoFormatsForTheSamePhaseAreRejected) {
    const SpecError e = expect_spec_error([] {
        parse_inline(
            sparse_with("{level: GLB, data_space: weights, format: csb}",
                        "{level: GLB, data_space: weights, format: csb, phases: [fw, bw]}\n"
                        "    - {level: GLB, data_space: weights, format: bitmap, "
                        "phases: [bw, wu]}"));
    });
    expect_located(e, kInlineFile, 31, "sparse.formats[2]",
                   "second format for `weights` at level `GLB` in phase bw");
}

TEST(SparseFeatures, SkippingAtAnUnknownLevelIsRejected) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(sparse_with("{level: RF, target", "{level: RFF, target")); });
    expect_located(e, kInlineFile, 33, "sparse.skipping[0].level", "unknown storage level `RFF`");
}

TEST(SparseFeatures, SkippingConditionMustBeADataSpace) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(sparse_with("condition_on: weights", "condition_on: weight")); });
    expect_located(e, kInlineFile, 33, "sparse.skipping[0].condition_on", "unknown value `weight`");
}

TEST(SparseFeatures, SkippingEntriesActInTheirPhasesOnly) {
    const Architecture arch = parse_inline(
        sparse_with("condition_on: weights}", "condition_on: weights, phases: [fw, bw]}"));
    EXPECT_EQ(arch.sparse.skipping[0].in_phase, (PerPhase<bool>{true, true, false}));
    EXPECT_EQ(arch.sparse.gating[0].in_phase, (PerPhase<bool>{true, true, true}))
        << "no `phases:` means every phase";
    const ArchModel model = build_arch_model(arch);
    const DataSpace x = DataSpace::inputs;
    const std::size_t rf = 2;
    EXPECT_TRUE(model.levels[rf].skip_when_zero[x].in(Phase::bw).contains(DataSpace::weights));
    EXPECT_TRUE(model.levels[rf].skip_when_zero[x].in(Phase::wu).empty());
    EXPECT_TRUE(model.compute_gate.in(Phase::wu).contains(DataSpace::inputs));
}

// `saves: mac` on a gating entry at `compute`: the gated MACs save only their
// own energy (Sparseloop's compute gating), so they do not gate the accesses
// at the level serving the MACs; the default saves those too.
TEST(SparseFeatures, AGatedMacMaySaveOnlyItself) {
    const std::string entry = "condition_on: [inputs, outputs]}";
    const Architecture mac_only =
        parse_inline(sparse_with(entry, "condition_on: [inputs, outputs], saves: mac}"));
    ASSERT_EQ(mac_only.sparse.gating.size(), 1u);
    EXPECT_TRUE(mac_only.sparse.gating[0].saves_mac_only);
    const ArchModel m = build_arch_model(mac_only);
    EXPECT_TRUE(m.compute_gate.in(Phase::fw).contains(DataSpace::inputs));
    EXPECT_TRUE(m.compute_gate_mac_only.in(Phase::fw).contains(DataSpace::inputs));
    const ArchModel both = build_arch_model(parse_inline(
        sparse_with(entry, "condition_on: [inputs, outputs], saves: mac_and_accesses}")));
    EXPECT_TRUE(both.compute_gate_mac_only.in(Phase::fw).empty());
    EXPECT_TRUE(build_arch_model(parse_inline(kTinyArch + kSparse))
                    .compute_gate_mac_only.in(Phase::fw)
                    .empty())
        << "saving the accesses is the default";
    // Two entries on one condition, one saving the accesses: they are saved.
    const ArchModel mixed = build_arch_model(parse_inline(
        sparse_with(entry,
                    "condition_on: [inputs, outputs], saves: mac}\n"
                    "    - {level: compute, target: weights, condition_on: inputs, phases: fw}")));
    EXPECT_FALSE(mixed.compute_gate_mac_only.in(Phase::fw).contains(DataSpace::inputs));
    EXPECT_TRUE(mixed.compute_gate_mac_only.in(Phase::bw).contains(DataSpace::inputs));
    // Written back and read again.
    const std::string yaml = architecture_to_yaml(mac_only, "components/default_45nm.yaml");
    EXPECT_NE(yaml.find("saves: mac"), std::string::npos) << yaml;

    const SpecError skipping = expect_spec_error([] {
        parse_inline(sparse_with("condition_on: weights}", "condition_on: weights, saves: mac}"));
    });
    expect_located(skipping, kInlineFile, 33, "sparse.skipping[0].saves",
                   "`saves` on a skipping entry at `RF`");
    const SpecError storage = expect_spec_error([] {
        parse_inline(
            sparse_with("{level: compute, target: weights, condition_on: [inputs, outputs]}",
                        "{level: RF, target: inputs, condition_on: weights, saves: mac}"));
    });
    expect_located(storage, kInlineFile, 35, "sparse.gating[0].saves",
                   "`saves` on a gating entry at `RF`");
    const SpecError value = expect_spec_error(
        [&] { parse_inline(sparse_with(entry, "condition_on: [inputs, outputs], saves: all}")); });
    EXPECT_NE(value.expected().find("mac_and_accesses"), std::string::npos) << value.expected();
}

TEST(SparseFeatures, ComputeSkippingOnAllThreeDataSpacesInOnePhaseIsRejected) {
    // The output's known-zero mask may be a condition, but the imbalance model
    // follows at most two skipping operands per phase.
    const SpecError e = expect_spec_error([] {
        parse_inline(sparse_with("    - {level: RF, target: inputs, condition_on: weights}\n",
                                 "    - {level: compute, target: outputs, condition_on: [weights, "
                                 "inputs]}\n"
                                 "    - {level: compute, target: outputs, condition_on: outputs, "
                                 "phases: fw}\n"));
    });
    expect_located(e, kInlineFile, 33, "sparse.skipping", "in fw is conditioned on all three");
    const Architecture ok = parse_inline(sparse_with(
        "    - {level: RF, target: inputs, condition_on: weights}\n",
        "    - {level: compute, target: outputs, condition_on: inputs, phases: wu}\n"
        "    - {level: compute, target: outputs, condition_on: weights, phases: wu}\n"));
    EXPECT_TRUE(build_arch_model(ok).compute_skip.in(Phase::wu).contains(DataSpace::weights))
        << "in wu the weights space holds dw: its mask may be a condition";
}

TEST(SparseFeatures, AnUnknownOrRepeatedPhaseIsRejected) {
    const SpecError unknown = expect_spec_error([] {
        parse_inline(sparse_with("condition_on: weights}", "condition_on: weights, phases: fwd}"));
    });
    expect_located(unknown, kInlineFile, 33, "sparse.skipping[0].phases", "unknown value `fwd`");
    const SpecError twice = expect_spec_error([] {
        parse_inline(
            sparse_with("condition_on: weights}", "condition_on: weights, phases: [wu, wu]}"));
    });
    expect_located(twice, kInlineFile, 33, "sparse.skipping[0].phases[1]",
                   "phase `wu` listed twice");
}

TEST(SparseFeatures, UnknownLoadBalancingSchemeSuggestsTheNearest) {
    const SpecError e = expect_spec_error(
        [] { parse_inline(sparse_with("half_tile_pairing", "half_tile_paring")); });
    expect_located(e, kInlineFile, 37, "sparse.load_balancing.scheme", "unknown value");
    EXPECT_EQ(e.hint(), "did you mean `half_tile_pairing`?");
}

TEST(SparseFeatures, HalfTilePairingNeedsOneAxis) {
    const SpecError missing =
        expect_spec_error([] { parse_inline(sparse_with("    axis: y\n", "")); });
    expect_located(missing, kInlineFile, 37, "sparse.load_balancing", "needs an `axis`");
    const SpecError both =
        expect_spec_error([] { parse_inline(sparse_with("axis: y", "axis: both")); });
    expect_located(both, kInlineFile, 38, "sparse.load_balancing.axis", "one array axis");
}

TEST(SparseFeatures, LineIndexingNeedsOneAxis) {
    const Architecture arch = parse_inline(sparse_with("half_tile_pairing", "line_indexing"));
    EXPECT_EQ(arch.sparse.load_balancing.scheme, LoadBalancingScheme::line_indexing);
    EXPECT_EQ(arch.sparse.load_balancing.axis, ArrayAxis::y);
    const SpecError missing = expect_spec_error([] {
        parse_inline(
            sparse_with("scheme: half_tile_pairing\n    axis: y\n", "scheme: line_indexing\n"));
    });
    expect_located(missing, kInlineFile, 37, "sparse.load_balancing",
                   "`line_indexing` needs an `axis`");
    const SpecError both = expect_spec_error([] {
        parse_inline(sparse_with("scheme: half_tile_pairing\n    axis: y",
                                 "scheme: line_indexing\n    axis: both"));
    });
    expect_located(both, kInlineFile, 38, "sparse.load_balancing.axis", "one array axis");
}

TEST(SparseFeatures, UnknownSparseKeySuggestsTheNearest) {
    const SpecError e =
        expect_spec_error([] { parse_inline(sparse_with("  skipping:", "  skiping:")); });
    expect_located(e, kInlineFile, 32, "sparse.skiping", "unknown key `skiping`");
    EXPECT_EQ(e.hint(), "did you mean `skipping`?");
}

}  // namespace
}  // namespace trainloop
