// `trainloop cartesian`: a network's conv layer-phases on a Cartesian-product
// (SCNN-style) PE array, cartesian/cartesian_product.hpp — the products issued,
// used and unused, the Cartesian-product cycles in which every product is
// unused (the ReSprop thesis's Table 6.1 metric), the accumulator-bank
// stalls and the slowest PE's cycles (docs/cartesian_product.md). JSON:
//   {"network", "batch", "config": {"pes", "tiles", "filter_vector", "input_vector",
//    "accumulator_banks", "input_density", "filter_density", "unused_rule", "sparsity",
//    "tiling", "predictor", "zeros"},
//    "conflict_stall_per_cycle", "layers": [{"layer", "phase",
//    "issued_products", "used_products", "unused_products", "unused_pct",
//    "product_cycles", "skipped_product_cycles", "dense_product_cycles", "all_unused_cycles",
//    "all_unused_pct", "slowest_pe_cycles", "busy_pes"}, ...],
//    "totals": {"fw"|"bw"|"wu": {the same sums and shares}}, "skipped": [names]}
#pragma once

namespace CLI {
class App;
}  // namespace CLI

namespace trainloop::cli {

void add_cartesian_command(CLI::App& app);

}  // namespace trainloop::cli
