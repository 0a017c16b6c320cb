// StorageLevel: one level of the storage hierarchy (DRAM, a global buffer, a
// per-PE register file, ...). Plain value; the parser (architecture_parser.hpp)
// guarantees: a non-empty unique name, a positive capacity that holds at least
// one word (none only for an unbounded dram level), positive word width and
// bandwidths, at least one data space, and an instance count that divides the
// number of PEs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/spec_error.hpp"
#include "vocabulary/data_space_set.hpp"

namespace trainloop {

enum class StorageClass : std::uint8_t { dram, sram, regfile };
inline constexpr std::array<std::string_view, 3> kStorageClassNames = {"dram", "sram", "regfile"};

constexpr std::string_view storage_class_name(StorageClass c) {
    return kStorageClassNames[static_cast<std::size_t>(c)];
}

struct StorageLevel {
    std::string name;
    StorageClass storage_class = StorageClass::sram;
    // Bytes per instance; nullopt means unbounded (only a dram level).
    std::optional<std::int64_t> capacity_bytes;
    // Width of one word (one datum moved per access), in bits.
    std::int64_t word_bits = 0;
    // Words per cycle per instance; nullopt means not a limit.
    std::optional<double> read_bandwidth;
    std::optional<double> write_bandwidth;
    // Words per cycle per instance that reads and writes share (one bus for
    // both, as a DRAM channel); nullopt means not a limit. Applies together
    // with the two above when they are given too.
    std::optional<double> shared_bandwidth;
    // Data spaces this level may hold; the others bypass it.
    DataSpaceSet data_spaces;
    // How many copies of this level exist (1 for a shared buffer, the number
    // of PEs for a per-PE register file).
    std::int64_t instances = 1;
    // True when the level was declared `per_pe: true` (instances = #PEs).
    bool per_pe = false;
    // A partitioned SRAM (Chen et al. 2024 §V-A: "SCNN and SIGMA reserve 20 %
    // of each on-chip SRAM for the indices"): this fraction of the capacity
    // holds compressed formats' metadata only, the rest data only. Absent:
    // unified, data and metadata share the whole capacity.
    std::optional<double> metadata_share;
    // The component-library entry that prices its accesses and area.
    std::string component;
    // Where `capacity` is written and its key path, for errors found when the
    // level meets a workload (e.g. an outermost level too small for the weights).
    SourceLocation capacity_location;
    std::string capacity_key;

    bool holds(DataSpace s) const { return data_spaces.contains(s); }
    bool unbounded() const { return !capacity_bytes.has_value(); }
    // Whole words per instance; nullopt when unbounded.
    std::optional<std::int64_t> capacity_words() const {
        if (!capacity_bytes) return std::nullopt;
        return *capacity_bytes * 8 / word_bits;
    }
};

}  // namespace trainloop
