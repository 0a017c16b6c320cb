#include "eval/layer_phase_metrics.hpp"

namespace trainloop {

LayerPhaseMetrics layer_phase_metrics(const Evaluation& e) {
    const BalancedSpreads spread = balanced_spreads(e.imbalance);
    LayerPhaseMetrics m;
    m.cycles = e.cycles;
    m.energy_pj = e.energy_pj;
    m.utilization = e.utilization;
    m.offchip_words = offchip_words(e);
    m.effectual_macs = e.counts.effectual_macs;
    m.performed_macs = e.counts.macs_performed;
    m.imbalance_cycles = e.imbalance.imbalance_cycles;
    m.imbalance_pct = e.imbalance.imbalance_pct;
    m.workload_stddev = e.imbalance.workload_stddev;
    m.workload_stddev_coarse = spread.coarse;
    m.workload_stddev_two_level = spread.two_level;
    return m;
}

}  // namespace trainloop
