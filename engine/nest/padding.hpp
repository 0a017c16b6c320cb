// Imperfect factors by padding: a mapping whose factors of a dimension
// multiply to more than the dimension's bound B (to a padded extent E, with
// B ≤ E < 2B) runs the loop nest of the padded problem, and the iterations
// past B do no work.
//
// The model (docs/nest_analysis.md, "Imperfect factors"), in the spirit of
// Timeloop's imperfect factorization (ruby mapspace) and ZigZag's uneven
// mappings, stated for what the nest analysis can count in closed form:
// - A dimension that indexes every tensor it indexes through a one-term
//   axis (N, K, C, G) may be padded: then each padded index value is one
//   whole slice of every tensor it indexes. A sliding-window dimension (P, Q,
//   R, S) may be padded too (the mapspace pads one only when asked:
//   MapspaceConstraints::imperfect_windows): it is a one-term axis of one
//   tensor (P, Q of the outputs; R, S of the weights), counted as above, and
//   one term of the inputs' window axis p·stride + r·dilation, which the
//   padded nest stretches past the input's edge; see the inputs below.
// - Time is a remainder tile's (Timeloop's): a step of the temporal loops in
//   which some PE does a real MAC takes its cycle (the PE columns holding
//   K = 1000..1023 in the last step of a 32-column array idle, as in
//   hardware, and utilization counts them as lost); a step wholly in the
//   padding is skipped. A dimension's temporal loops are independent of the
//   others', so the compute cycles are Π over dimensions of the steps of
//   their temporal loops whose offset (spatial position 0) is below B.
// - Data moves as the padded nest moves it: a padded iteration's tiles take
//   the place of the level's previous ones (holding no real words of the
//   tensors the padding indexes). A machine that skips wholly padded tiles
//   and keeps what it held can move fewer words: for it the counts are an
//   upper bound.
// - MACs are the problem's. A tensor a padded dimension indexes through a
//   one-term axis moves only its real words: in the padded nest every index
//   value of that dimension is moved equally often (tiles step along a
//   one-term axis in whole, aligned blocks), so the real counts are the
//   padded counts times B/E, exactly (per instance to the nearest word:
//   where the padded dimension is spread over the instances, the average can
//   be a fraction). The tiles (capacity) are clipped to B.
// - A tensor a padded dimension indexes through a window axis (the inputs,
//   by a padded P, Q, R or S) is counted as the padded nest moves it: its
//   tiles past the edge count words that do not exist, so its counts are an
//   upper bound (a machine that skips the padded positions moves no more).
//   Its tiles too are clipped to the real problem.
// - A tensor a padded dimension does not index is counted as the padded nest
//   moves it: exact where the padding lies in spatial loops the tensor is
//   multicast across (a systolic row still streams its inputs past idle
//   columns); an upper bound where a padded temporal iteration re-reads it.
// The sparse models (density, load imbalance) see the padded nest's tiles
// and waves, so a padded slot counts as a slot with work: an upper bound.
#pragma once

#include <utility>
#include <vector>

#include "mapping/mapping.hpp"
#include "nest/nest_analysis.hpp"
#include "problem/phase_problem.hpp"

namespace trainloop {

// The dimensions of `shape` whose padding is counted exactly: those it uses
// that index every tensor they index through a one-term axis (the conv
// family's N, K, C, G); `map --imperfect-factors` pads these. The same in
// every phase: the phases share the shape's projections.
DimSet one_term_dims(const ProblemShape& shape);
// The dimensions some tensor's sliding-window axis sums (the conv family's P,
// Q, R, S), padded only when asked (`map --imperfect-windows`): the window's
// tensor is then counted as an upper bound.
DimSet window_dims(const ProblemShape& shape);

// The dimensions a mapspace may pad: none without imperfect factors; the
// one-term dimensions with them; and the window dimensions as well when
// windows may be padded.
DimSet paddable_dims(const ProblemShape& shape, bool imperfect_factors, bool imperfect_windows);

// The dimensions `mapping` pads, with the extents it pads them to (the
// product of their factors), in dimension order; empty when it pads none.
std::vector<std::pair<Dim, std::int64_t>> padded_extents(const IterationSpace& space,
                                                         const Mapping& mapping);

// Turns the analysis of the padded nest (`out`, from analyze_nest of
// `mapping`, whose tile_box[0] holds each dimension's padded extent) into the
// real problem's counts and cycles, as the header states. No-op when nothing
// is padded.
void remove_padding(const PhaseProblem& problem, const Mapping& mapping, NestAnalysis& out);

}  // namespace trainloop
