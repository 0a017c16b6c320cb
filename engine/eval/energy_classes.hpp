// The energy of an evaluation by component class, the categories of
// Procrustes' energy breakdown (Yang et al., MICRO 2020, Fig. 17): the MAC
// datapath, the per-PE register files, on-chip buffers, DRAM, the on-chip
// networks, and the sparse overheads (format metadata read and written at
// every level, and the words a balancing scheme moves between PEs). Each
// component's leakage stays in its class. Reports read these classes from
// the results database (`results.energy_by_class`, docs/results_db.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/architecture.hpp"
#include "eval/evaluation.hpp"

namespace trainloop {

enum class EnergyClass : std::uint8_t { mac, rf, buffer, dram, network, sparse_overhead };
inline constexpr std::size_t kNumEnergyClasses = 6;
inline constexpr std::array<std::string_view, kNumEnergyClasses> kEnergyClassNames = {
    "MAC", "RF", "buffer", "DRAM", "network", "sparse_overhead"};

constexpr std::string_view energy_class_name(EnergyClass c) {
    return kEnergyClassNames[static_cast<std::size_t>(c)];
}

// The class a storage level's energy belongs to (regfile: RF, sram: buffer,
// dram: DRAM).
EnergyClass energy_class_of(StorageClass storage);

// pJ per class, indexed by EnergyClass, of an evaluation's energy breakdown
// (Evaluation::energy); sums to its energy_pj up to rounding. `arch` is the
// architecture it was evaluated on.
std::array<double, kNumEnergyClasses> energy_by_class(const Architecture& arch,
                                                      const EnergyBreakdown& energy);

}  // namespace trainloop
