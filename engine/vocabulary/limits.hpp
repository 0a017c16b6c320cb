// The evaluator's fixed sizes: mappings, architecture models and action
// counts are fixed-size values (nothing on the hot path allocates), so the
// number of storage levels has a bound. An architecture with more levels is
// refused when its model is built (arch/arch_model.hpp).
#pragma once

#include <cstddef>

namespace trainloop {

inline constexpr std::size_t kMaxLevels = 8;

}  // namespace trainloop
