// Pieces the closed-form and the Monte-Carlo load-imbalance models share
// (load_imbalance.hpp): the words a scheme moves, the summary of per-wave
// results, and the Monte-Carlo entry point.
#pragma once

#include "imbalance/load_imbalance.hpp"
#include "imbalance/wave_shape.hpp"

namespace trainloop::imbalance_detail {

// The array axis a scheme balances along, as 0 (x) or 1 (y); -1 for none.
int balancing_axis(const LoadBalancing& balancing);

// Half-tile pairing: the words moved per wave. Every PE ends up with one of
// its own halves and one foreign half (the pairs form cycles over the PEs of
// a line, and each pair can run on a PE that holds one of its halves), so
// every PE receives a half tile from its partner: half the condition
// operand's expected nonzeros, and sends back half its partial sums
// (Procrustes fig. 12), plus — the interconnect constraint of fig. 10 — the
// whole tile of every other input that differs along the balancing axis (it
// is no longer the one its row or column broadcasts).
// `operand_nonzeros`: the expected nonzeros of a PE's condition-operand tile.
double pairing_words_per_wave(const PhaseProblem& problem, const WaveShape& wave,
                              double operand_nonzeros, int axis);

// The PEs along the balancing axis (the line a half tile travels along).
std::int64_t pes_along(const WaveShape& wave, int axis);

// Fills the derived fields (imbalance cycles and %).
void finish(LoadImbalance& result);

LoadImbalance monte_carlo(const ArchModel& arch, const PhaseProblem& problem, const WaveShape& wave,
                          const PhaseDensities& densities, const ImbalanceOptions& options);

}  // namespace trainloop::imbalance_detail
