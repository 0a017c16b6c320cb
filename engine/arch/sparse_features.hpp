// SparseFeatures: where an architecture can exploit sparsity. This module
// only gives the features a place in the schema and checks their references;
// what they cost and save is defined by the sparse evaluator (a later issue).
//   - formats: the compressed format of a data space at a storage level
//     (anything not listed is uncompressed);
//   - skipping / gating: at a level (or at `compute`, the MACs), accesses to
//     the `target` data space are skipped (no time spent) or gated (the cycle
//     is spent, the energy is not) when a `condition_on` data space is zero
//     (Sparseloop's terms);
//   - load balancing across the PE array (Procrustes §IV-C half-tile pairing,
//     Chen et al.'s (2024) two-level work stealing, Eager Pruning's flexible PE
//     allocation), with the array axis it balances along.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vocabulary/array_axis.hpp"
#include "vocabulary/data_space_set.hpp"
#include "vocabulary/fixed_list.hpp"
#include "vocabulary/per_space.hpp"

namespace trainloop {

// The pseudo-level name for skipping/gating at the MAC datapath.
inline constexpr std::string_view kComputeLevel = "compute";

// `fibertree`: a format per rank of the tile (`ranks:`, sparse/fibertree.hpp).
enum class CompressedFormat : std::uint8_t {
    uncompressed,
    bitmap,
    csr,
    rle,
    coo,
    csb,
    rp_dual,
    fibertree
};
inline constexpr std::array<std::string_view, 8> kCompressedFormatNames = {
    "uncompressed", "bitmap", "csr", "rle", "coo", "csb", "rp_dual", "fibertree"};

// The formats whose index fields `index_bits:` can fix (RLE's: its run fields;
// a fibertree's: every field but its masks).
constexpr bool has_index_fields(CompressedFormat f) {
    return f == CompressedFormat::csr || f == CompressedFormat::rp_dual ||
           f == CompressedFormat::rle || f == CompressedFormat::fibertree;
}

// The format of one rank of a `fibertree` tile, in Sparseloop's names (Wu et
// al., MICRO 2022, Table II): uncompressed offset pairs, uncompressed
// bitmask, coordinate-payload, bitmask, run-length encoding.
enum class RankFormat : std::uint8_t { uop, ub, cp, b, rle };
inline constexpr std::array<std::string_view, 5> kRankFormatNames = {"UOP", "UB", "CP", "B", "RLE"};
constexpr std::string_view rank_format_name(RankFormat f) {
    return kRankFormatNames[static_cast<std::size_t>(f)];
}
// The rank format named `name` in upper or lower case, as Sparseloop reads
// them (metadata-format-factory.cpp); nullopt for any other name.
constexpr std::optional<RankFormat> rank_format_named(std::string_view name) {
    const auto same = [&](std::string_view known) {
        if (name.size() != known.size()) return false;
        for (std::size_t i = 0; i < name.size(); ++i) {
            const char c = name[i] >= 'a' && name[i] <= 'z' ? char(name[i] - 'a' + 'A') : name[i];
            if (c != known[i]) return false;
        }
        return true;
    };
    for (std::size_t i = 0; i < kRankFormatNames.size(); ++i) {
        if (same(kRankFormatNames[i])) return RankFormat(i);
    }
    return std::nullopt;
}
// A compressed rank keeps only its nonempty coordinates.
constexpr bool rank_compressed(RankFormat f) {
    return f == RankFormat::cp || f == RankFormat::b || f == RankFormat::rle;
}

// The most ranks a fibertree format may list.
inline constexpr std::size_t kMaxRanks = 16;

// A fibertree format's ranks, the top rank first. A plain value: the
// architecture model keeps one per level, data space and phase.
using RankFormats = FixedList<RankFormat, kMaxRanks>;

// The widest index field `index_bits:` accepts.
inline constexpr std::int64_t kMaxIndexBits = 64;

constexpr std::string_view compressed_format_name(CompressedFormat f) {
    return kCompressedFormatNames[static_cast<std::size_t>(f)];
}

enum class LoadBalancingScheme : std::uint8_t {
    none,
    half_tile_pairing,        // Procrustes §IV-C
    two_level_work_stealing,  // Chen et al. 2024 (coarse-grain + fine-grain)
    flexible_allocation,      // Eager Pruning
    line_indexing,            // Cambricon-X's rows, as Eager Pruning §4.1 and §5.2 describe them
};
inline constexpr std::array<std::string_view, 5> kLoadBalancingSchemeNames = {
    "none", "half_tile_pairing", "two_level_work_stealing", "flexible_allocation", "line_indexing"};

constexpr std::string_view load_balancing_scheme_name(LoadBalancingScheme s) {
    return kLoadBalancingSchemeNames[static_cast<std::size_t>(s)];
}

struct FormatEntry {
    std::string level;
    DataSpace data_space = DataSpace::weights;
    CompressedFormat format = CompressedFormat::uncompressed;
    // `index_bits:` the width of every index field of a `csr` or `rp_dual`
    // tile (row pointers or row headers, column indices), or of an `rle`
    // tile's run fields, as a paper states it (Chen et al. 2024 eqs. 5-8:
    // 8 bits; GSCN: 4); 0 derives each width from the tile (format_layout.hpp).
    std::int64_t index_bits = 0;
    // `ranks:` the per-rank formats of a `fibertree` entry, top rank first
    // (empty for every other format).
    RankFormats ranks{};
    // The training phases it applies in (`phases:`; all three when absent):
    // a data space holds a different tensor per phase (w in fw/bw, dw in wu),
    // and a design may compress one and not the other.
    PerPhase<bool> in_phase{true, true, true};
};

// One skipping or gating entry.
struct SparseActionEntry {
    std::string level;  // a storage level, or kComputeLevel
    DataSpace target = DataSpace::weights;
    DataSpaceSet condition_on;  // non-empty
    // The training phases it acts in (`phases:`; all three when absent).
    PerPhase<bool> in_phase{true, true, true};
    // Gating at `compute` only (`saves: mac`): a gated MAC saves its own
    // energy only; its operands are still read and its output updated at the
    // level serving the MACs (a gated multiplier in a datapath that runs on;
    // Sparseloop's compute gating). By default (`saves: mac_and_accesses`)
    // it saves those accesses too (docs/sparse_evaluation.md).
    bool saves_mac_only = false;
};

struct LoadBalancing {
    LoadBalancingScheme scheme = LoadBalancingScheme::none;
    std::optional<ArrayAxis> axis;  // none for scheme `none`
};

struct SparseFeatures {
    std::vector<FormatEntry> formats;
    std::vector<SparseActionEntry> skipping;
    std::vector<SparseActionEntry> gating;
    LoadBalancing load_balancing;

    // The format of `space` at `level` in `phase` (uncompressed when not listed).
    CompressedFormat format_of(std::string_view level, DataSpace space, Phase phase) const {
        for (const FormatEntry& f : formats) {
            if (f.level == level && f.data_space == space && f.in_phase[phase]) return f.format;
        }
        return CompressedFormat::uncompressed;
    }
    // True for a dense architecture (no sparse feature declared).
    bool dense() const {
        return formats.empty() && skipping.empty() && gating.empty() &&
               load_balancing.scheme == LoadBalancingScheme::none;
    }
};

}  // namespace trainloop
