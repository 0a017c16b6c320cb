#include "eval/energy_classes.hpp"

namespace trainloop {

EnergyClass energy_class_of(StorageClass storage) {
    switch (storage) {
        case StorageClass::regfile:
            return EnergyClass::rf;
        case StorageClass::sram:
            return EnergyClass::buffer;
        case StorageClass::dram:
            return EnergyClass::dram;
    }
    return EnergyClass::buffer;
}

std::array<double, kNumEnergyClasses> energy_by_class(const Architecture& arch,
                                                      const EnergyBreakdown& b) {
    std::array<double, kNumEnergyClasses> pj{};
    auto add = [&pj](EnergyClass c, double value) { pj[static_cast<std::size_t>(c)] += value; };
    for (std::size_t i = 0; i < b.num_levels; ++i) {
        // The metadata is part of the level's cells: moved to the overheads.
        add(energy_class_of(arch.levels[i].storage_class), b.component_pj(i) - b.level_metadata[i]);
        add(EnergyClass::sparse_overhead, b.level_metadata[i]);
    }
    add(EnergyClass::mac, b.component_pj(b.mac_component()));
    for (std::size_t n = 0; n < b.num_networks; ++n) {
        add(EnergyClass::network, b.component_pj(b.network_component(n)));
    }
    // The balancing words were priced as hops of one network.
    add(EnergyClass::network, -b.balancing);
    add(EnergyClass::sparse_overhead, b.balancing);
    return pj;
}

}  // namespace trainloop
