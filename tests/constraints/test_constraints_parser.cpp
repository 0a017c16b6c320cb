// Reading mapping constraints: the schema of docs/mapping_constraints.md,
// every user error located with its key (unknown names with did-you-mean,
// contradictions, conflicts with the architecture), the merge of a file's
// constraints over an architecture's, an architecture's `constraints:`
// section, and `spec check` of the shipped examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/architecture_parser.hpp"
#include "constraints/architecture_spec.hpp"
#include "constraints/constraint_check.hpp"
#include "constraints/constraints_parser.hpp"
#include "spec/spec_check.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

using testing::contains;
using testing::expect_spec_error;

StorageLevel level(const std::string& name, DataSpaceSet spaces) {
    StorageLevel l;
    l.name = name;
    l.data_spaces = spaces;
    return l;
}

// DRAM → GLB → RF on a 16×16 array; the RF may not hold inputs.
const std::vector<StorageLevel> kLevels = {level("DRAM", DataSpaceSet::all()),
                                           level("GLB", DataSpaceSet::all()),
                                           level("RF", DataSpaceSet{{true, false, true}})};

PeArray array16() {
    PeArray a;
    a.rows = 16;
    a.columns = 16;
    return a;
}

const std::string kHeader = "mapping_constraints: test\n";

MappingConstraints parse(const std::string& body) {
    return parse_constraints_file(SpecNode::load_string(kHeader + body, "c.yaml"), kLevels,
                                  array16())
        .constraints;
}

SpecError parse_error(const std::string& body) {
    return expect_spec_error([&] { parse(body); });
}

TEST(ConstraintsParser, ReadsEveryKind) {
    const MappingConstraints c = parse(
        "spatial:\n"
        "  x: [K, C]\n"
        "  y: {dims: [N], factors: {N: 16}}\n"
        "levels:\n"
        "  RF:\n"
        "    factors: {C: {max: 4}, R: 3, S: {min: 2}}\n"
        "    order: [K, C, R, S]\n"
        "    bypass: weights\n"
        "    keep: [outputs]\n"
        "  GLB:\n"
        "    partial_order: [C, K]\n");
    ASSERT_TRUE(c.axis(ArrayAxis::x));
    EXPECT_EQ(c.axis(ArrayAxis::x)->dims, (std::vector<Dim>{Dim::K, Dim::C}));
    EXPECT_EQ(c.axis(ArrayAxis::x)->fixed[Dim::K], 0);
    ASSERT_TRUE(c.axis(ArrayAxis::y));
    EXPECT_EQ(c.axis(ArrayAxis::y)->fixed[Dim::N], 16);
    EXPECT_EQ(c.axis(ArrayAxis::y)->origin.key, "spatial.y");
    EXPECT_EQ(c.axis(ArrayAxis::y)->origin.where.line, 4);

    const LevelConstraints& rf = c.level(2);
    ASSERT_TRUE(rf.factors[Dim::C]);
    EXPECT_EQ(rf.factors[Dim::C]->min, 1);
    EXPECT_EQ(rf.factors[Dim::C]->max, 4);
    EXPECT_EQ(rf.factors[Dim::R]->min, 3);
    EXPECT_EQ(rf.factors[Dim::R]->max, 3);
    EXPECT_EQ(rf.factors[Dim::S]->min, 2);
    EXPECT_EQ(rf.factors[Dim::S]->max, kNoFactorLimit);
    EXPECT_FALSE(rf.factors[Dim::K]);
    ASSERT_TRUE(rf.order);
    EXPECT_TRUE(rf.order->full);
    EXPECT_EQ(rf.order->dims, (std::vector<Dim>{Dim::K, Dim::C, Dim::R, Dim::S}));
    ASSERT_TRUE(rf.keep[DataSpace::weights] && rf.keep[DataSpace::outputs]);
    EXPECT_FALSE(rf.keep[DataSpace::weights]->keep) << "weights bypass";
    EXPECT_TRUE(rf.keep[DataSpace::outputs]->keep) << "outputs are kept";
    EXPECT_FALSE(rf.keep[DataSpace::inputs]);
    ASSERT_TRUE(c.level(1).order);
    EXPECT_FALSE(c.level(1).order->full);
    EXPECT_TRUE(c.level(0).empty());
    EXPECT_EQ(constraints_summary(c),
              "spatial x: KC, y: N (N16); factor bounds 3; loop orders 2; keep/bypass 2");
}

TEST(ConstraintsParser, UnknownLevelDimensionAndKeyGetDidYouMean) {
    SpecError e = parse_error("levels:\n  RFF:\n    keep: [outputs]\n");
    EXPECT_TRUE(contains(e.message(), "unknown storage level `RFF`"));
    EXPECT_TRUE(contains(e.hint(), "`RF`"));
    EXPECT_EQ(e.where().line, 3);
    EXPECT_EQ(e.where().file, "c.yaml");

    e = parse_error("levels:\n  RF:\n    factors: {k: 2}\n");
    EXPECT_EQ(e.key_path(), "levels.RF.factors.k");
    EXPECT_TRUE(contains(e.hint(), "`K`"));

    e = parse_error("levels:\n  RF:\n    bypas: [weights]\n");
    EXPECT_TRUE(contains(e.message(), "unknown key `bypas`"));
    EXPECT_TRUE(contains(e.hint(), "`bypass`"));

    e = parse_error("spatial:\n  z: [K]\n");
    EXPECT_TRUE(contains(e.message(), "unknown key `z`"));

    e = parse_error("spatial:\n  x: [K, Z]\n");
    EXPECT_EQ(e.where().line, 3);
    EXPECT_TRUE(contains(e.expected(), "N"));

    e = parse_error("spatial:\n  x: [K, K]\n");
    EXPECT_TRUE(contains(e.message(), "`K` listed twice"));
}

TEST(ConstraintsParser, ContradictionsAreErrorsAtTheirKey) {
    SpecError e = parse_error("levels:\n  RF:\n    factors: {C: {min: 8, max: 4}}\n");
    EXPECT_TRUE(contains(e.message(), "contradictory bounds: min 8 > max 4"));
    EXPECT_EQ(e.key_path(), "levels.RF.factors.C");

    e = parse_error("levels:\n  GLB:\n    order: [K]\n    partial_order: [C]\n");
    EXPECT_TRUE(contains(e.message(), "both `order` and `partial_order`"));

    e = parse_error("levels:\n  RF:\n    keep: [weights]\n    bypass: [weights]\n");
    EXPECT_TRUE(contains(e.message(), "`weights` is both kept and bypassed at `RF`"));

    e = parse_error("levels:\n  GLB:\n    order: [K, C]\n    factors: {P: {min: 2}}\n");
    EXPECT_TRUE(contains(e.message(), "leaves out `P`"));
    EXPECT_EQ(e.key_path(), "levels.GLB.factors.P") << "the later of the two entries";
    EXPECT_TRUE(contains(e.hint(), "partial_order"));

    e = parse_error("levels:\n  RF:\n    factors: {C: {}}\n");
    EXPECT_TRUE(contains(e.message(), "empty factor bound"));
    e = parse_error("levels:\n  RF:\n    factors: {C: 0}\n");
    EXPECT_EQ(e.key_path(), "levels.RF.factors.C");
}

TEST(ConstraintsParser, ADimensionMayBeAcrossBothAxes) {
    // Eager Pruning's input channels: across the sub-systems and within one.
    MappingConstraints c = parse("spatial:\n  x: [K, C]\n  y: {dims: [C], factors: {C: 4}}\n");
    EXPECT_EQ(c.axis(ArrayAxis::x)->dims, (std::vector<Dim>{Dim::K, Dim::C}));
    EXPECT_EQ(c.axis(ArrayAxis::y)->dims, (std::vector<Dim>{Dim::C}));
    EXPECT_EQ(c.axis(ArrayAxis::y)->fixed[Dim::C], 4);
    // So may a phase's entry against the general one.
    c = parse("spatial: {x: [K]}\nphases:\n  wu: {spatial: {y: [N, K]}}\n");
    const MappingConstraints wu = constraints_for_phase(c, Phase::wu);
    EXPECT_EQ(wu.axis(ArrayAxis::x)->dims, (std::vector<Dim>{Dim::K}));
    EXPECT_EQ(wu.axis(ArrayAxis::y)->dims, (std::vector<Dim>{Dim::N, Dim::K}));

    // The checker takes each axis's factors on their own.
    IterationSpace space;
    space.bounds.values.fill(1);
    space.bounds[Dim::C] = 16;
    c = parse("spatial:\n  x: [C]\n  y: {dims: [C], factors: {C: 4}}\n");
    Mapping m;
    m.num_levels = 3;
    m.level(0).keep = DataSpaceSet::all();
    m.level(1).spatial_x.push_back({Dim::C, 4});
    m.level(1).spatial_y.push_back({Dim::C, 4});
    EXPECT_EQ(find_constraint_violation(c, space, m), std::nullopt);
    m.level(1).spatial_x.clear();
    m.level(1).spatial_y.clear();
    m.level(1).spatial_x.push_back({Dim::C, 2});
    m.level(1).spatial_y.push_back({Dim::C, 8});
    ASSERT_TRUE(find_constraint_violation(c, space, m));
    EXPECT_TRUE(
        contains(*find_constraint_violation(c, space, m), "C has spatial factor 8 across y"));
}

TEST(ConstraintsParser, ConflictsWithTheArchitectureAreErrors) {
    SpecError e = parse_error("levels:\n  RF:\n    keep: [inputs]\n");
    EXPECT_TRUE(contains(e.message(), "level `RF` may not hold `inputs`"));
    EXPECT_TRUE(contains(e.expected(), "weights, outputs"));

    e = parse_error("levels:\n  DRAM:\n    bypass: [outputs]\n");
    EXPECT_TRUE(contains(e.message(), "outermost level `DRAM` cannot bypass"));

    e = parse_error("spatial:\n  y: {dims: [N, K], factors: {N: 8, K: 4}}\n");
    EXPECT_TRUE(contains(e.message(), "multiply to 32 across y, but the array has 16 rows"));
    EXPECT_EQ(e.key_path(), "spatial.y.factors.K");

    e = parse_error("spatial:\n  x: {dims: [K], factors: {C: 2}}\n");
    EXPECT_TRUE(contains(e.message(), "a factor for `C`, which is not across x"));
}

TEST(ConstraintsParser, AFilesEntriesOverrideTheArchitecturesOneByOne) {
    const MappingConstraints arch = parse(
        "spatial: {x: [C], y: [N]}\n"
        "levels:\n"
        "  RF: {factors: {C: 2, K: 4}, bypass: [weights], keep: [outputs], order: [C, K]}\n");
    const MappingConstraints file = parse(
        "spatial: {x: [K]}\n"
        "levels:\n"
        "  RF: {factors: {C: {max: 8}}, keep: [weights], partial_order: [K]}\n");
    const MappingConstraints merged = merge_constraints(arch, file);
    EXPECT_EQ(merged.axis(ArrayAxis::x)->dims, std::vector<Dim>{Dim::K}) << "overridden";
    EXPECT_EQ(merged.axis(ArrayAxis::y)->dims, std::vector<Dim>{Dim::N}) << "kept";
    const LevelConstraints& rf = merged.level(2);
    EXPECT_EQ(rf.factors[Dim::C]->max, 8);
    EXPECT_EQ(rf.factors[Dim::C]->min, 1);
    EXPECT_EQ(rf.factors[Dim::K]->min, 4) << "kept";
    EXPECT_TRUE(rf.keep[DataSpace::weights]->keep)
        << "the file's keep replaces the architecture's bypass";
    EXPECT_TRUE(rf.keep[DataSpace::outputs]->keep);
    EXPECT_FALSE(rf.order->full);
    // A merge can create a contradiction neither source has alone.
    const MappingConstraints full_order = parse("levels:\n  RF: {order: [C]}\n");
    const SpecError e = expect_spec_error(
        [&] { check_constraints_consistent(merge_constraints(arch, full_order)); });
    EXPECT_TRUE(contains(e.message(), "leaves out `K`"));
}

std::vector<Dim> y_dims(const MappingConstraints& c) {
    const auto& y = c.axis(ArrayAxis::y);
    return y ? y->dims : std::vector<Dim>{Dim::G};  // G: "no constraint" in these tests
}

TEST(ConstraintsParser, APhasesEntriesOverrideTheGeneralOnesForThatPhaseOnly) {
    const MappingConstraints c = parse(
        "spatial: {x: [C], y: [K]}\n"
        "levels:\n"
        "  RF: {bypass: [weights]}\n"
        "phases:\n"
        "  bw: {spatial: {y: [C], x: [K]}}\n"
        "  wu:\n"
        "    levels:\n"
        "      RF: {keep: [weights]}\n");
    ASSERT_EQ(c.phases.size(), 2U);
    const MappingConstraints fw = constraints_for_phase(c, Phase::fw);
    const MappingConstraints bw = constraints_for_phase(c, Phase::bw);
    const MappingConstraints wu = constraints_for_phase(c, Phase::wu);
    EXPECT_EQ(y_dims(fw), std::vector<Dim>{Dim::K});
    EXPECT_EQ(y_dims(bw), std::vector<Dim>{Dim::C});
    EXPECT_EQ(bw.axis(ArrayAxis::x)->dims, std::vector<Dim>{Dim::K});
    EXPECT_EQ(y_dims(wu), std::vector<Dim>{Dim::K}) << "wu sets no spatial entry";
    EXPECT_FALSE(bw.level(2).keep[DataSpace::weights]->keep) << "the general bypass holds in bw";
    EXPECT_TRUE(wu.level(2).keep[DataSpace::weights]->keep) << "wu's keep replaces it";
    EXPECT_TRUE(fw.phases.empty() && bw.phases.empty());
    EXPECT_TRUE(contains(constraints_summary(c), "bw: spatial x: K, y: C"));
}

TEST(ConstraintsParser, PhaseErrorsAreLocated) {
    SpecError e = parse_error("phases:\n  bwd: {spatial: {y: [C]}}\n");
    EXPECT_TRUE(contains(e.hint(), "`bw`"));
    EXPECT_EQ(e.where().line, 3);
    e = parse_error("phases: [bw]\n");
    EXPECT_TRUE(contains(e.message(), "expected a mapping"));
    EXPECT_EQ(e.key_path(), "phases");
    e = parse_error("phases:\n  bw: {spatial: {y: [C]}}\n  bw: {spatial: {y: [N]}}\n");
    EXPECT_TRUE(contains(e.message(), "`bw` given twice"));
    e = parse_error("phases:\n  bw: {phases: {fw: {}}}\n");
    EXPECT_TRUE(contains(e.message(), "unknown key `phases`")) << "phases do not nest";
    // A phase's entries must hold together with the general ones.
    e = parse_error(
        "levels: {GLB: {factors: {P: {min: 2}}}}\n"
        "phases:\n  wu: {levels: {GLB: {order: [K, C]}}}\n");
    EXPECT_TRUE(contains(e.message(), "leaves out `P`"));
    EXPECT_EQ(e.key_path(), "phases.wu.levels.GLB.order");
}

TEST(ConstraintsParser, AMergeResolvesPerPhaseAsTheTwoSourcesResolutionsMerged) {
    // The architecture puts C on the rows in bw; a file's general y beats it,
    // and a file's own bw entry beats both.
    const MappingConstraints arch =
        parse("spatial: {y: [K]}\nphases:\n  bw: {spatial: {y: [C]}}\n  wu: {spatial: {x: [R]}}\n");
    const MappingConstraints general_file = parse("spatial: {y: [N]}\n");
    const MappingConstraints phase_file = parse("phases:\n  bw: {spatial: {y: [P]}}\n");
    for (const MappingConstraints* file : {&general_file, &phase_file}) {
        const MappingConstraints merged = merge_constraints(arch, *file);
        for (Phase p : kAllPhases) {
            const MappingConstraints expected =
                merge_constraints(constraints_for_phase(arch, p), constraints_for_phase(*file, p));
            const MappingConstraints got = constraints_for_phase(merged, p);
            EXPECT_EQ(y_dims(got), y_dims(expected)) << phase_name(p);
            EXPECT_EQ(got.axis(ArrayAxis::x).has_value(), expected.axis(ArrayAxis::x).has_value());
        }
    }
    EXPECT_EQ(y_dims(constraints_for_phase(merge_constraints(arch, general_file), Phase::bw)),
              std::vector<Dim>{Dim::N});
    EXPECT_EQ(y_dims(constraints_for_phase(merge_constraints(arch, phase_file), Phase::bw)),
              std::vector<Dim>{Dim::P});
    EXPECT_EQ(y_dims(constraints_for_phase(merge_constraints(arch, phase_file), Phase::fw)),
              std::vector<Dim>{Dim::K});
}

TEST(ConstraintsParser, OrdersAreCheckedAsFullOrRelative) {
    const LoopOrderConstraint partial{{Dim::K, Dim::C}, false, {}};
    EXPECT_TRUE(order_satisfies(partial, {Dim::P, Dim::K, Dim::Q, Dim::C}));
    EXPECT_TRUE(order_satisfies(partial, {Dim::C}));
    EXPECT_FALSE(order_satisfies(partial, {Dim::C, Dim::P, Dim::K}));
    const LoopOrderConstraint full{{Dim::K, Dim::C}, true, {}};
    EXPECT_TRUE(order_satisfies(full, {Dim::K, Dim::C}));
    EXPECT_TRUE(order_satisfies(full, {Dim::C}));
    EXPECT_FALSE(order_satisfies(full, {Dim::K, Dim::P}));
}

TEST(ConstraintCheck, NamesTheBrokenConstraintAndWhereItWasWritten) {
    const MappingConstraints c = parse(
        "spatial: {y: {dims: [N], factors: {N: 4}}}\n"
        "levels:\n  RF: {factors: {R: 3}, bypass: [weights]}\n");
    IterationSpace space;
    space.bounds.values.fill(1);
    space.bounds[Dim::N] = 8;
    space.bounds[Dim::R] = 3;
    Mapping m;
    m.num_levels = 3;
    m.level(0).keep = DataSpaceSet::all();
    m.level(0).temporal.push_back({Dim::N, 2});
    m.level(1).spatial_y.push_back({Dim::N, 4});
    m.level(2).temporal.push_back({Dim::R, 3});
    EXPECT_EQ(find_constraint_violation(c, space, m), std::nullopt);

    Mapping wrong_keep = m;
    wrong_keep.level(2).keep.insert(DataSpace::weights);
    const auto v = find_constraint_violation(c, space, wrong_keep);
    ASSERT_TRUE(v);
    EXPECT_TRUE(contains(*v, "RF keeps weights; c.yaml:4:"));

    Mapping wrong_spatial = m;
    wrong_spatial.level(1).spatial_y.clear();
    wrong_spatial.level(0).temporal.clear();
    wrong_spatial.level(0).temporal.push_back({Dim::N, 8});
    ASSERT_TRUE(find_constraint_violation(c, space, wrong_spatial));
    EXPECT_TRUE(contains(*find_constraint_violation(c, space, wrong_spatial),
                         "N has spatial factor 1 across y"));

    // A factor bound above the dimension applies as the whole dimension.
    IterationSpace fc = space;
    fc.bounds[Dim::R] = 1;
    Mapping fc_mapping = m;
    fc_mapping.level(2).temporal.clear();
    EXPECT_EQ(find_constraint_violation(c, fc, fc_mapping), std::nullopt);
}

const std::string kSource = TRAINLOOP_SOURCE_DIR;

TEST(ArchitectureConstraints, AnArchitecturesSectionIsReadAgainstItsLevels) {
    const std::string arch_text =
        "architecture: with_constraints\n"
        "component_library: components/default_45nm.yaml\n"
        "pe_array: {rows: 4, columns: 4, datatype: fp32}\n"
        "storage:\n"
        "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, "
        "outputs]}\n"
        "  - {name: RF, class: regfile, capacity: 1 KB, data_spaces: [weights, outputs], per_pe: "
        "true}\n"
        "networks:\n"
        "  - {name: unicast, axis: both, kind: unicast, parent: DRAM, child: RF, data_spaces: "
        "[weights, outputs]}\n"
        "constraints:\n"
        "  spatial: {x: [K]}\n"
        "  levels:\n"
        "    RF: {bypass: [weights]}\n";
    const ArchitectureSpec spec = parse_architecture_spec(
        SpecNode::load_string(arch_text, kSource + "/arch_specs/inline.yaml"));
    ASSERT_TRUE(spec.constraints.axis(ArrayAxis::x));
    ASSERT_TRUE(spec.constraints.level(1).keep[DataSpace::weights]);
    EXPECT_FALSE(spec.constraints.level(1).keep[DataSpace::weights]->keep);
    EXPECT_EQ(spec.constraints.level_names, (std::vector<std::string>{"DRAM", "RF"}));

    const SpecError e = expect_spec_error([&] {
        parse_architecture_spec(SpecNode::load_string(arch_text + "    GLB: {keep: [weights]}\n",
                                                      kSource + "/arch_specs/inline.yaml"));
    });
    EXPECT_TRUE(contains(e.message(), "unknown storage level `GLB`"));
    EXPECT_EQ(e.where().line, 13);
}

TEST(SpecCheck, AnArchitecturesSummaryNamesItsConstraints) {
    const std::string path = testing::temp_file(
        "arch.yaml", "architecture: a\ncomponent_library: " + kSource +
                         "/arch_specs/components/default_45nm.yaml\n"
                         "pe_array: {rows: 2, columns: 2, datatype: fp32}\n"
                         "storage:\n"
                         "  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: "
                         "[weights, inputs, outputs]}\n"
                         "networks: []\n"
                         "constraints: {spatial: {x: [K]}}\n");
    EXPECT_TRUE(contains(check_spec_file(path).summary, "mapping constraints: spatial x: K"));
}

TEST(SpecCheck, AcceptsTheShippedConstraintExamples) {
    for (const std::string name : {"procrustes_KN_batch_on_y", "weight_stationary_rf"}) {
        const SpecCheckResult r =
            check_spec_file(kSource + "/examples/constraints/" + name + ".yaml");
        EXPECT_EQ(r.kind, SpecKind::mapping_constraints);
        EXPECT_EQ(r.name, name);
        EXPECT_TRUE(contains(r.summary, "for procrustes_baseline_16x16: ")) << r.summary;
    }
    EXPECT_EQ(
        check_spec_file(kSource + "/examples/constraints/procrustes_KN_batch_on_y.yaml").summary,
        "for procrustes_baseline_16x16: spatial x: K, y: N (N16); keep/bypass 2");
}

TEST(SpecCheck, AConstraintsFileNeedsItsArchitectureToBeChecked) {
    const SpecNode root =
        SpecNode::load_string(kHeader + "levels: {RF: {keep: [weights]}}\n", "c.yaml");
    EXPECT_EQ(detect_spec_kind(root), SpecKind::mapping_constraints);
    EXPECT_EQ(read_constraints_target(root), std::nullopt);
}

}  // namespace
}  // namespace trainloop
