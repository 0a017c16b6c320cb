// Which share of a phase's MACs is effectual: every operand the phase reads
// is nonzero, and the output element it adds to is not a known zero (a
// density below 1 on the phase's output is a mask known before the phase
// runs, e.g. the gradients of pruned weights in wu: Eager Pruning, Zhang et
// al., ISCA 2019, §2.2 eq. (1) and §4.4, "the output of KU is sparse"). Operands are independent
// (docs/sparse_evaluation.md), so the share is the product of the three densities. The evaluator's
// effectual MAC count and a training run's MACs removed both read it.
//
// Contract: pure.
#pragma once

#include "sparse/phase_densities.hpp"

namespace trainloop {

double effectual_fraction(const PhaseDensities& densities);

}  // namespace trainloop
