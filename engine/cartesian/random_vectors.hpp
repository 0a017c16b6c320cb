// How many F- or I-wide vectors the slowest of several PEs fetches when the
// zeros of its operand fall at random (ReSprop thesis §7.5.4: its simulator,
// DNNsim, is driven by the real tensors of training, so each PE holds the
// nonzeros its part of the tensor happens to have).
//
// Model: PE p holds n_p positions of an operand whose elements are nonzero
// independently with probability d (uniform zeros, as everywhere in
// trainloop's density models), so it holds X_p ~ Binomial(n_p, d) nonzeros
// and fetches ⌈X_p / width⌉ vectors of them. The PEs wait for each other at
// every (sample, channel) step of the Cartesian-product dataflow (DNNsim's
// SCNN, core/src/SCNN.cpp, computeSCNNTile: each step lasts as long as its
// slowest PE), so a step lasts E[max_p ⌈X_p / width⌉] vectors:
//   E[max] = Σ_{k >= 1} P(max >= k) = Σ_{k >= 1} (1 − Π_p P(X_p <= (k − 1)·width)),
// the PEs being independent. With one PE it is E[⌈X / width⌉]; with d = 1
// it is max_p ⌈n_p / width⌉, the expected-count model's figure.
//
// The loop-nest model's load imbalance sums the same order statistics
// (imbalance/expected_maximum.hpp, expected_maximum_binomial: identical PEs,
// no ceiling, allocation-free for the mapper's inner loop); here PEs may hold
// shares of different sizes (SCNN's edge tiles) and count whole vectors, and
// the Cartesian-product evaluator runs once per layer-phase, not per mapping.
#pragma once

#include <cstdint>
#include <span>

namespace trainloop {

// E[max over PEs p of ⌈X_p / width⌉], X_p ~ Binomial(positions[p], density),
// independent. Preconditions: every positions[p] >= 0, 0 < density <= 1,
// width >= 1. 0 for no PEs.
double expected_max_vectors(std::span<const std::int64_t> positions, double density,
                            std::int64_t width);

}  // namespace trainloop
