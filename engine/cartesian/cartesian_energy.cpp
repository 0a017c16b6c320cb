#include "cartesian/cartesian_energy.hpp"

#include <numeric>
#include <stdexcept>

#include "common/finite.hpp"

namespace trainloop {

double CartesianEnergy::network_total_pj() const {
    return std::accumulate(network_pj.begin(), network_pj.end(), 0.0);
}

double CartesianEnergy::leak_total_pj() const {
    return std::accumulate(level_leak_pj.begin(), level_leak_pj.end(), mac_leak_pj);
}

double CartesianEnergy::total_pj() const {
    return multiply_pj + operand_read_pj + accumulate_pj + offchip_pj + network_total_pj() +
           leak_total_pj();
}

CartesianEnergy& CartesianEnergy::operator+=(const CartesianEnergy& other) {
    multiply_pj += other.multiply_pj;
    operand_read_pj += other.operand_read_pj;
    accumulate_pj += other.accumulate_pj;
    offchip_pj += other.offchip_pj;
    for (std::size_t n = 0; n < network_pj.size(); ++n) network_pj[n] += other.network_pj[n];
    for (std::size_t l = 0; l < level_leak_pj.size(); ++l)
        level_leak_pj[l] += other.level_leak_pj[l];
    mac_leak_pj += other.mac_leak_pj;
    return *this;
}

CartesianEnergy price_cartesian(const CartesianCost& cost, const CartesianOffchip& offchip,
                                const CartesianRun& run, const ArchModel& arch) {
    if (arch.num_levels == 0) throw std::invalid_argument("price_cartesian: no storage level");
    const LevelModel& outer = arch.levels[0];
    const LevelModel& inner = arch.levels[arch.num_levels - 1];
    CartesianEnergy e;
    // SCNN §III: all F × I pairs are multiplied, used or not.
    e.multiply_pj = cost.issued_products * arch.mac_pj;
    e.operand_read_pj = (cost.tiled_operand_reads + cost.broadcast_operand_reads) * inner.read_pj;
    // SCNN §IV: a used product is added into its accumulator bank.
    e.accumulate_pj = cost.used_products * inner.update_pj;
    e.offchip_pj = (offchip.tiled_words + offchip.broadcast_words) * outer.read_pj +
                   offchip.output_words * outer.write_pj;
    e.network_pj = cartesian_network_energy(cost, offchip, run, arch);
    // mW × cycles / GHz is pJ; every instance leaks, idle or not (evaluation.cpp).
    const double leak_factor = double(run.cycles) / arch.clock_ghz;
    for (std::size_t i = 0; i < arch.num_levels; ++i)
        e.level_leak_pj[i] =
            arch.levels[i].leakage_mw * double(arch.levels[i].instances) * leak_factor;
    e.mac_leak_pj = arch.mac_leakage_mw * double(arch.num_macs()) * leak_factor;
    require_finite("price_cartesian", {{"the energy", e.total_pj()}});
    return e;
}

}  // namespace trainloop
