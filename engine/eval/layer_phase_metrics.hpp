// The metrics of one evaluated mapping (vocabulary/layer_phase_metrics.def),
// computed from an Evaluation in one place: the search keeps them for the
// mappings it keeps, and the results store, JSON and reports take them from
// there without evaluating again.
#pragma once

#include "eval/evaluation.hpp"
#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {

// `e` must be valid. The balanced spreads are derived from e.imbalance
// (balanced_spreads()), so an evaluation that left them out gives the same
// metrics as one that estimated them.
LayerPhaseMetrics layer_phase_metrics(const Evaluation& e);

}  // namespace trainloop
