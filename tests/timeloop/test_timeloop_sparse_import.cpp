// Sparseloop's inputs (`sparse_optimizations:` and problem `densities:`) are
// read into trainloop's sparse features and densities
// (timeloop/timeloop_sparse_import.hpp), what has no equivalent is a located
// error, and the imported native files evaluate exactly as the direct import.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "arch/arch_model.hpp"
#include "common/output_files.hpp"
#include "density/sparsity_library.hpp"
#include "eval/evaluation_json.hpp"
#include "spec/mapping_case.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "support/timeloop_corpus.hpp"
#include "timeloop/timeloop_files.hpp"
#include "timeloop/timeloop_import.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::expect_spec_error;

const fs::path kGolden = fs::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/conv3x_fixed";

std::string golden(const std::string& file) { return testing::read_text(kGolden / file); }

// The golden problem with `densities` added to its instance.
std::string problem_with(const std::string& densities) {
    std::string text = golden("problem.yaml");
    const std::string anchor = "  instance:\n";
    text.insert(text.find(anchor) + anchor.size(), densities);
    return text;
}

const std::string kDensities =
    "    densities:\n"
    "      Weights: {distribution: hypergeometric, density: 0.5}\n"
    "      Inputs: 0.6\n";

// Every rank pattern trainloop maps, a skipping and a gating option, and
// compute gating and skipping.
const std::string kSparse = R"(sparse_optimizations:
  targets:
  - name: DRAM
    representation-format:
      data-spaces:
      - name: Weights
        ranks: [{format: UOP}, {format: UOP}, {format: CP, metadata-word-bits: 8}]
      - name: Inputs
        ranks: [{format: cp}, {format: CP}]
  - name: GlobalBuffer
    representation-format:
      data-spaces:
      - name: Weights
        ranks: [{format: B}]
      - name: Inputs
        ranks: [{format: RLE, metadata-word-bits: 4}]
    action-optimization:
    - type: skipping
      options:
      - {target: Outputs, condition-on: [Inputs]}
    - type: gating
      target: Inputs
      condition-on: Weights
  - name: MACC
    compute-optimization:
    - type: gating
    - type: skipping
)";

std::vector<std::string> files(const std::string& problem, const std::string& sparse) {
    std::vector<std::string> out = {
        (kGolden / "arch.yaml").string(), testing::temp_file("problem.yaml", problem),
        (kGolden / "map.yaml").string(), (kGolden / "ERT.yaml").string(),
        (kGolden / "ART.yaml").string()};
    if (!sparse.empty()) out.push_back(testing::temp_file("sparse.yaml", sparse));
    return out;
}

TimeloopCase import_files(const std::vector<std::string>& f) {
    return import_timeloop(read_timeloop_spec(f));
}

// A sparse file with one representation format: DRAM's weights in `ranks`.
std::string one_format(const std::string& ranks) {
    return "sparse_optimizations:\n  targets:\n  - name: DRAM\n    representation-format:\n"
           "      data-spaces:\n      - {name: Weights, ranks: " +
           ranks + "}\n";
}

DataSpaceSet set_of(std::initializer_list<DataSpace> spaces) {
    DataSpaceSet s;
    for (DataSpace d : spaces) s.insert(d);
    return s;
}

std::string rank_names(const FormatEntry& f) {
    std::vector<std::string_view> out;
    for (RankFormat r : f.ranks) out.push_back(rank_format_name(r));
    return fmt::format("{}", fmt::join(out, " "));
}

TEST(TimeloopSparseImport, RankListsBecomeFibertreeFormats) {
    const TimeloopCase c = import_files(files(problem_with(kDensities), kSparse));
    const SparseFeatures& f = c.arch.sparse;
    ASSERT_EQ(f.formats.size(), 4u);
    for (const FormatEntry& e : f.formats) EXPECT_EQ(e.format, CompressedFormat::fibertree);
    EXPECT_EQ(rank_names(f.formats[0]), "UOP UOP CP");  // DRAM weights
    EXPECT_EQ(f.formats[0].index_bits, 8);              // the written files keep it (below)
    EXPECT_EQ(rank_names(f.formats[1]), "CP CP");       // `cp`: either case
    EXPECT_EQ(rank_names(f.formats[2]), "B");
    EXPECT_EQ(rank_names(f.formats[3]), "RLE");
    EXPECT_EQ(f.format_of("RegFile", DataSpace::inputs, Phase::fw), CompressedFormat::uncompressed);
    EXPECT_TRUE(c.sparse());
}

TEST(TimeloopSparseImport, UpperRanksMetadataIsCharged) {
    const auto metadata_reads = [](const std::string& ranks) {
        const TimeloopCase c = import_files(files(problem_with(kDensities), one_format(ranks)));
        EXPECT_TRUE(c.notes.empty());
        const Evaluation e = evaluate(build_arch_model(c.arch), c.problem, c.mapping, c.densities);
        EXPECT_TRUE(e.valid());
        return e.counts.levels[0].space(DataSpace::weights).metadata_reads;
    };
    // Bitmasks above the leaf's add a bit per coordinate of their fibers and a
    // pointer per nonempty child; offsets above it, their offsets.
    const double leaf_only = metadata_reads("[{format: B}]");
    EXPECT_GT(metadata_reads("[{format: B}, {format: B}, {format: B}]"), leaf_only);
    EXPECT_GT(metadata_reads("[{format: UOP}, {format: UOP}, {format: B}]"), leaf_only);
}

TEST(TimeloopSparseImport, ActionAndComputeOptimizationsBecomeSkippingAndGating) {
    const TimeloopCase c = import_files(files(problem_with(kDensities), kSparse));
    const SparseFeatures& f = c.arch.sparse;
    // Storage skipping, then compute skipping: no operand is compressed or
    // skipped at RegFile (the level serving the MACs), so compute skipping
    // adds nothing and says so.
    ASSERT_EQ(f.skipping.size(), 1u);
    EXPECT_EQ(f.skipping[0].level, "GlobalBuffer");
    EXPECT_EQ(f.skipping[0].target, DataSpace::outputs);
    EXPECT_EQ(f.skipping[0].condition_on, set_of({DataSpace::inputs}));
    ASSERT_EQ(f.gating.size(), 2u);
    EXPECT_EQ(f.gating[0].level, "GlobalBuffer");
    EXPECT_EQ(f.gating[0].target, DataSpace::inputs);
    EXPECT_EQ(f.gating[0].condition_on, set_of({DataSpace::weights}));
    EXPECT_EQ(f.gating[1].level, kComputeLevel);
    EXPECT_EQ(f.gating[1].condition_on, set_of({DataSpace::weights, DataSpace::inputs}));
    const auto said = [&](const std::string& text) {
        return std::any_of(c.notes.begin(), c.notes.end(),
                           [&](const std::string& note) { return contains(note, text); });
    };
    EXPECT_TRUE(said("compute skipping skips nothing"));
    EXPECT_TRUE(said("Sparseloop saves only the MAC"));  // the semantics differ
}

TEST(TimeloopSparseImport, ComputeSkippingConditionsOnTheOperandsThatAreNotThere) {
    const std::string sparse = R"(sparse_optimizations:
  targets:
  - name: RegFile
    representation-format:
      data-spaces:
      - {name: Weights, ranks: [{format: UOP}, {format: CP}]}
  - name: MACC
    compute-optimization: [{type: skipping}]
)";
    const TimeloopCase c = import_files(files(problem_with(kDensities), sparse));
    ASSERT_EQ(c.arch.sparse.skipping.size(), 1u);
    EXPECT_EQ(c.arch.sparse.skipping[0].level, kComputeLevel);
    EXPECT_EQ(c.arch.sparse.skipping[0].condition_on, set_of({DataSpace::weights}));
}

// A skip or gate of an operand's reads at the level serving the MACs (RegFile
// keeps every data space in the golden mapping) also skips or gates those
// MACs, as in Sparseloop: the import adds a `compute` entry on the same
// condition. Nothing is carried from a level above it, nor from the output.
TEST(TimeloopSparseImport, ASkipAtTheLevelServingTheMacsIsCarriedToTheMacs) {
    const std::string sparse = R"(sparse_optimizations:
  targets:
  - name: GlobalBuffer
    action-optimization:
    - type: gating
      options: [{target: Weights, condition-on: [Inputs]}]
  - name: RegFile
    action-optimization:
    - type: skipping
      options:
      - {target: Weights, condition-on: [Inputs]}
      - {target: Outputs, condition-on: [Weights]}
)";
    const TimeloopCase c = import_files(files(problem_with(kDensities), sparse));
    const SparseFeatures& f = c.arch.sparse;
    ASSERT_EQ(f.skipping.size(), 3u);
    EXPECT_EQ(f.skipping[2].level, kComputeLevel);
    EXPECT_EQ(f.skipping[2].condition_on, set_of({DataSpace::inputs}));
    ASSERT_EQ(f.gating.size(), 1u);  // GlobalBuffer does not serve the MACs
    EXPECT_EQ(f.gating[0].level, "GlobalBuffer");
    const auto carried = std::count_if(c.notes.begin(), c.notes.end(), [](const std::string& n) {
        return contains(n, "the level serving the MACs, also skips the MACs");
    });
    EXPECT_EQ(carried, 1);

    // The MACs performed are those with a nonzero input (density 0.6); the
    // skipped MACs take no time.
    const Evaluation e = evaluate(build_arch_model(c.arch), c.problem, c.mapping, c.densities);
    ASSERT_TRUE(e.valid());
    EXPECT_DOUBLE_EQ(e.counts.macs_performed, double(c.problem.space.macs()) * 0.6);
    const TimeloopCase dense = import_files(files(golden("problem.yaml"), ""));
    const Evaluation d = evaluate(build_arch_model(dense.arch), dense.problem, dense.mapping);
    EXPECT_LT(e.compute_cycles, d.compute_cycles);
    // RegFile's weight reads are conditioned on the inputs twice (its own
    // entry, one element per read, and the MACs'): kept once, with 0.6.
    const std::size_t rf = *c.arch.level_index("RegFile");
    const double dense_reads = d.counts.levels[rf].space(DataSpace::weights).reads;
    EXPECT_NEAR(e.counts.levels[rf].space(DataSpace::weights).reads, dense_reads * 0.6,
                1e-9 * dense_reads);
}

// Where the level serving the MACs multicasts a read over a spatial loop, the
// read meets several condition elements and is skipped only when all are
// zero: Sparseloop removes those MACs only, which no per-element `compute`
// entry states, so none is added, and a note says why.
TEST(TimeloopSparseImport, AMulticastReadIsNotCarriedToTheMacs) {
    // The RegFile bypasses the inputs: the GlobalBuffer serves them, and its
    // Y loop K16 multicasts each input to 16 PEs (16 weights).
    std::string map = golden("map.yaml");
    map +=
        "- target: RegFile\n  type: datatype\n  keep: [Weights, Outputs]\n"
        "  bypass: [Inputs]\n";
    const std::string sparse = R"(sparse_optimizations:
  targets:
  - name: GlobalBuffer
    action-optimization:
    - type: skipping
      options: [{target: Inputs, condition-on: [Weights]}]
)";
    const TimeloopCase c = import_timeloop(read_timeloop_spec(
        {(kGolden / "arch.yaml").string(),
         testing::temp_file("problem.yaml", problem_with(kDensities)),
         testing::temp_file("map.yaml", map), (kGolden / "ERT.yaml").string(),
         (kGolden / "ART.yaml").string(), testing::temp_file("sparse.yaml", sparse)}));
    ASSERT_EQ(c.arch.sparse.skipping.size(), 1u);
    EXPECT_EQ(c.arch.sparse.skipping[0].level, "GlobalBuffer");
    EXPECT_TRUE(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
        return contains(n, "meets 16 condition elements per read") && contains(n, "none is added");
    }));
    // A read is skipped when all 16 weights are zero (density 0.5).
    const Evaluation e = evaluate(build_arch_model(c.arch), c.problem, c.mapping, c.densities);
    ASSERT_TRUE(e.valid());
    const TimeloopCase dense_case = import_timeloop(
        read_timeloop_spec({(kGolden / "arch.yaml").string(), (kGolden / "problem.yaml").string(),
                            testing::temp_file("map.yaml", map), (kGolden / "ERT.yaml").string(),
                            (kGolden / "ART.yaml").string()}));
    const Evaluation d =
        evaluate(build_arch_model(dense_case.arch), dense_case.problem, dense_case.mapping);
    const std::size_t glb = *c.arch.level_index("GlobalBuffer");
    const double dense_reads = d.counts.levels[glb].space(DataSpace::inputs).reads;
    // The weights are hypergeometric: 16 drawn without replacement from the
    // layer's 147,456 weights, half of them zero, are all zero with
    // probability Π (N/2 − i)/(N − i).
    const double weights = 128.0 * 128 * 3 * 3;
    double all_zero = 1;
    for (int i = 0; i < 16; ++i) all_zero *= (weights / 2 - i) / (weights - i);
    EXPECT_LT(all_zero, std::pow(0.5, 16));
    EXPECT_NEAR(e.counts.levels[glb].space(DataSpace::inputs).reads, dense_reads * (1 - all_zero),
                1e-9 * dense_reads);
    EXPECT_DOUBLE_EQ(e.counts.macs_performed, double(c.problem.space.macs()));

    // The JSON and the text say which tile a read meets and what it keeps.
    const nlohmann::json j = evaluation_to_json(e, c.arch, build_arch_model(c.arch), c.problem,
                                                c.mapping, kTimeloopSpaceNames);
    ASSERT_EQ(j["storage_actions"].size(), 1u);
    EXPECT_EQ(j["storage_actions"][0]["level"], "GlobalBuffer");
    EXPECT_EQ(j["storage_actions"][0]["tensor"], "Inputs");
    EXPECT_EQ(j["storage_actions"][0]["condition"], "Weights");
    EXPECT_EQ(j["storage_actions"][0]["condition_tile_elements"], 16);
    EXPECT_NEAR(j["storage_actions"][0]["kept"].get<double>(), 1 - all_zero, 1e-12);
    const std::string files =
        fmt::format("{} {} {} {} {} {}", (kGolden / "arch.yaml").string(),
                    testing::temp_file("problem.yaml", problem_with(kDensities)),
                    testing::temp_file("map.yaml", map), (kGolden / "ERT.yaml").string(),
                    (kGolden / "ART.yaml").string(), testing::temp_file("sparse.yaml", sparse));
    const auto text =
        testing::run_trainloop("eval --timeloop " + files, testing::Capture::stdout_only);
    ASSERT_EQ(text.exit_code, 0) << text.output;
    EXPECT_TRUE(contains(text.output,
                         "skipping at GlobalBuffer: x reads kept 100.0 %; each meets "
                         "16 w and is skipped only when all 16 are zero"))
        << text.output;
}

// CSR's stated widths become `index_bits` when they are one width (row
// pointers: the UOP ranks' payload; column indices: the CP rank's metadata);
// any other width is named in a note, never silently dropped.
TEST(TimeloopSparseImport, StatedIndexWidthsBecomeIndexBits) {
    const auto format_at_dram = [](const std::string& ranks) {
        const TimeloopCase c = import_files(files(problem_with(kDensities), one_format(ranks)));
        EXPECT_EQ(c.arch.sparse.formats.size(), 1u);
        return std::pair{c.arch.sparse.formats.at(0), c.notes};
    };
    const auto said = [](const std::vector<std::string>& notes, const std::string& text) {
        return std::any_of(notes.begin(), notes.end(),
                           [&](const std::string& n) { return contains(n, text); });
    };
    // Offsets (UOP payload) and coordinates (CP metadata): one width.
    const auto [eight, eight_notes] = format_at_dram(
        "[{format: UOP, payload-word-bits: 8}, {format: CP, metadata-word-bits: 8}]");
    EXPECT_EQ(eight.index_bits, 8);
    EXPECT_FALSE(said(eight_notes, "not read"));
    // Only the coordinates stated: the offsets take the same width.
    EXPECT_EQ(
        format_at_dram("[{format: UOP}, {format: CP, metadata-word-bits: 12}]").first.index_bits,
        12);
    const auto [mixed, mixed_notes] = format_at_dram(
        "[{format: UOP, payload-word-bits: 16}, {format: CP, metadata-word-bits: 8}]");
    EXPECT_EQ(mixed.index_bits, 0);
    EXPECT_TRUE(said(mixed_notes, "the index widths 16, 8 at `DRAM` are not read"));
    const auto [wide, wide_notes] =
        format_at_dram("[{format: UOP}, {format: CP, metadata-word-bits: 65}]");
    EXPECT_EQ(wide.index_bits, 0);
    EXPECT_TRUE(said(wide_notes, "one width of 1 to 64 bits"));
    // Run lengths, at every rank: their width, never padded (as Sparseloop).
    const auto [rle, rle_notes] = format_at_dram(
        "[{format: RLE, metadata-word-bits: 4}, {format: RLE, metadata-word-bits: 4}]");
    EXPECT_EQ(rle.index_bits, 4);
    EXPECT_FALSE(said(rle_notes, "padding"));
    const auto [unbounded, unbounded_notes] = format_at_dram("[{format: RLE}]");
    EXPECT_EQ(unbounded.index_bits, 0) << "no width stated: sized from the tile";
    // A bitmask's bits are 1 bit; a wider stated mask, and a UOP's metadata
    // (it has none), are named in one note per key.
    const auto [bitmap, bitmap_notes] = format_at_dram("[{format: B, metadata-word-bits: 1}]");
    EXPECT_EQ(bitmap.index_bits, 0);
    EXPECT_TRUE(bitmap_notes.empty());
    const auto [masks, masks_notes] = format_at_dram(
        "[{format: B, metadata-word-bits: 2}, {format: B, metadata-word-bits: 2}, "
        "{format: B, metadata-word-bits: 2}]");
    EXPECT_EQ(std::count_if(masks_notes.begin(), masks_notes.end(),
                            [](const std::string& n) { return contains(n, "is not read"); }),
              1);
    EXPECT_TRUE(said(masks_notes,
                     "`metadata-word-bits` (on 3 ranks at `DRAM`) is not read: a "
                     "bitmask's bits are 1 bit wide"));
    const auto [uop, uop_notes] = format_at_dram(
        "[{format: UOP, metadata-word-bits: 4}, {format: CP, metadata-word-bits: 8}]");
    EXPECT_EQ(uop.index_bits, 8);
    EXPECT_TRUE(said(uop_notes, "`metadata-word-bits` is not read"));

    // The width reaches the evaluator: 8-bit fields on a 16-bit word hold
    // less metadata than 16-bit ones.
    const auto metadata_reads = [&](int bits) {
        const TimeloopCase c = import_files(
            files(problem_with(kDensities),
                  one_format(fmt::format(
                      "[{{format: UOP}}, {{format: CP, metadata-word-bits: {}}}]", bits))));
        const Evaluation e = evaluate(build_arch_model(c.arch), c.problem, c.mapping, c.densities);
        EXPECT_TRUE(e.valid());
        return e.counts.levels[0].space(DataSpace::weights).metadata_reads;
    };
    EXPECT_LT(metadata_reads(8), metadata_reads(16));
}

TEST(TimeloopSparseImport, ALevelsMetadataDatawidthIsItsFormatsUnitWidth) {
    // Sparseloop's width of every metadata and payload unit at the level but
    // a bitmask's bits (AdjustFormatWordBits), when the ranks state none.
    std::string arch = golden("arch.yaml");
    const std::string dram = "        datawidth: 16\n";  // DRAM's, the first
    const auto at = arch.find(dram);
    ASSERT_NE(at, std::string::npos);
    arch.insert(at + dram.size(), "        metadata_datawidth: 5\n");
    std::vector<std::string> f =
        files(problem_with(kDensities), one_format("[{format: UOP}, {format: CP}]"));
    f[0] = testing::temp_file("arch.yaml", arch);
    const TimeloopCase c = import_files(f);
    ASSERT_EQ(c.arch.sparse.formats.size(), 1u);
    EXPECT_EQ(c.arch.sparse.formats[0].index_bits, 5);
    // A width trainloop cannot take is named, not dropped silently.
    std::string zero = arch;
    zero.replace(zero.find("metadata_datawidth: 5"), 21, "metadata_datawidth: 0");
    f[0] = testing::temp_file("arch.yaml", zero);
    const TimeloopCase none = import_files(f);
    EXPECT_EQ(none.arch.sparse.formats[0].index_bits, 0);
    ASSERT_FALSE(none.notes.empty());
    EXPECT_TRUE(contains(none.notes.back(), "`metadata_datawidth: 0` of `DRAM` is not read"))
        << none.notes.back();
}

TEST(TimeloopSparseImport, DensitiesKeepTheirMeanAndTheirDistribution) {
    const TimeloopCase c = import_files(files(problem_with(kDensities), ""));
    EXPECT_DOUBLE_EQ(c.densities.of(DataSpace::weights).density, 0.5);
    EXPECT_DOUBLE_EQ(c.densities.of(DataSpace::inputs).density, 0.6);
    EXPECT_DOUBLE_EQ(c.densities.of(DataSpace::outputs).density, 1.0);
    EXPECT_TRUE(c.sparse());
    // Both distributions are trainloop models, so nothing is approximated:
    // hypergeometric (its population, the tensor's size, comes from the
    // layer when evaluated); a bare number is fixed-structured, `even`.
    EXPECT_EQ(c.densities.of(DataSpace::weights).model, DensityModel{HypergeometricModel{}});
    EXPECT_TRUE(std::holds_alternative<EvenModel>(c.densities.of(DataSpace::inputs).model));
    EXPECT_TRUE(c.notes.empty());

    // commonDensity gives Outputs the same density, which has no equivalent
    // (below); at 1 it is read like `densities`.
    const TimeloopCase common = import_files(files(problem_with("    commonDensity: 1\n"), ""));
    EXPECT_FALSE(common.sparse());
    const SpecError e = expect_spec_error(
        [&] { import_files(files(problem_with("    commonDensity: 0.25\n"), "")); });
    EXPECT_TRUE(contains(e.message(), "Outputs density of 0.25"));
}

TEST(TimeloopSparseImport, ADenseSpecStaysDense) {
    const TimeloopCase c = import_files(files(golden("problem.yaml"), ""));
    EXPECT_FALSE(c.sparse());
    EXPECT_TRUE(c.arch.sparse.dense());
    EXPECT_TRUE(c.notes.empty());
}

TEST(TimeloopSparseImport, SparseEvaluationUsesTheImportedFeatures) {
    const TimeloopCase dense = import_files(files(golden("problem.yaml"), ""));
    const TimeloopCase sparse = import_files(files(problem_with(kDensities), kSparse));
    const Evaluation d = evaluate(build_arch_model(dense.arch), dense.problem, dense.mapping);
    const Evaluation s =
        evaluate(build_arch_model(sparse.arch), sparse.problem, sparse.mapping, sparse.densities);
    ASSERT_TRUE(d.valid());
    ASSERT_TRUE(s.valid());
    EXPECT_DOUBLE_EQ(s.counts.effectual_macs, double(sparse.problem.space.macs()) * 0.5 * 0.6);
    EXPECT_LT(s.energy_pj, d.energy_pj);
    EXPECT_EQ(s.cycles, d.cycles);  // gating saves energy, not time
}

TEST(TimeloopSparseImport, WrittenFilesEvaluateExactlyAsTheDirectImport) {
    const std::vector<std::string> f = files(problem_with(kDensities), kSparse);
    const TimeloopSpec spec = read_timeloop_spec(f);
    const fs::path dir = fs::path(::testing::TempDir()) / "timeloop_sparse_import_files";
    fs::remove_all(dir);
    const ImportedFiles imported = timeloop_to_native_files(spec);
    write_output_files(dir, imported.files, false);
    ASSERT_TRUE(fs::exists(dir / "sparsity.yaml"));
    const TimeloopCase direct = import_timeloop(spec);
    const Evaluation expected =
        evaluate(build_arch_model(direct.arch), direct.problem, direct.mapping, direct.densities);

    const MappingCase c = load_mapping_case(dir / "mapping.yaml");
    const SparsityProfile profile = load_sparsity_profile_named((dir / "sparsity.yaml").string());
    const PhaseDensities densities =
        phase_densities(profile, c.network->name(), c.problem->layer, c.problem->phase);
    const Evaluation e = evaluate_case(c, densities, {});
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.cycles, expected.cycles);
    EXPECT_DOUBLE_EQ(e.energy_pj, expected.energy_pj);
    EXPECT_DOUBLE_EQ(e.counts.macs_performed, expected.counts.macs_performed);
    // Each tensor keeps its model in the written profile.
    const std::string written = testing::read_text(dir / "sparsity.yaml");
    EXPECT_TRUE(contains(written, "tensors: w, phases: fw, density: 0.5, model: hypergeometric"))
        << written;
    EXPECT_TRUE(contains(written, "tensors: x, phases: fw, density: 0.6, model: even")) << written;
}

TEST(TimeloopSparseImport, AMetadataStorageBecomesThePartitionedSramsMetadataPart) {
    const auto arch_with = [](const std::string& attributes) {
        std::string arch = golden("arch.yaml");
        const std::string anchor = "            depth: 512     # 512 x 16b = 1 KiB\n";
        arch.insert(arch.find(anchor) + anchor.size(), attributes);
        return arch;
    };
    const auto import_arch = [](const std::string& arch) {
        return import_files({testing::temp_file("arch.yaml", arch),
                             (kGolden / "problem.yaml").string(), (kGolden / "map.yaml").string(),
                             (kGolden / "ERT.yaml").string(), (kGolden / "ART.yaml").string()});
    };
    const TimeloopCase c =
        import_arch(arch_with("            metadata_storage_depth: 128\n"
                              "            metadata_storage_width: 8\n"));
    const StorageLevel& rf = c.arch.levels[*c.arch.level_index("RegFile")];
    EXPECT_EQ(rf.capacity_bytes, 1024 + 128);  // data 512 x 16 b, metadata 128 x 8 b
    ASSERT_TRUE(rf.metadata_share);
    EXPECT_DOUBLE_EQ(*rf.metadata_share, 128.0 / 1152.0);
    EXPECT_FALSE(c.arch.levels[*c.arch.level_index("GlobalBuffer")].metadata_share);

    const SpecError e = expect_spec_error(
        [&] { import_arch(arch_with("            metadata_storage_depth: 128\n")); });
    EXPECT_TRUE(contains(e.message(), "no metadata_storage_width"));
    EXPECT_GT(e.where().line, 0);
}

TEST(TimeloopSparseImport, ErtSparseActionsAreNamedInANote) {
    std::string ert = golden("ERT.yaml");
    const std::string anchor = "    - {name: read,   energy: 512.0}\n";
    ASSERT_NE(ert.find(anchor), std::string::npos);
    ert.insert(ert.find(anchor),
               "    - {name: metadata_read, energy: 0.1}\n"
               "    - {name: gated_read, energy: 0.01}\n");
    const std::string mac = "    - {name: compute, energy: 0.315}\n";
    ASSERT_NE(ert.find(mac), std::string::npos);
    ert.insert(ert.find(mac), "    - {name: compute_gated, energy: 0.0}\n");
    const TimeloopCase c =
        import_files({(kGolden / "arch.yaml").string(), (kGolden / "problem.yaml").string(),
                      (kGolden / "map.yaml").string(), testing::temp_file("ERT.yaml", ert)});
    ASSERT_EQ(c.notes.size(), 2u);
    EXPECT_TRUE(contains(c.notes[0], "gated_read, metadata_read not read"));
    EXPECT_TRUE(contains(c.notes[1], "compute_gated not read"));
}

// ---- against Sparseloop (tests/golden/timeloop/sparse) ----------------------

const fs::path kSparseGolden = fs::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/sparse";
const fs::path kDesign = fs::path(TRAINLOOP_SOURCE_DIR) / "tests/golden/timeloop/dense/glb_rf_8x4";

struct ReferenceRun {
    nlohmann::json sparseloop;  // timeloop-model's summary, counts per instance
    Evaluation ours;
    Architecture arch;
    ArchModel model;
};

// `saves_accesses`: make every gating entry at `compute` save its MACs'
// accesses too (trainloop's default), not only the MACs as imported.
ReferenceRun run_reference(const std::string& name, bool saves_accesses = false) {
    TimeloopCase c = import_files(
        {(kDesign / "arch.yaml").string(), (kSparseGolden / "m00_problem_map.yaml").string(),
         (kSparseGolden / (name + ".yaml")).string(), (kDesign / "ERT.yaml").string(),
         (kDesign / "ART.yaml").string()});
    if (saves_accesses) {
        for (SparseActionEntry& e : c.arch.sparse.gating) e.saves_mac_only = false;
    }
    const ArchModel model = build_arch_model(c.arch);
    return {testing::read_json(kSparseGolden / (name + ".json")),
            evaluate(model, c.problem, c.mapping, c.densities), c.arch, model};
}

// Sparseloop's actual (neither gated nor skipped) count of `action` for
// `space` at `level`, over all instances.
double sparseloop_actual(const nlohmann::json& j, const std::string& level,
                         const std::string& space, const std::string& action) {
    for (const auto& l : j.at("levels")) {
        if (l.at("name") != level) continue;
        const auto& counts = l.at("spaces").at(space);
        return counts.at("actual_" + action).get<double>() * counts.at("instances").get<double>();
    }
    ADD_FAILURE() << "no level " << level;
    return 0;
}

double ours(const ReferenceRun& r, const std::string& level, DataSpace space,
            const std::string& action) {
    const std::size_t i = *r.arch.level_index(level);
    const SpaceCounts& a = r.ours.counts.levels[i].space(space);  // per instance
    const double per_instance = action == "reads"   ? a.reads
                                : action == "fills" ? a.fills
                                                    : a.updates;
    return per_instance * double(r.model.levels[i].instances);
}

TEST(TimeloopSparseReference, CompressedInputsMoveWhatSparseloopMoves) {
    const ReferenceRun r = run_reference("formats");
    ASSERT_TRUE(r.ours.valid());
    EXPECT_EQ(r.ours.cycles, r.sparseloop.at("cycles").get<std::int64_t>());
    EXPECT_NEAR(r.ours.counts.macs_performed,
                r.sparseloop.at("sparse_computes").at("actual").get<double>(), 0.5);
    // Data counts within 0.1 %: Sparseloop rounds per instance and draws
    // hypergeometric tiles, trainloop takes independent elements.
    for (const auto& [level, space, name] :
         {std::tuple{"DRAM", DataSpace::weights, "Weights"},
          std::tuple{"DRAM", DataSpace::inputs, "Inputs"},
          std::tuple{"DRAM", DataSpace::outputs, "Outputs"},
          std::tuple{"GlobalBuffer", DataSpace::outputs, "Outputs"},
          std::tuple{"RegFile", DataSpace::inputs, "Inputs"}}) {
        for (const std::string action : {"reads", "fills", "updates"}) {
            SCOPED_TRACE(std::string(level) + " " + name + " " + action);
            const double theirs = sparseloop_actual(r.sparseloop, level, name, action);
            EXPECT_NEAR(ours(r, level, space, action), theirs, 1e-3 * theirs + 1e-9);
        }
    }
    // Energy: trainloop also charges the CSR metadata, which Sparseloop counts
    // only at a level with a metadata storage (difference 1 of the docs).
    const double theirs_pj = r.sparseloop.at("energy_uj").get<double>() * 1e6;
    double metadata_pj = 0;
    for (std::size_t l = 0; l < r.arch.levels.size(); ++l)
        metadata_pj += r.ours.energy.level_metadata[l];
    EXPECT_GT(metadata_pj, 0);
    EXPECT_NEAR(r.ours.energy_pj - metadata_pj, theirs_pj, 1e-3 * theirs_pj);
}

// Sparseloop's gated MAC saves only itself; the import says so (`saves:
// mac`), and the counts where the MACs are served agree. trainloop's default,
// a gated MAC that also saves its operands' reads (difference 2), reads those
// × the other operand's density.
TEST(TimeloopSparseReference, GatedMacsSaveWhatSparseloopSaves) {
    const ReferenceRun r = run_reference("formats_gating");
    ASSERT_TRUE(r.ours.valid());
    ASSERT_EQ(r.arch.sparse.gating.size(), 1u);
    EXPECT_TRUE(r.arch.sparse.gating[0].saves_mac_only);
    EXPECT_NEAR(r.ours.counts.macs_performed,
                r.sparseloop.at("sparse_computes").at("actual").get<double>(),
                1e-3 * r.ours.counts.macs_performed);
    for (const auto& [level, space, name, density] :
         {std::tuple{"RegFile", DataSpace::inputs, "Inputs", 0.5},
          std::tuple{"DRAM", DataSpace::weights, "Weights", 0.6}}) {
        SCOPED_TRACE(level);
        const double theirs = sparseloop_actual(r.sparseloop, level, name, "reads");
        EXPECT_NEAR(ours(r, level, space, "reads"), theirs, 1e-3 * theirs);
        const ReferenceRun saving = run_reference("formats_gating", true);
        EXPECT_NEAR(ours(saving, level, space, "reads"), density * theirs, 1e3);
    }
    // Levels that do not serve an operand to the MACs agree either way.
    const double fills = sparseloop_actual(r.sparseloop, "RegFile", "Inputs", "fills");
    EXPECT_NEAR(ours(r, "RegFile", DataSpace::inputs, "fills"), fills, 1e-3 * fills);
    // And so does the energy, but for trainloop's CSR metadata (difference 1)
    // and the gated MACs, which this case's ERT does not price (no
    // `compute_gated`), so Sparseloop charges them as performed ones.
    const double theirs_pj = r.sparseloop.at("energy_uj").get<double>() * 1e6;
    double metadata_pj = 0;
    for (std::size_t l = 0; l < r.arch.levels.size(); ++l)
        metadata_pj += r.ours.energy.level_metadata[l];
    const double gated_pj =
        (double(r.ours.nest.macs) - r.ours.counts.macs_performed) * r.model.mac_pj;
    EXPECT_NEAR(r.ours.energy_pj - metadata_pj + gated_pj, theirs_pj, 1e-3 * theirs_pj);
}

// ---- what has no trainloop equivalent ----------------------------------------

SpecError import_error(const std::string& problem, const std::string& sparse) {
    return expect_spec_error([&] { import_files(files(problem, sparse)); });
}

Evaluation evaluate_imported(const TimeloopCase& c) {
    return evaluate(build_arch_model(c.arch), c.problem, c.mapping, c.densities);
}

TEST(TimeloopSparseImport, RankPatternsWithoutAFlatFormatAreKeptRankByRank) {
    const auto imported = [](const std::string& ranks) {
        return import_files(files(golden("problem.yaml"), one_format(ranks)));
    };
    const auto names = [](const FormatEntry& f) {
        std::vector<std::string_view> out;
        for (RankFormat r : f.ranks) out.push_back(rank_format_name(r));
        return fmt::format("{}", fmt::join(out, " "));
    };
    const TimeloopCase mixed = imported("[{format: B}, {format: CP}]");
    ASSERT_EQ(mixed.arch.sparse.formats.size(), 1u);
    EXPECT_EQ(mixed.arch.sparse.formats[0].format, CompressedFormat::fibertree);
    EXPECT_EQ(names(mixed.arch.sparse.formats[0]), "B CP");
    // Offset pairs alone: a dense tile with its offsets, which a fibertree keeps.
    const TimeloopCase dense = imported("[{format: UOP}]");
    EXPECT_EQ(names(dense.arch.sparse.formats[0]), "UOP");
    // Stated widths of the index fields become its index_bits.
    const TimeloopCase wide = imported(
        "[{format: CP, metadata-word-bits: 6, payload-word-bits: 6}, {format: UOP, "
        "payload-word-bits: 6}]");
    EXPECT_EQ(wide.arch.sparse.formats[0].index_bits, 6);
    // More ranks than trainloop keeps: the outermost are left out, with a note.
    std::string many = "[";
    for (int i = 0; i < 20; ++i) many += i == 0 ? "{format: UB}" : ", {format: B}";
    const TimeloopCase deep = imported(many + ", {format: CP}]");
    EXPECT_EQ(deep.arch.sparse.formats[0].ranks.size(), kMaxRanks);
    EXPECT_EQ(deep.arch.sparse.formats[0].ranks[0], RankFormat::b);
    ASSERT_FALSE(deep.notes.empty());
    EXPECT_TRUE(contains(deep.notes[0], "lists 21 ranks: the outermost 5 are left out"))
        << deep.notes[0];
    // And each evaluates, its metadata charged.
    for (const TimeloopCase* c : {&mixed, &dense, &wide, &deep}) {
        const Evaluation e = evaluate_imported(*c);
        ASSERT_TRUE(e.valid());
        EXPECT_GT(e.counts.levels[0].space(DataSpace::weights).metadata_reads, 0);
    }
}

TEST(TimeloopSparseImport, FlattenedRankIdsAreNamedInANote) {
    const TimeloopSpec spec = read_timeloop_spec(
        files(golden("problem.yaml"),
              one_format("[{format: UOP, flattened-rankIDs: [[C, K]]}, {format: cp}]")));
    const TimeloopCase c = import_timeloop(spec);
    ASSERT_EQ(c.arch.sparse.formats.size(), 1u);
    EXPECT_EQ(rank_names(c.arch.sparse.formats[0]), "UOP CP");
    ASSERT_EQ(spec.notes.size(), 1u);  // the reader's
    EXPECT_TRUE(contains(spec.notes[0],
                         "`flattened-rankIDs` is not read: trainloop gives a "
                         "tile's ranks its loops itself"))
        << spec.notes[0];
    EXPECT_TRUE(contains(spec.notes[0], "sparse.yaml")) << spec.notes[0];
}

TEST(TimeloopSparseImportErrors, UnknownRankFormatsAreLocated) {
    const SpecError typo = import_error(golden("problem.yaml"), one_format("[{format: RLF}]"));
    EXPECT_TRUE(contains(typo.message(), "unknown rank format"));
    EXPECT_EQ(typo.hint(), "did you mean `RLE`?");
    EXPECT_TRUE(contains(typo.where().file, "sparse.yaml"));
}

TEST(TimeloopSparseImportErrors, UnknownTargetsAndMisplacedOptimizationsAreLocated) {
    const SpecError target = import_error(golden("problem.yaml"),
                                          "sparse_optimizations:\n  targets:\n"
                                          "  - {name: GlobalBufer, action-optimization: []}\n");
    EXPECT_TRUE(contains(target.message(), "GlobalBufer"));
    EXPECT_EQ(target.hint(), "did you mean `GlobalBuffer`?");

    const SpecError compute =
        import_error(golden("problem.yaml"),
                     "sparse_optimizations:\n  targets:\n"
                     "  - {name: RegFile, compute-optimization: [{type: gating}]}\n");
    EXPECT_TRUE(contains(compute.message(), "compute optimization for storage level `RegFile`"));

    const SpecError spatial =
        import_error(golden("problem.yaml"),
                     "sparse_optimizations:\n  targets:\n  - name: RegFile\n"
                     "    action-optimization:\n    - {type: skipping-spatial, target: Inputs, "
                     "condition-on: [Weights]}\n");
    EXPECT_TRUE(contains(spatial.message(), "skipping-spatial"));
    EXPECT_TRUE(contains(spatial.hint(), "load_balancing"));

    const SpecError rate = import_error(
        golden("problem.yaml"),
        "sparse_optimizations:\n  targets:\n  - name: DRAM\n    representation-format:\n"
        "      data-spaces:\n      - {name: Weights, ranks: [{format: B}], compression-rate: "
        "0.5}\n");
    EXPECT_EQ(rate.key_path().substr(rate.key_path().rfind('.') + 1), "compression-rate");
}

TEST(TimeloopSparseImportErrors, MalformedSparseOptimizationsAreLocated) {
    const auto error_of = [](const std::string& sparse) {
        return import_error(golden("problem.yaml"), sparse);
    };
    const SpecError empty_ranks = error_of(one_format("[]"));
    EXPECT_TRUE(contains(empty_ranks.message(), "an empty list of ranks"));
    EXPECT_GT(empty_ranks.where().line, 0);

    const SpecError twice = error_of(
        "sparse_optimizations:\n  targets:\n  - name: DRAM\n    representation-format:\n"
        "      data-spaces:\n      - {name: Weights, ranks: [{format: B}]}\n"
        "      - {name: Weights, ranks: [{format: RLE}]}\n");
    EXPECT_TRUE(contains(twice.message(), "a second representation format for Weights at `DRAM`"));
    EXPECT_EQ(twice.where().line, 7);

    const SpecError compute_format = error_of(
        "sparse_optimizations:\n  targets:\n  - name: MACC\n    representation-format:\n"
        "      data-spaces: []\n");
    EXPECT_TRUE(contains(compute_format.message(), "for the arithmetic unit"));
    const SpecError compute_action =
        error_of("sparse_optimizations:\n  targets:\n  - {name: MACC, action-optimization: []}\n");
    EXPECT_TRUE(contains(compute_action.expected(), "`compute-optimization`"));

    const SpecError no_condition = error_of(
        "sparse_optimizations:\n  targets:\n  - name: RegFile\n    action-optimization:\n"
        "    - {type: gating, target: Inputs, condition-on: []}\n");
    EXPECT_TRUE(contains(no_condition.message(), "an empty `condition-on` list"));

    const SpecError space = error_of(
        "sparse_optimizations:\n  targets:\n  - name: DRAM\n    representation-format:\n"
        "      data-spaces:\n      - {name: Weight, ranks: [{format: B}]}\n");
    EXPECT_EQ(space.hint(), "did you mean `Weights`?");

    const SpecError negative = error_of(one_format("[{format: CP, metadata-word-bits: -8}]"));
    EXPECT_EQ(negative.key_path().substr(negative.key_path().rfind('.') + 1), "metadata-word-bits");
    const SpecError word =
        error_of(one_format("[{format: UOP, payload-word-bits: eight}, "
                            "{format: CP}]"));
    EXPECT_EQ(word.key_path().substr(word.key_path().rfind('.') + 1), "payload-word-bits");
}

TEST(TimeloopSparseImportErrors, AV04ComponentsOwnSparseOptimizationsPointAtTheTopLevelForm) {
    const std::string arch = R"(architecture:
  version: 0.4
  nodes:
  - !Component
    name: DRAM
    class: DRAM
    attributes: {width: 64, datawidth: 16}
    sparse_optimizations: {}
  - !Component
    name: MACC
    class: intmac
    attributes: {datawidth: 16}
)";
    const SpecError e = expect_spec_error([&] {
        import_files({testing::temp_file("arch.yaml", arch), (kGolden / "problem.yaml").string(),
                      (kGolden / "map.yaml").string(), (kGolden / "ERT.yaml").string()});
    });
    EXPECT_TRUE(contains(e.message(), "v0.4 component's own `sparse_optimizations`"));
    EXPECT_TRUE(contains(e.hint(), "a target named after it"));
    EXPECT_EQ(e.where().line, 8);
}

TEST(TimeloopSparseImportErrors, DensitiesWithoutAnEquivalentAreLocated) {
    const SpecError banded = import_error(
        problem_with("    densities:\n      Weights: {distribution: banded, density: 0.5}\n"), "");
    EXPECT_TRUE(contains(banded.message(), "banded"));
    EXPECT_GT(banded.where().line, 0);

    const SpecError outputs =
        import_error(problem_with("    densities:\n      Outputs: 0.5\n"), "");
    EXPECT_TRUE(contains(outputs.message(), "known-zero mask"));

    const SpecError both = import_error(
        problem_with("    commonDensity: 0.5\n    densities:\n      Weights: 0.5\n"), "");
    EXPECT_TRUE(contains(both.message(), "both `commonDensity` and `densities`"));

    const SpecError range = import_error(problem_with("    densities:\n      Weights: 1.5\n"), "");
    EXPECT_GT(range.where().line, 0);

    const SpecError distribution = import_error(
        problem_with(
            "    densities:\n      Weights: {distribution: hypergeometrik, density: 0.5}\n"),
        "");
    EXPECT_EQ(distribution.hint(), "did you mean `hypergeometric`?");
}

}  // namespace
}  // namespace trainloop
