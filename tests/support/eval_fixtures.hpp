// Small hand-built architectures and problems for evaluator tests.
#pragma once

#include <initializer_list>

#include "arch/arch_model.hpp"
#include "mapping/mapping.hpp"
#include "problem/phase_problem.hpp"

namespace trainloop::testing {

inline IterationSpace space_of(std::initializer_list<std::pair<Dim, std::int64_t>> bounds) {
    IterationSpace s;
    for (Dim d : kAllDims) s.bounds[d] = 1;
    for (const auto& [d, b] : bounds) s.bounds[d] = b;
    return s;
}

inline LoopList loops(std::initializer_list<Loop> list) {
    LoopList out;
    for (const Loop& l : list) out.push_back(l);
    return out;
}

// ResNet-18 conv3_x at batch 16: the problem of the Timeloop golden run
// (tests/golden/timeloop/conv3x_fixed).
inline IterationSpace resnet18_conv3x() {
    return space_of({{Dim::N, 16},
                     {Dim::K, 128},
                     {Dim::C, 128},
                     {Dim::P, 28},
                     {Dim::Q, 28},
                     {Dim::R, 3},
                     {Dim::S, 3}});
}

// A small 3×3 convolution (N4 K8 C8, 6×6 outputs) and a weight-stationary
// mapping of it on three_level(4, 4, ...): DRAM[N4 K2 C2] GLB[P6 | X: C4,
// Y: K4] RF[Q6 R3 S3], every level keeping every data space.
inline IterationSpace small_conv() {
    return space_of({{Dim::N, 4},
                     {Dim::K, 8},
                     {Dim::C, 8},
                     {Dim::P, 6},
                     {Dim::Q, 6},
                     {Dim::R, 3},
                     {Dim::S, 3}});
}

inline Mapping small_conv_ws_mapping() {
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(0).temporal = loops({{Dim::N, 4}, {Dim::K, 2}, {Dim::C, 2}});
    m.level(1).temporal = loops({{Dim::P, 6}});
    m.level(1).spatial_x = loops({{Dim::C, 4}});
    m.level(1).spatial_y = loops({{Dim::K, 4}});
    m.level(2).temporal = loops({{Dim::Q, 6}, {Dim::R, 3}, {Dim::S, 3}});
    return m;
}

// The golden run's mapping on DRAM → GLB → RF: weight-stationary, C across
// the 16 columns, K across the 16 rows.
inline Mapping timeloop_golden_mapping() {
    Mapping m;
    m.num_levels = 3;
    for (std::size_t i = 0; i < 3; ++i) m.level(i).keep = DataSpaceSet::all();
    m.level(0).temporal = loops({{Dim::N, 16}, {Dim::K, 4}, {Dim::C, 4}});
    m.level(1).temporal = loops({{Dim::P, 4}, {Dim::Q, 4}});
    m.level(1).spatial_x = loops({{Dim::C, 16}});
    m.level(1).spatial_y = loops({{Dim::K, 16}});
    m.level(2).temporal =
        loops({{Dim::K, 2}, {Dim::C, 2}, {Dim::R, 3}, {Dim::S, 3}, {Dim::P, 7}, {Dim::Q, 7}});
    return m;
}

// A level with the given energies per word; unbounded when capacity < 0.
inline LevelModel level(std::int64_t instances, std::int64_t mesh_x, std::int64_t mesh_y,
                        std::int64_t capacity_words, double read_pj, double write_pj,
                        double update_pj) {
    LevelModel l;
    l.instances = instances;
    l.mesh_x = mesh_x;
    l.mesh_y = mesh_y;
    l.capacity_words = capacity_words;
    l.may_hold = DataSpaceSet::all();
    l.word_bits = 32;
    l.read_pj = read_pj;
    l.write_pj = write_pj;
    l.update_pj = update_pj;
    return l;
}

// DRAM (unbounded) → RF (per PE) on a rows × columns array.
inline ArchModel two_level(std::int64_t rows, std::int64_t columns, std::int64_t rf_words) {
    ArchModel a;
    a.pe_rows = rows;
    a.pe_columns = columns;
    a.num_levels = 2;
    a.levels[0] = level(1, 1, 1, -1, 100, 100, 100);
    a.levels[1] = level(rows * columns, columns, rows, rf_words, 1, 2, 3);
    a.mac_pj = 0.5;
    return a;
}

// DRAM → GLB (shared) → RF (per PE), with three networks from the GLB: a
// column broadcast (multicast along y, 2 pJ/word), a row reduction (along x,
// 3 pJ/word) and a unicast network (4 pJ/word).
inline ArchModel three_level(std::int64_t rows, std::int64_t columns, std::int64_t glb_words,
                             std::int64_t rf_words) {
    ArchModel a;
    a.pe_rows = rows;
    a.pe_columns = columns;
    a.num_levels = 3;
    a.levels[0] = level(1, 1, 1, -1, 200, 200, 200);
    a.levels[1] = level(1, 1, 1, glb_words, 6, 6, 6);
    a.levels[2] = level(rows * columns, columns, rows, rf_words, 1, 1, 1);
    a.mac_pj = 1;
    a.num_networks = 3;
    const auto bus = [](DeliveryKind kind, AxisMask axes, double hop_pj) {
        NetworkModel n;
        n.parent = 1;
        n.carries = DataSpaceSet::all();
        n.kind = kind;
        n.axes = axes;
        n.hop_pj = hop_pj;
        return n;
    };
    a.networks[0] = bus(DeliveryKind::multicast, kAxisY, 2.0);
    a.networks[1] = bus(DeliveryKind::reduction, kAxisX, 3.0);
    a.networks[2] = bus(DeliveryKind::unicast, kAxisX | kAxisY, 4.0);
    return a;
}

}  // namespace trainloop::testing
