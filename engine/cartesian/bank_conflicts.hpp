// Accumulator-bank conflicts of a Cartesian-product PE (SCNN, Parashar et
// al., ISCA 2017, §IV; ReSprop thesis §6.3): each cycle the F × I products
// go through a scatter crossbar to A accumulator banks chosen by their
// output coordinate; a bank accepts one product per cycle, so a cycle whose
// fullest bank receives m products takes m cycles.
//
// Model: the n products of a cycle are hashed to the A banks uniformly and
// independently ("balls into bins"), so the cycle lasts E[max occupancy].
// P(max <= m) is computed exactly by conditioning bin by bin: with r balls
// left for b bins, the next bin takes j of them with the binomial
// probability C(r, j)·(1/b)^j·(1 − 1/b)^(r−j) (the multinomial factorised;
// Gonnet, "Expected length of the longest probe sequence in hash code
// searching", JACM 28(2), 1981, treats the same quantity). Then
// E[max] = Σ_{m >= 1} P(max >= m). No buffering between cycles: SCNN's
// crossbar queues, so this is an upper bound on its stalls.
#pragma once

#include <cstdint>

namespace trainloop {

inline constexpr std::int64_t kMaxBankBalls = 1024;
inline constexpr std::int64_t kMaxBanks = 4096;

// P(the fullest of `banks` bins holds at most `limit` of `balls`).
// Preconditions: 0 <= balls <= kMaxBankBalls, 1 <= banks <= kMaxBanks.
double probability_max_occupancy_at_most(std::int64_t balls, std::int64_t banks,
                                         std::int64_t limit);

// E[occupancy of the fullest bank]; 0 for no balls.
double expected_max_occupancy(std::int64_t balls, std::int64_t banks);

}  // namespace trainloop
