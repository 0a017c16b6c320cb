#include "timeloop/timeloop_sparse_import.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string_view>

#include "common/spec_error.hpp"
#include "sparse/condition_tile.hpp"
#include "sparse/tensor_tile.hpp"

namespace trainloop {
namespace {

// A stated field width: where it was given, and what it is.
struct StatedWidth {
    std::int64_t bits = 0;
    SourceLocation location;
    const char* key = "";
};

// The `index_bits` of an imported fibertree: the width its ranks state for
// their index fields (CP coordinates and RLE run lengths: metadata; UOP
// offsets and the pointers above the leaf: payload) when they state one width
// for all, else the level's `metadata_datawidth` (Sparseloop's width of every
// unit but a bitmask's bits), else 0: each field as wide as the tile needs.
// A width trainloop does not read (a mask wider than 1 bit, the leaf's
// payload: the data) is named in a note.
std::int64_t import_index_bits(const TimeloopRepresentation& r, const TimeloopStorage* storage,
                               std::vector<std::string>& notes) {
    std::vector<StatedWidth> index_fields;
    std::vector<StatedWidth> unread;
    for (std::size_t i = 0; i < std::min(r.ranks.size(), r.widths.size()); ++i) {
        const TimeloopRankWidths& w = r.widths[i];
        const bool mask = r.ranks[i] == "B" || r.ranks[i] == "UB";
        const bool leaf = i + 1 == r.ranks.size();
        if (w.metadata_bits) {
            const StatedWidth stated{*w.metadata_bits, w.metadata_location, "metadata-word-bits"};
            const bool one_bit_mask = mask && stated.bits == 1;
            if (!one_bit_mask)
                (mask || r.ranks[i] == "UOP" ? unread : index_fields).push_back(stated);
        }
        if (w.payload_bits) {
            const StatedWidth stated{*w.payload_bits, w.payload_location, "payload-word-bits"};
            (leaf && r.ranks[i] != "UOP" ? unread : index_fields).push_back(stated);
        }
    }
    std::int64_t bits = 0;
    if (!index_fields.empty()) {
        const std::int64_t first = index_fields.front().bits;
        const bool one_width = std::all_of(index_fields.begin(), index_fields.end(),
                                           [&](const StatedWidth& w) { return w.bits == first; });
        if (one_width && first >= 1 && first <= kMaxIndexBits) {
            bits = first;
        } else {
            // A plain copy, not std::views::transform: clang 14 (the fuzz build)
            // cannot compile libstdc++ 12's views.
            std::vector<std::int64_t> widths;
            for (const StatedWidth& w : index_fields) widths.push_back(w.bits);
            notes.push_back(fmt::format(
                "{}: the index widths {} at `{}` are not read: trainloop's fibertree takes one "
                "width of 1 to {} bits for its index fields (`index_bits`); each field is as "
                "wide as the tile needs",
                format_location(index_fields.front().location), fmt::join(widths, ", "), r.level,
                kMaxIndexBits));
        }
    } else if (storage != nullptr && storage->metadata_word_bits) {
        const std::int64_t stated = *storage->metadata_word_bits;
        if (stated >= 1 && stated <= kMaxIndexBits) {
            bits = stated;
        } else {
            notes.push_back(fmt::format(
                "{}: `metadata_datawidth: {}` of `{}` is not read: trainloop's fibertree takes "
                "a width of 1 to {} bits for its index fields; each field is as wide as the "
                "tile needs",
                format_location(storage->location), stated, r.level, kMaxIndexBits));
        }
    }
    // One note per key, at its first rank: a tile written with a rank per loop
    // states the same width on many ranks.
    for (const char* key : {"metadata-word-bits", "payload-word-bits"}) {
        const StatedWidth* first = nullptr;
        int ranks = 0;
        for (const StatedWidth& w : unread) {
            if (w.bits == 0 || std::string_view(w.key) != key) continue;  // 0: no such field
            if (first == nullptr) first = &w;
            ++ranks;
        }
        if (first == nullptr) continue;
        notes.push_back(fmt::format(
            "{}: `{}`{} is not read: a bitmask's bits are 1 bit wide, and the leaf's payload "
            "is the data (docs/sparse_formats.md, \"Fibertree formats\")",
            format_location(first->location), key,
            ranks > 1 ? fmt::format(" (on {} ranks at `{}`)", ranks, r.level) : std::string()));
    }
    return bits;
}

// Sparseloop's rank list as a fibertree format (sparse/fibertree.hpp), its
// outermost ranks beyond kMaxRanks left out: they matter only to a tile with
// more loops than kMaxRanks, whose outer loops the top kept rank then takes.
RankFormats import_ranks(const TimeloopRepresentation& r, std::vector<std::string>& notes) {
    const std::size_t dropped = r.ranks.size() > kMaxRanks ? r.ranks.size() - kMaxRanks : 0;
    if (dropped > 0) {
        notes.push_back(fmt::format(
            "{}: {} at `{}` lists {} ranks: the outermost {} are left out (trainloop keeps at "
            "most {}; a tile with more loops flattens its outer loops into the top rank)",
            format_location(r.location), kTimeloopSpaceNames[std::size_t(r.space)], r.level,
            r.ranks.size(), dropped, kMaxRanks));
    }
    RankFormats ranks;
    // The reader took only known names (timeloop_sparse_reader.cpp).
    for (std::size_t i = dropped; i < r.ranks.size(); ++i)
        ranks.push_back(*rank_format_named(r.ranks[i]));
    return ranks;
}

FormatEntry import_format(const TimeloopRepresentation& r, const TimeloopSpec& spec,
                          std::vector<std::string>& notes) {
    const TimeloopStorage* storage = nullptr;
    for (const TimeloopStorage& s : spec.arch.storage) {
        if (s.name == r.level) storage = &s;
    }
    FormatEntry entry;
    entry.level = r.level;
    entry.data_space = to_data_space(r.space);
    entry.format = CompressedFormat::fibertree;
    entry.ranks = import_ranks(r, notes);
    entry.index_bits = import_index_bits(r, storage, notes);
    return entry;
}

SparseActionEntry import_action(const TimeloopActionOptimization& a) {
    SparseActionEntry entry;
    entry.level = a.level;
    entry.target = to_data_space(a.target);
    for (TimeloopDataSpace s : a.condition_on) entry.condition_on.insert(to_data_space(s));
    return entry;
}

// The innermost level of the mapping that keeps `space`: the one that serves the MACs.
std::optional<std::size_t> serving_level(const Mapping& m, DataSpace space) {
    for (std::size_t i = m.num_levels; i-- > 0;) {
        if (m.level(i).keep.contains(space)) return i;
    }
    return std::nullopt;
}

// Operands that are not there at the level serving the MACs (Sparseloop's
// NOT_EXIST state): kept compressed there, or skipped there.
DataSpaceSet absent_operands(const SparseFeatures& f, const Architecture& arch, const Mapping& m) {
    DataSpaceSet absent;
    for (DataSpace s : {DataSpace::weights, DataSpace::inputs}) {
        const auto level = serving_level(m, s);
        if (!level) continue;
        const std::string& name = arch.levels[*level].name;
        const bool compressed = f.format_of(name, s, Phase::fw) != CompressedFormat::uncompressed;
        const bool skipped = std::any_of(
            f.skipping.begin(), f.skipping.end(),
            [&](const SparseActionEntry& e) { return e.level == name && e.target == s; });
        if (compressed || skipped) absent.insert(s);
    }
    return absent;
}

SparseActionEntry compute_entry(DataSpaceSet condition_on) {
    SparseActionEntry entry;
    entry.level = std::string(kComputeLevel);
    entry.target = DataSpace::outputs;
    entry.condition_on = condition_on;
    return entry;
}

// Sparseloop carries a skip or gate of an operand's reads on to the MACs: it
// removes the share of the computes whose reads the innermost level
// optimizing a read-only data space skipped or gated (Timeloop v3.0.3,
// src/sparse-analysis/storage-optimization-combiner.cpp). Where that level
// serves the MACs and each read meets one element of each condition operand
// (no spatial loop below it spreads the read over several), that share is
// exactly the MACs with a zero condition element, and trainloop states it as
// a `compute` entry of the same kind on the same condition. A read that meets
// a larger condition tile is skipped only when all of it is zero, which no
// per-element `compute` entry expresses; above the serving level Sparseloop's
// tile differs from trainloop's (difference 5 of docs/timeloop_interop.md).
// Nothing is carried there, and a note says so. The output is read-write:
// Sparseloop carries nothing from it, and neither does the import.
void carry_actions_to_macs(const TimeloopSpec& spec, const Architecture& arch,
                           const PhaseProblem& problem, const Mapping& mapping,
                           ImportedSparsity& out) {
    for (const TimeloopActionOptimization& a : spec.sparse.actions) {
        if (a.target == TimeloopDataSpace::outputs) continue;
        const DataSpace target = to_data_space(a.target);
        const auto level = serving_level(mapping, target);
        if (!level || arch.levels[*level].name != a.level) continue;
        const SparseActionEntry storage = import_action(a);
        const DimBounds box = serving_condition_box(problem, mapping, *level, target);
        std::int64_t tile = 1;
        for (DataSpace c : kAllDataSpaces) {
            if (storage.condition_on.contains(c))
                tile = std::max(tile, tile_of(problem.projection(c), box).elements());
        }
        const bool skipping = a.kind == TimeloopActionOptimization::Kind::skipping;
        const char* verb = skipping ? "skips" : "gates";
        if (tile > 1) {
            out.notes.push_back(fmt::format(
                "{}: {} {} reads at `{}`, the level serving the MACs, meets {} condition "
                "elements per read (spatial loops below it): Sparseloop also {} the MACs of "
                "the reads it {}, which a per-element `compute` entry cannot state; none is "
                "added",
                format_location(a.location), skipping ? "skipping" : "gating",
                kTimeloopSpaceNames[std::size_t(a.target)], a.level, tile, verb, verb));
            continue;
        }
        SparseActionEntry macs = compute_entry(storage.condition_on);
        // A gated MAC saves only itself, as Sparseloop counts it; a skipped
        // one is not done, so trainloop does not read its other operands
        // nor update its output (Sparseloop does: difference 2).
        macs.saves_mac_only = !skipping;
        (skipping ? out.features.skipping : out.features.gating).push_back(macs);
        out.notes.push_back(fmt::format(
            "{}: {} {} reads at `{}`, the level serving the MACs, also {} the MACs that would "
            "use them, as in Sparseloop: imported as a `compute` {} entry on the same "
            "condition{}",
            format_location(a.location), skipping ? "skipping" : "gating",
            kTimeloopSpaceNames[std::size_t(a.target)], a.level, verb,
            skipping ? "skipping" : "gating",
            skipping ? ", which (unlike Sparseloop) also saves those MACs' other accesses there"
                     : " that saves only the MAC (`saves: mac`)"));
    }
}

OperandDensity import_density(const TimeloopDensity& d, TimeloopDataSpace space) {
    if (d.distribution == "banded") {
        throw SpecError(d.location, "distribution",
                        "Sparseloop's `banded` distribution has no trainloop density model",
                        "fixed-structured (trainloop: even) or hypergeometric",
                        "trainloop's models are uniform, even, hypergeometric, n_m, clustered "
                        "and mask (docs/sparsity_format.md)");
    }
    if (space == TimeloopDataSpace::outputs && d.density < 1.0) {
        throw SpecError(
            d.location, "Outputs",
            fmt::format("an Outputs density of {}: Sparseloop reads it as the density of the "
                        "computed result, trainloop as a known-zero mask of outputs not to "
                        "compute",
                        d.density),
            "Outputs dense (1.0)", "give Weights and Inputs densities only");
    }
    // Both distributions are trainloop models exactly: fixed-structured is
    // `even`; `hypergeometric` takes its population from the layer when
    // evaluated.
    if (d.distribution == "fixed-structured") return OperandDensity{d.density, EvenModel{}};
    return OperandDensity{d.density, HypergeometricModel{}};
}

}  // namespace

ImportedSparsity import_sparsity(const TimeloopSpec& spec, const Architecture& arch,
                                 const PhaseProblem& problem, const Mapping& mapping) {
    ImportedSparsity out;
    for (const TimeloopRepresentation& r : spec.sparse.formats) {
        out.features.formats.push_back(import_format(r, spec, out.notes));
    }
    for (const TimeloopActionOptimization& a : spec.sparse.actions) {
        auto& entries = a.kind == TimeloopActionOptimization::Kind::skipping ? out.features.skipping
                                                                             : out.features.gating;
        entries.push_back(import_action(a));
    }
    carry_actions_to_macs(spec, arch, problem, mapping, out);
    if (const auto& compute = spec.sparse.compute) {
        if (compute->skipping) {
            out.notes.push_back(fmt::format(
                "{}: a skipped MAC here also saves its operands' reads and its output's update "
                "at the levels serving the MACs (docs/sparse_evaluation.md); Sparseloop saves "
                "only the MAC unless those levels have action optimizations of their own",
                format_location(compute->location)));
            const DataSpaceSet absent = absent_operands(out.features, arch, mapping);
            if (absent.empty()) {
                out.notes.push_back(fmt::format(
                    "{}: compute skipping skips nothing here: no operand is compressed or "
                    "skipped at the level that serves the MACs",
                    format_location(compute->location)));
            } else {
                out.features.skipping.push_back(compute_entry(absent));
            }
        }
        if (compute->gating) {
            // Sparseloop's gated MAC saves only itself: `saves: mac`.
            DataSpaceSet operands;
            operands.insert(DataSpace::weights);
            operands.insert(DataSpace::inputs);
            SparseActionEntry gate = compute_entry(operands);
            gate.saves_mac_only = true;
            out.features.gating.push_back(gate);
        }
    }
    for (TimeloopDataSpace s :
         {TimeloopDataSpace::weights, TimeloopDataSpace::inputs, TimeloopDataSpace::outputs}) {
        if (const auto& d = spec.problem.densities[std::size_t(s)]) {
            out.densities.spaces[to_data_space(s)] = import_density(*d, s);
        }
    }
    return out;
}

}  // namespace trainloop
