// `trainloop import timeloop` and `trainloop export timeloop`
// (docs/timeloop_interop.md):
// - importing the golden Timeloop run writes native files that evaluate to
//   exactly what evaluating import_timeloop's case directly gives (cycles,
//   per-level per-tensor counts; energy within 1e-9), and that pass
//   `trainloop spec check`; existing files are kept unless --force;
// - the architecture, component-library and network writers round-trip;
// - exporting native mappings (the shipped examples, a bypass case) and
//   reading the files back with read_timeloop_spec + import_timeloop gives the
//   same Mapping and, for fw, the same nest analysis and cycles;
// - what Timeloop cannot express is refused with a SpecError.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "arch/architecture_parser.hpp"
#include "arch/architecture_yaml.hpp"
#include "components/component_library_parser.hpp"
#include "spec/mapping_case.hpp"
#include "support/architecture_equality.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"
#include "timeloop/timeloop_export.hpp"
#include "timeloop/timeloop_files.hpp"
#include "timeloop/timeloop_import.hpp"
#include "vocabulary/einsum.hpp"
#include "workload/network_yaml.hpp"

namespace trainloop {
namespace {

using testing::expect_same_architecture;
using testing::expect_same_library;

namespace fs = std::filesystem;
using testing::contains;
using testing::expect_spec_error;

const fs::path kSource = TRAINLOOP_SOURCE_DIR;
const fs::path kGolden = kSource / "tests/golden/timeloop/conv3x_fixed";

std::vector<std::string> golden_files() {
    std::vector<std::string> files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ART.yaml"}) {
        files.push_back((kGolden / f).string());
    }
    return files;
}

// A path of this process under the test temp dir (tests may run in parallel).
fs::path temp_path(const std::string& name) {
    return fs::path(::testing::TempDir()) /
           fmt::format("trainloop_interop_{}_{}", static_cast<long>(getpid()), name);
}

// A fresh, empty directory under the test temp dir.
fs::path fresh_dir(const std::string& name) {
    const fs::path dir = temp_path(name);
    fs::remove_all(dir);
    return dir;
}

using testing::read_text;

using trainloop::testing::CommandResult;

CommandResult run(const std::string& arguments) {
    return trainloop::testing::run_trainloop(arguments);
}

std::string joined(const std::vector<std::string>& files) {
    std::string out;
    for (const auto& f : files) out += " " + f;
    return out;
}

void expect_near_relative(double actual, double expected, double tolerance,
                          const std::string& what) {
    EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected))
        << what << ": " << actual << " vs " << expected;
}

// Per level and data space: every count the nest analysis gives.
void expect_same_nest(const NestAnalysis& a, const NestAnalysis& b) {
    ASSERT_EQ(a.num_levels, b.num_levels);
    EXPECT_EQ(a.macs, b.macs);
    EXPECT_EQ(a.compute_cycles, b.compute_cycles);
    EXPECT_EQ(a.utilized_macs, b.utilized_macs);
    for (std::size_t i = 0; i < a.num_levels; ++i) {
        EXPECT_EQ(a.levels[i].utilized_instances, b.levels[i].utilized_instances) << "level " << i;
        for (DataSpace s : kAllDataSpaces) {
            SCOPED_TRACE(fmt::format("level {} {}", i, data_space_name(s)));
            const SpaceAccesses& x = a.levels[i].space(s);
            const SpaceAccesses& y = b.levels[i].space(s);
            EXPECT_EQ(x.kept, y.kept);
            EXPECT_EQ(x.tile, y.tile);
            EXPECT_EQ(x.partition, y.partition);
            EXPECT_EQ(x.reads, y.reads);
            EXPECT_EQ(x.fills, y.fills);
            EXPECT_EQ(x.updates, y.updates);
            EXPECT_EQ(x.drains, y.drains);
            EXPECT_EQ(x.child, y.child);
            EXPECT_EQ(x.child_side_words, y.child_side_words);
        }
    }
}

// ---- import ------------------------------------------------------------------

// Imports the golden run into `dir` (engine level, not the CLI).
TimeloopCase import_golden_into(const fs::path& dir) {
    const TimeloopSpec spec = read_timeloop_spec(golden_files());
    write_output_files(dir, timeloop_to_native_files(spec).files, false);
    return import_timeloop(spec);
}

TEST(TimeloopImportFiles, WrittenMappingEvaluatesExactlyAsTheDirectImport) {
    const fs::path dir = fresh_dir("import_eval");
    const TimeloopCase direct = import_golden_into(dir);
    const Evaluation expected =
        evaluate(build_arch_model(direct.arch), direct.problem, direct.mapping);
    ASSERT_TRUE(expected.valid());

    const MappingCase c = load_mapping_case(dir / "mapping.yaml");
    EXPECT_EQ(c.mapping, direct.mapping);
    EXPECT_EQ(c.problem->space, direct.problem.space);
    EXPECT_EQ(c.problem->phase, Phase::fw);
    const Evaluation e = evaluate_case(c);
    ASSERT_TRUE(e.valid());
    EXPECT_EQ(e.cycles, expected.cycles);
    EXPECT_EQ(e.cycles, 7'225'344);
    expect_same_nest(e.nest, expected.nest);
    expect_near_relative(e.energy_pj, expected.energy_pj, 1e-9, "total energy");
    for (std::size_t k = 0; k < expected.energy.num_components(); ++k) {
        expect_near_relative(e.energy.component_pj(k), expected.energy.component_pj(k), 1e-9,
                             fmt::format("component {}", k));
    }
    expect_near_relative(e.area_um2, expected.area_um2, 1e-9, "area");
}

TEST(TimeloopImportFiles, WrittenArchitectureReadsBackEqual) {
    const fs::path dir = fresh_dir("import_arch");
    const TimeloopCase direct = import_golden_into(dir);
    const Architecture loaded = load_architecture(dir / "arch.yaml");
    expect_same_architecture(loaded, direct.arch);
    EXPECT_TRUE(loaded.networks.empty());
    EXPECT_EQ(loaded.clock_ghz, 1.0);
    EXPECT_TRUE(loaded.levels.back().per_pe);
    // Energy per word: GlobalBuffer read 32.377775 pJ per 4-word vector.
    const Component* glb = loaded.components.find("GlobalBuffer");
    ASSERT_NE(glb, nullptr);
    EXPECT_EQ(glb->points.front().energy.get(Action::read), 32.377775 / 4);
    EXPECT_EQ(glb->points.front().area_um2, 429745.625);
}

TEST(TimeloopImportFiles, WorkloadIsOneUnpaddedConvWithTheProblemsShape) {
    const fs::path dir = fresh_dir("import_workload");
    import_golden_into(dir);
    const std::string text = read_text(dir / "workload.yaml");
    // C=128, P=Q=28, R=S=3, stride 1: a 30×30 input.
    EXPECT_TRUE(contains(text, "{name: input, channels: 128, height: 30, width: 30}"));
    EXPECT_TRUE(
        contains(text, "out_channels: 128, kernel: [3, 3], stride: [1, 1], padding: [0, 0]"));
    const std::string mapping = read_text(dir / "mapping.yaml");
    EXPECT_TRUE(contains(mapping, "arch: ./arch.yaml"));
    EXPECT_TRUE(contains(mapping, "workload: ./workload.yaml"));
    EXPECT_TRUE(contains(mapping, "phase: fw"));
    EXPECT_TRUE(contains(mapping, "batch: 16"));
}

TEST(TimeloopImportFiles, StridesAndDilationsGiveBackTheProblem) {
    TimeloopSpec spec = read_timeloop_spec(golden_files());
    spec.problem.wstride = 2;
    spec.problem.hdilation = 2;
    const fs::path dir = fresh_dir("import_stride");
    write_output_files(dir, timeloop_to_native_files(spec).files, false);
    const MappingCase c = load_mapping_case(dir / "mapping.yaml");
    EXPECT_EQ(c.problem->space, import_timeloop(spec).problem.space);
    // Height (28-1)·2 + (3-1)·1 + 1 = 57, width (28-1)·1 + (3-1)·2 + 1 = 32.
    EXPECT_TRUE(contains(read_text(dir / "workload.yaml"), "height: 57, width: 32"));
}

TEST(TimeloopImportFiles, ZeroErtEnergyIsRefused) {
    TimeloopSpec spec = read_timeloop_spec(golden_files());
    spec.ert.at("system.chip.GlobalBuffer").actions["read"] = 0.0;
    const SpecError e = expect_spec_error([&] { timeloop_to_native_files(spec); });
    EXPECT_EQ(e.key_path(), "ERT");
    EXPECT_TRUE(contains(e.message(), "`read` of `system.chip.GlobalBuffer`"));
    EXPECT_TRUE(contains(e.where().file, "arch.yaml"));
}

TEST(TimeloopImportCli, WritesPassesSpecCheckAndKeepsFilesWithoutForce) {
    const fs::path dir = fresh_dir("import_cli");
    const std::string command =
        "import timeloop" + joined(golden_files()) + " --out " + dir.string();
    const CommandResult first = run(command);
    ASSERT_EQ(first.exit_code, 0) << first.output;
    for (const char* f : {"arch.yaml", "components.yaml", "workload.yaml", "mapping.yaml"}) {
        EXPECT_TRUE(contains(first.output, "wrote " + (dir / f).string()));
    }
    EXPECT_TRUE(
        contains(first.output, "trainloop eval --mapping " + (dir / "mapping.yaml").string()));

    const CommandResult check = run(
        "spec check " + (dir / "arch.yaml").string() + " " + (dir / "components.yaml").string() +
        " " + (dir / "workload.yaml").string() + " " + (dir / "mapping.yaml").string());
    EXPECT_EQ(check.exit_code, 0) << check.output;

    const CommandResult eval =
        run("eval --format json --mapping " + (dir / "mapping.yaml").string());
    ASSERT_EQ(eval.exit_code, 0) << eval.output;
    EXPECT_TRUE(contains(eval.output, "\"cycles\": 7225344"));

    // A second run keeps the files (marked here) unless --force.
    std::ofstream(dir / "arch.yaml", std::ios::app) << "# edited by the user\n";
    const CommandResult again = run(command);
    EXPECT_EQ(again.exit_code, 2) << again.output;
    EXPECT_TRUE(contains(again.output, "refusing to overwrite"));
    EXPECT_TRUE(contains(again.output, "--force"));
    EXPECT_TRUE(contains(read_text(dir / "arch.yaml"), "# edited by the user"));

    const CommandResult forced = run(command + " --force");
    EXPECT_EQ(forced.exit_code, 0) << forced.output;
    EXPECT_FALSE(contains(read_text(dir / "arch.yaml"), "# edited by the user"));
}

TEST(TimeloopImportCli, ReaderNotesGoToStandardError) {
    const fs::path dir = fresh_dir("import_notes");
    const fs::path extra = temp_path("mapper.yaml");
    std::ofstream(extra) << "mapper:\n  optimization-metrics: [edp]\n";
    const auto r =
        trainloop::testing::run_trainloop("import timeloop" + joined(golden_files()) + " " +
                                              extra.string() + " --out " + dir.string(),
                                          trainloop::testing::Capture::stderr_only);
    EXPECT_EQ(r.exit_code, 0);
    const std::string& err = r.output;
    EXPECT_TRUE(contains(err, "note: "));
    EXPECT_TRUE(contains(err, "`mapper`"));
}

// ---- writers round trip ---------------------------------------------------------

TEST(ArchitectureYaml, ShippedArchitectureRoundTrips) {
    const Architecture original =
        load_architecture(kSource / "arch_specs/procrustes_baseline_16x16.yaml");
    const fs::path dir = fresh_dir("arch_round_trip");
    fs::create_directories(dir);
    const fs::path file = dir / "arch.yaml";
    std::ofstream(file) << architecture_to_yaml(
        original, path_relative_to_file(original.component_library_path, file).string());
    const Architecture loaded = load_architecture(file);
    expect_same_architecture(loaded, original);
    EXPECT_EQ(fs::canonical(loaded.component_library_path),
              fs::canonical(original.component_library_path));
}

TEST(ArchitectureYaml, EveryOptionalFieldRoundTrips) {
    Architecture arch = load_architecture(kSource / "arch_specs/procrustes_baseline_16x16.yaml");
    arch.description = "quotes \" and: colons\nand lines";
    arch.source = "";
    arch.clock_ghz = 0.7;
    arch.levels[0].read_bandwidth = 12.5;
    arch.levels[0].write_bandwidth = 1.0 / 3.0;
    arch.levels[0].shared_bandwidth = 0.25;
    arch.levels[1].data_spaces = DataSpaceSet{{true, false, true}};
    arch.levels[1].instances = 4;
    arch.levels[1].capacity_bytes = 1000;
    arch.levels[1].metadata_share = 128.0 / 1152.0;
    for (OnChipNetwork& n : arch.networks) n.data_spaces = DataSpaceSet{{true, false, true}};
    arch.networks[0].hop_energy_pj = 0.1;
    arch.networks[0].component.reset();
    arch.networks[1].bandwidth = 64;
    arch.networks[1].data_spaces = DataSpaceSet{{false, false, true}};
    arch.sparse.formats.push_back({"GLB", DataSpace::weights, CompressedFormat::csb});
    arch.sparse.formats.push_back({"DRAM", DataSpace::weights, CompressedFormat::csr, 8});
    arch.sparse.skipping.push_back({"RF", DataSpace::inputs, DataSpaceSet{{true, false, false}}});
    arch.sparse.gating.push_back(
        {std::string(kComputeLevel), DataSpace::weights, DataSpaceSet{{false, true, true}}});
    arch.sparse.load_balancing = {LoadBalancingScheme::half_tile_pairing, ArrayAxis::y};
    arch.components.components.front().points.front().leakage_mw = 1e-5;
    const fs::path dir = fresh_dir("arch_fields");
    fs::create_directories(dir);
    std::ofstream(dir / "lib.yaml") << component_library_to_yaml(arch.components);
    std::ofstream(dir / "arch.yaml") << architecture_to_yaml(arch, "lib.yaml");
    expect_same_library(load_component_library(dir / "lib.yaml"), arch.components);
    expect_same_architecture(load_architecture(dir / "arch.yaml"), arch);
}

TEST(ArchitectureYaml, ShippedComponentLibraryRoundTrips) {
    const ComponentLibrary original =
        load_component_library(kSource / "arch_specs/components/default_45nm.yaml");
    const SpecNode text = SpecNode::load_string(component_library_to_yaml(original), "<written>");
    expect_same_library(parse_component_library(text), original);
}

TEST(NetworkYaml, ShippedNetworksRoundTrip) {
    for (const char* name : {"resnet18", "mobilenet_v2", "alexnet", "densenet_cifar"}) {
        SCOPED_TRACE(name);
        const NetworkSpec original =
            load_network_spec(kSource / "workloads" / (std::string(name) + ".yaml"));
        const NetworkSpec read =
            parse_network_spec(SpecNode::load_string(network_to_yaml(original), "<written>"));
        EXPECT_EQ(read.name, original.name);
        EXPECT_EQ(read.description, original.description);
        EXPECT_EQ(read.source, original.source);
        ASSERT_EQ(read.inputs.size(), original.inputs.size());
        for (std::size_t i = 0; i < read.inputs.size(); ++i) {
            EXPECT_EQ(read.inputs[i].name, original.inputs[i].name);
            EXPECT_EQ(read.inputs[i].shape, original.inputs[i].shape);
        }
        ASSERT_EQ(read.layers.size(), original.layers.size());
        for (std::size_t i = 0; i < read.layers.size(); ++i) {
            const Layer& x = read.layers[i];
            const Layer& y = original.layers[i];
            EXPECT_EQ(x.name, y.name);
            EXPECT_EQ(x.type, y.type);
            EXPECT_EQ(x.inputs, y.inputs);
            ASSERT_EQ(x.attributes.index(), y.attributes.index()) << x.name;
            if (const auto* c = std::get_if<ConvAttributes>(&x.attributes)) {
                const auto& d = std::get<ConvAttributes>(y.attributes);
                EXPECT_EQ(c->out_channels, d.out_channels);
                EXPECT_EQ(c->kernel, d.kernel);
                EXPECT_EQ(c->stride, d.stride);
                EXPECT_EQ(c->padding, d.padding);
                EXPECT_EQ(c->dilation, d.dilation);
                EXPECT_EQ(c->groups, d.groups);
            }
            if (const auto* p = std::get_if<PoolAttributes>(&x.attributes)) {
                const auto& q = std::get<PoolAttributes>(y.attributes);
                EXPECT_EQ(p->global, q.global);
                if (!p->global) {
                    EXPECT_EQ(p->kernel, q.kernel);
                    EXPECT_EQ(p->stride, q.stride);
                    EXPECT_EQ(p->padding, q.padding);
                }
            }
            if (const auto* l = std::get_if<LinearAttributes>(&x.attributes)) {
                EXPECT_EQ(l->out_features, std::get<LinearAttributes>(y.attributes).out_features);
            }
        }
    }
}

// ---- export ------------------------------------------------------------------

// Loops of factor 1 say nothing; Timeloop's files drop them.
Mapping without_unit_loops(const Mapping& m) {
    Mapping out = m;
    for (std::size_t i = 0; i < m.num_levels; ++i) {
        for (auto [from, to] : {std::pair{&m.level(i).temporal, &out.level(i).temporal},
                                std::pair{&m.level(i).spatial_x, &out.level(i).spatial_x},
                                std::pair{&m.level(i).spatial_y, &out.level(i).spatial_y}}) {
            to->clear();
            for (const Loop& loop : *from) {
                if (loop.factor > 1) to->push_back(loop);
            }
        }
    }
    return out;
}

struct ExportedCase {
    MappingCase native;
    TimeloopCase back;
    ExportedFiles exported;
};

// Exports a native mapping file and reads the Timeloop files back.
ExportedCase export_and_read_back(const fs::path& mapping_file, const std::string& name) {
    MappingCase c = load_mapping_case(mapping_file);
    EXPECT_TRUE(evaluate_case(c).valid());
    ExportedFiles exported = native_to_timeloop_files(c.arch, *c.problem, c.mapping);
    const fs::path dir = fresh_dir("export_" + name);
    std::vector<std::string> files;
    for (const fs::path& p : write_output_files(dir, exported.files, false))
        files.push_back(p.string());
    TimeloopCase back = import_timeloop(read_timeloop_spec(files));
    return {std::move(c), std::move(back), std::move(exported)};
}

void expect_same_counts_as_native(const ExportedCase& x) {
    const Evaluation native = evaluate_case(x.native);
    const Evaluation back = evaluate(build_arch_model(x.back.arch), x.back.problem, x.back.mapping);
    ASSERT_TRUE(back.valid());
    expect_same_nest(back.nest, native.nest);
    EXPECT_EQ(back.cycles, native.cycles);
    EXPECT_EQ(back.level_cycles, native.level_cycles);
}

TEST(TimeloopExport, ExampleMappingReadsBackToTheSameMappingAndCounts) {
    const ExportedCase x = export_and_read_back(
        kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml", "single_example");
    EXPECT_EQ(x.back.mapping, without_unit_loops(x.native.mapping));
    EXPECT_EQ(x.back.mapping, x.native.mapping);
    EXPECT_EQ(x.back.problem.space, x.native.problem->space);
    expect_same_counts_as_native(x);
    // Priced as trainloop prices the levels: the storage and MAC energies agree
    // (the native architecture's network energy has no Timeloop counterpart).
    const Evaluation native = evaluate_case(x.native);
    const Evaluation back = evaluate(build_arch_model(x.back.arch), x.back.problem, x.back.mapping);
    for (std::size_t k = 0; k <= native.energy.num_levels; ++k) {
        expect_near_relative(back.energy.component_pj(k), native.energy.component_pj(k), 1e-12,
                             fmt::format("component {}", k));
    }
    const std::string map = x.exported.files.front().text;
    EXPECT_TRUE(contains(map,
                         "- target: GLB\n  type: spatial\n  factors: C1 K16 R1 S1 N16 P1 Q1\n"
                         "  permutation: KNCRSPQ\n  split: 1\n"));
    EXPECT_TRUE(contains(map,
                         "- target: DRAM\n  type: temporal\n  factors: C8 K8 R1 S1 N1 P7 Q4\n"
                         "  permutation: CQPKRSN\n"));
    EXPECT_TRUE(x.exported.notes.size() == 1 && contains(x.exported.notes[0], "network"));
}

// Timeloop v3.0.3 has a shared_bandwidth with trainloop's meaning (its
// buffer's slowdown is also bounded by shared / (read + write demand)):
// exported, it reads back as the same limit and binds the same way.
TEST(TimeloopExport, ASharedBandwidthReadsBackAndBindsAlike) {
    const fs::path source = kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml";
    MappingCase c = load_mapping_case(source);
    c.arch.levels[0].shared_bandwidth = 2;  // DRAM: far below its read + write demand
    const ExportedFiles exported = native_to_timeloop_files(c.arch, *c.problem, c.mapping);
    bool written = false;
    for (const OutputFile& f : exported.files)
        written = written || contains(f.text, "shared_bandwidth: 2");
    EXPECT_TRUE(written);
    const fs::path dir = fresh_dir("export_shared_bandwidth");
    std::vector<std::string> files;
    for (const fs::path& p : write_output_files(dir, exported.files, false))
        files.push_back(p.string());
    const TimeloopCase back = import_timeloop(read_timeloop_spec(files));
    EXPECT_EQ(back.arch.levels[0].shared_bandwidth, 2.0);
    const Evaluation native = evaluate(build_arch_model(c.arch), *c.problem, c.mapping);
    const Evaluation read = evaluate(build_arch_model(back.arch), back.problem, back.mapping);
    EXPECT_EQ(native.bottleneck, 0) << "the test's premise: the shared limit binds";
    EXPECT_EQ(read.cycles, native.cycles);
    EXPECT_EQ(read.level_cycles, native.level_cycles);
}

// Timeloop has no partitioned SRAM: a level with a metadata_share is
// exported with its data part as its depth, and a note says so.
TEST(TimeloopExport, APartitionedLevelIsExportedWithItsDataPartAndANote) {
    MappingCase c = load_mapping_case(kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml");
    StorageLevel& glb = c.arch.levels[1];
    ASSERT_EQ(glb.name, "GLB");
    glb.metadata_share = 0.25;
    const std::int64_t data_words = *glb.capacity_words() - *glb.capacity_words() / 4;
    const ExportedFiles exported = native_to_timeloop_files(c.arch, *c.problem, c.mapping);
    bool noted = false;
    for (const auto& note : exported.notes) {
        noted = noted || (contains(note, "`GLB` is partitioned (metadata_share 0.25)") &&
                          contains(note, fmt::format("depth {}", data_words)));
    }
    EXPECT_TRUE(noted) << fmt::format("{}", fmt::join(exported.notes, "\n"));
    bool depth = false;
    for (const OutputFile& f : exported.files) {
        depth = depth || contains(f.text, fmt::format("depth: {}", data_words));
    }
    EXPECT_TRUE(depth);
}

TEST(TimeloopExport, EveryExampleMappingReadsBackToTheSameMapping) {
    for (const auto& entry : fs::directory_iterator(kSource / "examples/mappings")) {
        if (entry.path().extension() != ".yaml") continue;
        SCOPED_TRACE(entry.path().string());
        const ExportedCase x = export_and_read_back(entry.path(), entry.path().stem().string());
        EXPECT_EQ(x.back.mapping, without_unit_loops(x.native.mapping));
        EXPECT_EQ(x.back.problem.space, x.native.problem->space);
        if (x.native.problem->phase == Phase::fw) {
            expect_same_counts_as_native(x);
        } else {
            bool noted = false;
            for (const auto& note : x.exported.notes) noted = noted || contains(note, "as fw");
            EXPECT_TRUE(noted) << "a bw/wu export says Timeloop models it as fw";
        }
    }
}

TEST(TimeloopExport, BypassReadsBackAsDatatypeEntries) {
    const fs::path arch = kSource / "arch_specs/procrustes_baseline_16x16.yaml";
    const fs::path file = temp_path("bypass.yaml");
    std::ofstream(file) << "for: {arch: " << arch.string()
                        << ", workload: resnet18, layer: layer2.0.conv2, phase: fw, batch: 16}\n"
                           "mapping:\n"
                           "  - level: DRAM\n"
                           "    temporal: [K8, P7, Q4, C8]\n"
                           "  - level: GLB\n"
                           "    temporal: [C4, P4, K1]\n"
                           "    spatial_x: [K16]\n"
                           "    spatial_y: [N16]\n"
                           "    bypass: [weights]\n"
                           "  - level: RF\n"
                           "    temporal: [C4, R3, S3, Q7]\n"
                           "    keep: [outputs]\n";
    const ExportedCase x = export_and_read_back(file, "bypass");
    EXPECT_EQ(x.back.mapping, without_unit_loops(x.native.mapping));
    EXPECT_FALSE(x.back.mapping.level(1).keep.contains(DataSpace::weights));
    EXPECT_EQ(x.back.mapping.level(2).keep, (DataSpaceSet{{false, false, true}}));
    expect_same_counts_as_native(x);
    const std::string map = x.exported.files.front().text;
    EXPECT_TRUE(contains(map,
                         "- target: GLB\n  type: datatype\n  keep: [Inputs, Outputs]\n"
                         "  bypass: [Weights]\n"));
    EXPECT_TRUE(contains(map,
                         "- target: RF\n  type: datatype\n  keep: [Outputs]\n"
                         "  bypass: [Weights, Inputs]\n"));
}

TEST(TimeloopExport, GroupedConvolutionIsRefused) {
    const MappingCase c = load_mapping_case(kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml");
    IterationSpace grouped = c.problem->space;
    grouped.bounds[Dim::G] = 2;
    const PhaseProblem problem = make_phase_problem("dw", Phase::fw, grouped);
    const SpecError e = expect_spec_error([&] {
        native_to_timeloop_files(c.arch, problem, c.mapping, {"m.yaml", 0, 0});
    });
    EXPECT_EQ(e.key_path(), "problem");
    EXPECT_EQ(e.where().file, "m.yaml");
    EXPECT_TRUE(contains(e.message(), "G = 2"));
    EXPECT_TRUE(contains(e.message(), "no groups dimension"));
}

TEST(TimeloopExport, AnOperationThatIsNoConvolutionIsRefused) {
    // Attention's scores index no tensor as Timeloop's CNN-Layer problem does.
    const MappingCase c = load_mapping_case(kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml");
    IterationSpace scores = c.problem->space;
    scores.shape = parse_einsum("S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]", {}, "einsum");
    const PhaseProblem problem = make_phase_problem("scores", Phase::fw, scores);
    const SpecError e = expect_spec_error([&] {
        native_to_timeloop_files(c.arch, problem, c.mapping, {"m.yaml", 0, 0});
    });
    EXPECT_EQ(e.key_path(), "problem");
    EXPECT_EQ(e.where().file, "m.yaml");
    EXPECT_TRUE(contains(e.message(), "layer `scores` is no convolution"));
}

TEST(TimeloopExport, DimensionOnBothAxesIsRefused) {
    const MappingCase c = load_mapping_case(kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml");
    Mapping m = c.mapping;
    m.level(1).spatial_y.push_back({Dim::K, 2});
    const SpecError e = expect_spec_error([&] { native_to_timeloop_files(c.arch, *c.problem, m); });
    EXPECT_EQ(e.key_path(), "mapping");
    EXPECT_TRUE(contains(e.message(), "spreads K over both array axes"));
}

TEST(TimeloopExport, PaddedMappingIsRefused) {
    // Imperfect factors (nest/padding.hpp): one more iteration of the first
    // temporal K loop pads K; timeloop-model's factors multiply to the size.
    const MappingCase c = load_mapping_case(kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml");
    Mapping m;
    m.num_levels = c.mapping.num_levels;
    bool padded = false;
    for (std::size_t i = 0; i < c.mapping.num_levels; ++i) {
        m.level(i) = c.mapping.level(i);
        m.level(i).temporal.clear();
        for (Loop l : c.mapping.level(i).temporal) {
            if (!padded && l.dim == Dim::K && l.factor >= 2) {
                ++l.factor;
                padded = true;
            }
            m.level(i).temporal.push_back(l);
        }
    }
    ASSERT_TRUE(padded);
    const SpecError e = expect_spec_error([&] { native_to_timeloop_files(c.arch, *c.problem, m); });
    EXPECT_EQ(e.key_path(), "mapping");
    EXPECT_TRUE(contains(e.message(), "pads K = ")) << e.message();
}

TEST(TimeloopExportCli, BwPhaseNotesAndForce) {
    const fs::path dir = fresh_dir("export_cli");
    const std::string command = "export timeloop --mapping " +
                                (kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml").string() +
                                " --phase bw --out " + dir.string();
    const CommandResult r = run(command);
    // The fw mapping evaluates for bw too (same space); the export says how Timeloop sees it.
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(contains(r.output, "note: "));
    EXPECT_TRUE(contains(r.output, "as fw with the same loop nest"));
    for (const char* f : {"map.yaml", "problem.yaml", "arch.yaml", "ERT.yaml", "ART.yaml"})
        EXPECT_TRUE(contains(r.output, "wrote " + (dir / f).string()));
    EXPECT_TRUE(contains(r.output, "timeloop-model "));
    EXPECT_TRUE(contains(read_text(dir / "problem.yaml"), "phase bw"));

    const CommandResult again = run(command);
    EXPECT_EQ(again.exit_code, 2) << again.output;
    EXPECT_TRUE(contains(again.output, "refusing to overwrite"));
    EXPECT_EQ(run(command + " --force").exit_code, 0);

    // The exported files evaluate in trainloop's Timeloop mode.
    std::string files;
    for (const char* f : {"arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml", "ART.yaml"})
        files += " " + (dir / f).string();
    const CommandResult eval = run("eval --timeloop" + files);
    EXPECT_EQ(eval.exit_code, 0) << eval.output;
}

// A symbolic link planted in the output folder is never written through:
// without --force it counts as an existing file (dangling or not); with
// --force the link itself is replaced and its target, outside the folder,
// keeps its text. Import and export write through the same helper.
TEST(TimeloopCli, ForceReplacesASymlinkNotItsTarget) {
    const std::string import_command = "import timeloop" + joined(golden_files());
    const std::string export_command =
        "export timeloop --mapping " +
        (kSource / "examples/mappings/resnet18_3x3_KN_fw.yaml").string();
    for (const auto& [command, file] :
         {std::pair{import_command, "arch.yaml"}, std::pair{import_command, "mapping.yaml"},
          std::pair{export_command, "map.yaml"}, std::pair{export_command, "ERT.yaml"}}) {
        SCOPED_TRACE(command + " " + file);
        const fs::path dir = fresh_dir("symlink_out");
        const fs::path outside = fresh_dir("symlink_target") / "precious.txt";
        fs::create_directories(outside.parent_path());
        std::ofstream(outside) << "keep me\n";
        fs::create_directories(dir);
        fs::create_symlink(outside, dir / file);
        const CommandResult refused = run(command + " --out " + dir.string());
        EXPECT_EQ(refused.exit_code, 2) << refused.output;
        EXPECT_TRUE(contains(refused.output, "refusing to overwrite " + (dir / file).string()));
        const CommandResult forced = run(command + " --out " + dir.string() + " --force");
        EXPECT_EQ(forced.exit_code, 0) << forced.output;
        EXPECT_EQ(read_text(outside), "keep me\n");
        EXPECT_FALSE(fs::is_symlink(fs::symlink_status(dir / file)));
        EXPECT_TRUE(fs::is_regular_file(dir / file));
        // No temporary file is left behind.
        for (const auto& entry : fs::directory_iterator(dir))
            EXPECT_FALSE(contains(entry.path().filename().string(), ".tmp")) << entry.path();
    }
    // A dangling link counts as a file too; a directory is never replaced.
    const fs::path dir = fresh_dir("symlink_dangling");
    fs::create_directories(dir);
    fs::create_symlink(dir / "nowhere" / "x", dir / "map.yaml");
    const CommandResult dangling = run(export_command + " --out " + dir.string());
    EXPECT_EQ(dangling.exit_code, 2) << dangling.output;
    EXPECT_TRUE(contains(dangling.output, "refusing to overwrite"));
    fs::remove(dir / "map.yaml");
    fs::create_directories(dir / "map.yaml");
    const CommandResult directory = run(export_command + " --out " + dir.string() + " --force");
    EXPECT_EQ(directory.exit_code, 2) << directory.output;
    EXPECT_TRUE(contains(directory.output, "cannot overwrite the directory"));
    EXPECT_FALSE(fs::exists(dir / "problem.yaml"));  // nothing written
}

TEST(TimeloopExportCli, InvalidMappingIsRefusedAtItsLine) {
    const fs::path arch = kSource / "arch_specs/procrustes_baseline_16x16.yaml";
    const fs::path file = temp_path("invalid.yaml");
    std::ofstream(file) << "for: {arch: " << arch.string()
                        << ", workload: resnet18, layer: layer2.0.conv2, phase: fw}\n"
                           "mapping:\n"
                           "  - level: DRAM\n"
                           "    temporal: [K8]\n";
    const fs::path out = fresh_dir("bad");
    const CommandResult r =
        run("export timeloop --mapping " + file.string() + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_TRUE(contains(r.output, "invalid mapping"));
    EXPECT_FALSE(fs::exists(out / "map.yaml"));
}

}  // namespace
}  // namespace trainloop
