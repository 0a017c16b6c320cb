// ArchModel: the numeric view of an Architecture that the evaluator reads.
//
// Built once per architecture (names resolved, components priced at each
// level's capacity and width, array geometry per level), then read-only and
// shared by every thread, so evaluation never touches strings or allocates.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "arch/architecture.hpp"
#include "arch/sparse_features.hpp"
#include "vocabulary/limits.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

inline constexpr std::size_t kMaxNetworks = 8;

// A set of data spaces per training phase (a sparse feature's conditions can
// differ by phase). insert(s) adds s in every phase.
struct PhaseDataSpaces {
    PerPhase<DataSpaceSet> by_phase{};

    const DataSpaceSet& in(Phase p) const { return by_phase[p]; }
    void insert(DataSpace s) {
        for (DataSpaceSet& set : by_phase) set.insert(s);
    }
    void insert(DataSpace s, Phase p) { by_phase[p].insert(s); }
};

struct LevelModel {
    std::int64_t instances = 1;
    // Instances laid out over the array: mesh_x along the columns, mesh_y
    // along the rows (a per-PE level: columns × rows; a shared buffer: 1 × 1).
    std::int64_t mesh_x = 1;
    std::int64_t mesh_y = 1;
    // Per instance; -1 = unbounded. A partitioned level (metadata_share):
    // the data part, with the metadata part in metadata_capacity_words.
    std::int64_t capacity_words = -1;
    std::int64_t metadata_capacity_words = -1;  // -1: unified (data and metadata share)
    std::int64_t word_bits = 0;                 // bits of one word (one datum)
    double read_bandwidth = 0;                  // words/cycle per instance; 0 = no limit
    double write_bandwidth = 0;
    double shared_bandwidth = 0;  // reads + writes, words/cycle per instance; 0 = no limit
    DataSpaceSet may_hold;
    double read_pj = 0;  // per word
    double write_pj = 0;
    double update_pj = 0;
    double leakage_mw = 0;  // per instance
    double area_um2 = 0;    // per instance
    // Sparse features (arch/sparse_features.hpp), by data space: the format
    // it is kept in (by phase), and the data spaces whose zeros skip (or gate)
    // its accesses here (empty: none).
    PerDataSpace<PerPhase<CompressedFormat>> format{};
    PerDataSpace<PerPhase<std::int64_t>> index_bits{};  // 0: derived from the tile
    PerDataSpace<PerPhase<RankFormats>> ranks{};        // a fibertree format's ranks
    PerDataSpace<PhaseDataSpaces> skip_when_zero{};
    PerDataSpace<PhaseDataSpaces> gate_when_zero{};

    CompressedFormat format_in(DataSpace s, Phase p) const { return format[s][p]; }
    std::int64_t index_bits_in(DataSpace s, Phase p) const { return index_bits[s][p]; }
    const RankFormats& ranks_in(DataSpace s, Phase p) const { return ranks[s][p]; }
    // The same format in every phase.
    void set_format(DataSpace s, CompressedFormat f) { format[s].fill(f); }
};

// How words of a data space cross into the PE array from a level above it.
enum class DeliveryKind : std::uint8_t { unicast, multicast, reduction };
inline constexpr std::array<std::string_view, 3> kDeliveryKindNames = {"unicast", "multicast",
                                                                       "reduction"};

constexpr std::string_view delivery_kind_name(DeliveryKind k) {
    return kDeliveryKindNames[static_cast<std::size_t>(k)];
}

// Which array axes a multicast or reduction spans (bit 0: x, bit 1: y).
using AxisMask = std::uint8_t;
inline constexpr AxisMask kAxisX = 1;
inline constexpr AxisMask kAxisY = 2;

// "along x", "along y", "along x and y", or "to single PEs" (no axis).
constexpr std::string_view axes_text(AxisMask axes) {
    if (axes == (kAxisX | kAxisY)) return "along x and y";
    return axes == kAxisX ? "along x" : axes == kAxisY ? "along y" : "to single PEs";
}

struct NetworkModel {
    std::int64_t parent = 0;  // level index
    DataSpaceSet carries;
    DeliveryKind kind = DeliveryKind::unicast;  // broadcast and multicast are both multicast
    AxisMask axes = kAxisX | kAxisY;            // the axes it runs along
    NetworkTopology topology = NetworkTopology::bus;
    double hop_pj = 0;     // per word per link
    double router_pj = 0;  // per word per router it crosses
    double bandwidth = 0;  // words/cycle per link; 0 = no limit
};

struct ArchModel {
    std::array<LevelModel, kMaxLevels> levels{};
    std::size_t num_levels = 0;
    std::array<NetworkModel, kMaxNetworks> networks{};
    std::size_t num_networks = 0;
    std::int64_t pe_rows = 1;
    std::int64_t pe_columns = 1;
    std::int64_t macs_per_pe = 1;
    double mac_pj = 0;
    double mac_leakage_mw = 0;  // per MAC unit
    double mac_area_um2 = 0;    // per MAC unit
    double units_area_um2 = 0;  // the architecture's logic units, all instances
    double clock_ghz = 1.0;
    // The phases' units (pe_array.hpp): shared, a training step takes the sum
    // of its phases' cycles; separate, the slowest phase's.
    PhaseUnits phase_units = PhaseUnits::shared;
    // MACs are skipped (gated) when an operand on one of these data spaces is
    // zero (the `compute` entries of `skipping` / `gating`).
    PhaseDataSpaces compute_skip;
    PhaseDataSpaces compute_gate;
    // Of compute_gate, the conditions whose gated MACs save only their own
    // energy (every gating entry on them says `saves: mac`); on the others a
    // gated MAC also saves its accesses at the level serving the MACs.
    PhaseDataSpaces compute_gate_mac_only;
    LoadBalancing load_balancing;
    bool has_sparse_features = false;  // any format, skipping, gating or balancing

    std::int64_t num_macs() const { return pe_rows * pe_columns * macs_per_pe; }
    // Area of the components of an EnergyBreakdown (levels, MAC array,
    // networks — the networks' wires are counted in the PEs and buffers), and
    // in total, logic units included: every instance counts, used or not.
    double component_area_um2(std::size_t component) const;
    double area_um2() const;
    // How many instances of level i+1 each instance of level i feeds along
    // each array axis; below the innermost level, the MACs of a PE (along x).
    std::int64_t fanout_x(std::size_t i) const {
        return i + 1 < num_levels ? levels[i + 1].mesh_x / levels[i].mesh_x : macs_per_pe;
    }
    std::int64_t fanout_y(std::size_t i) const {
        return i + 1 < num_levels ? levels[i + 1].mesh_y / levels[i].mesh_y : 1;
    }
    // The network that carries `space` down from level `parent`: one of
    // `kind` whose axes cover `axes` (the axes the multicast or reduction
    // spans), else a unicast network (it delivers anything, PE by PE); -1
    // when none fits. A unicast delivery has axes 0.
    int network_for(std::size_t parent, DataSpace space, DeliveryKind kind, AxisMask axes) const;
    // Whether any network carries `space` from level `parent`.
    bool has_network_from(std::size_t parent, DataSpace space) const;
};

// Throws SpecError when the architecture has more levels or networks than
// the evaluator supports (kMaxLevels, kMaxNetworks).
ArchModel build_arch_model(const Architecture& arch);

}  // namespace trainloop
