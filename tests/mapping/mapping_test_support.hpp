// Shared fixtures of the mapping-format tests: the shipped Procrustes
// architecture (DRAM, GLB, RF), a four-level inline architecture whose levels
// hold different data spaces, and sample mappings covering bypasses, two
// dimensions on one array axis and empty levels.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "arch/architecture_parser.hpp"
#include "common/spec_error.hpp"
#include "common/spec_node.hpp"
#include "mapping/mapping.hpp"

namespace trainloop::mapping_test {

inline const Architecture& procrustes() {
    static const Architecture arch =
        load_architecture(TRAINLOOP_SOURCE_DIR "/arch_specs/procrustes_baseline_16x16.yaml");
    return arch;
}

// Named as if it sat in arch_specs/, so its component library path resolves.
inline const std::string kFourLevelFile = TRAINLOOP_SOURCE_DIR "/arch_specs/four_level.yaml";

// GLB holds no weights; WBUF holds only weights; RF holds all three.
inline const Architecture& four_level() {
    static const Architecture arch = parse_architecture(SpecNode::load_string(R"(
architecture: four_level
component_library: components/default_45nm.yaml
pe_array: {rows: 4, columns: 4, datatype: fp32}
storage:
  - {name: DRAM, class: dram, capacity: unbounded, data_spaces: [weights, inputs, outputs]}
  - {name: GLB, class: sram, capacity: 64 KB, data_spaces: [inputs, outputs]}
  - {name: WBUF, class: sram, capacity: 8 KB, data_spaces: [weights]}
  - {name: RF, class: regfile, capacity: 512 B, data_spaces: [weights, inputs, outputs], per_pe: true}
networks:
  - {name: bcast, axis: x, kind: broadcast, data_spaces: [inputs, outputs], parent: GLB, child: RF}
)",
                                                                              kFourLevelFile));
    return arch;
}

inline LoopList loops(std::initializer_list<Loop> list) {
    LoopList out;
    for (const Loop& loop : list) out.push_back(loop);
    return out;
}

inline DataSpaceSet spaces(std::initializer_list<DataSpace> list) {
    DataSpaceSet out;
    for (DataSpace s : list) out.insert(s);
    return out;
}

// A mapping with no loops, every level keeping its default data spaces.
inline Mapping empty_mapping(const Architecture& arch) {
    Mapping m;
    m.num_levels = static_cast<std::uint8_t>(arch.levels.size());
    for (std::size_t i = 0; i < arch.levels.size(); ++i)
        m.levels[i].keep = arch.levels[i].data_spaces;
    return m;
}

// The example of docs/mapping_format.md (RF bypassed by inputs).
inline Mapping example_mapping() {
    using enum Dim;
    Mapping m = empty_mapping(procrustes());
    m.levels[0].temporal = loops({{N, 16}, {K, 4}, {C, 4}});
    m.levels[1].temporal = loops({{P, 4}, {Q, 4}});
    m.levels[1].spatial_x = loops({{C, 16}});
    m.levels[1].spatial_y = loops({{K, 16}});
    m.levels[2].temporal = loops({{K, 2}, {C, 2}, {R, 3}, {S, 3}, {P, 7}, {Q, 7}});
    m.levels[2].keep = spaces({DataSpace::weights, DataSpace::outputs});
    return m;
}

inline const std::string kExampleText =
    "DRAM[N16 K4 C4] GLB[P4 Q4 X:C16 Y:K16] RF[K2 C2 R3 S3 P7 Q7 bypass:inputs]";

// Named sample mappings for the round-trip tests, with their architecture.
struct Sample {
    std::string name;
    const Architecture* arch;
    Mapping mapping;
};

inline std::vector<Sample> samples() {
    using enum Dim;
    using enum DataSpace;
    std::vector<Sample> out;
    out.push_back({"example", &procrustes(), example_mapping()});
    out.push_back({"all_empty", &procrustes(), empty_mapping(procrustes())});
    {
        // Two dimensions on each axis; GLB keeps weights only (keep: is
        // shorter); RF keeps nothing; DRAM has no loops.
        Mapping m = empty_mapping(procrustes());
        m.levels[1].temporal = loops({{G, 2}, {N, 8}});
        m.levels[1].spatial_x = loops({{C, 4}, {K, 4}});
        m.levels[1].spatial_y = loops({{P, 2}, {Q, 8}});
        m.levels[1].keep = spaces({weights});
        m.levels[2].temporal = loops({{R, 3}, {S, 3}});
        m.levels[2].keep = spaces({});
        out.push_back({"two_dims_per_axis", &procrustes(), m});
    }
    {
        // Every dimension in one list, huge factors, an empty middle level.
        Mapping m = empty_mapping(procrustes());
        m.levels[0].temporal =
            loops({{G, 1}, {N, 1}, {K, 1}, {C, 1}, {P, 1}, {Q, 1}, {R, 1}, {S, 1}});
        m.levels[2].temporal = loops({{K, 4096}, {C, 1'000'000'007}});
        m.levels[2].keep = spaces({inputs, outputs});
        out.push_back({"every_dim", &procrustes(), m});
    }
    {
        // Levels with different default data spaces: GLB bypassed by outputs
        // (a tie: bypass:), WBUF keeps nothing, RF keeps outputs only.
        Mapping m = empty_mapping(four_level());
        m.levels[0].temporal = loops({{K, 2}});
        m.levels[1].keep = spaces({inputs});
        m.levels[1].spatial_y = loops({{N, 4}});
        m.levels[2].keep = spaces({});
        m.levels[3].temporal = loops({{C, 3}});
        m.levels[3].spatial_x = loops({{S, 3}});
        m.levels[3].keep = spaces({outputs});
        out.push_back({"four_level", &four_level(), m});
    }
    return out;
}

// Runs `body`, which must throw a SpecError, and returns it.
template <typename Body>
SpecError expect_spec_error(Body body) {
    try {
        body();
    } catch (const SpecError& e) {
        return e;
    }
    ADD_FAILURE() << "expected a SpecError, none was thrown";
    return SpecError({}, "", "no error");
}

inline ::testing::AssertionResult mentions(const SpecError& e, const std::string& part) {
    if (std::string(e.what()).find(part) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected `" << part << "` in:\n" << e.what();
}

}  // namespace trainloop::mapping_test
