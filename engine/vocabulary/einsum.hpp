// Einsum equations: a MAC operation written as data (docs/workload_format.md,
// "Einsum layers"), e.g. attention's scores
//     S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]
// or a strided convolution
//     O[n,k,p,q] += W[k,c,r,s] * I[n,c,p*2+r,q*2+s]
// (`=` may stand for `+=`). Index names are letters and `_` (a mapping writes a
// loop as the name and its factor, `h4`). Each tensor axis is an affine sum of at most
// kMaxAxisTerms indices, each with a positive integer coefficient. An index the
// result does not name is summed over. The first operand goes on the
// `weights` data space, the second on `inputs`, the result on `outputs`
// (problem_shape.hpp).
//
// Each index takes a slot of the iteration space (vocabulary/dims.hpp) by the
// role it plays, so that an einsum that is a convolution lands on the very
// slots a `conv` layer uses (and maps, and counts, the same):
//   in all three tensors           G   (groups; attention's batch and heads)
//   in the first operand and Z     K   (output channels; attention's queries)
//   in both operands, summed       C, then R, S (a window axis's second term: R, S)
//   in the second operand and Z    N, then P, Q (a window axis's first term: P, Q)
// An index whose slot is taken (attention's second all-tensor index) takes the
// first free slot in the order N, K, C, P, Q, R, S, G.
#pragma once

#include <string>
#include <string_view>

#include "common/spec_error.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

// The shape `equation` describes, its dimensions listed in the order they
// first appear. Throws SpecError (at `where`, key `key_path`) naming the
// part that is wrong: bad syntax, a term that is not affine (`p*q`, `p*p`),
// a coefficient that is not a positive integer, an index the result names
// but neither operand does, an index twice in one tensor, more than
// kNumDims indices, kMaxTensorAxes axes or kMaxAxisTerms terms, or an operand
// named like another tensor.
ProblemShape parse_einsum(std::string_view equation, const SourceLocation& where,
                          const std::string& key_path);

// The shape written back as an equation ("S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]");
// parse_einsum of it gives the shape back.
std::string einsum_text(const ProblemShape& shape);

}  // namespace trainloop
