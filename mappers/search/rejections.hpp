// Why a search rejected the mappings it drew: the counts of SearchResult's
// rejection histogram by reason (a violation kind; capacity split by the
// level that overflowed), largest first. `map` prints it when a layer-phase
// has no valid mapping, and a sweep stores it with the failed point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/architecture.hpp"
#include "search/search.hpp"

namespace trainloop {

struct RejectionCount {
    std::string reason;  // "network", "capacity at GLB", ...
    std::int64_t count = 0;
};

// The nonzero counts, largest first (ties in violation-kind, then level, order).
std::vector<RejectionCount> rejection_counts(const SearchResult& r, const Architecture& arch);

// "1,234 rejected — capacity at GLB 1,000, network 234", or, when nothing
// was rejected, how many mappings were evaluated.
std::string rejection_summary(const SearchResult& r, const Architecture& arch);

// The counts as one JSON object, {"capacity at GLB": 1000, "network": 234}.
std::string rejections_json(const SearchResult& r, const Architecture& arch);

}  // namespace trainloop
