// Counts heap allocations in the process: every benchmark program links the
// replacement global operator new of allocation_counter.cpp.
#pragma once

#include <cstdint>

namespace trainloop::bench {

std::int64_t allocations_so_far();

}  // namespace trainloop::bench
