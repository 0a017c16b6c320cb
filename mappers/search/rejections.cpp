#include "search/rejections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/count_format.hpp"
#include "eval/mapping_check.hpp"

namespace trainloop {

std::vector<RejectionCount> rejection_counts(const SearchResult& r, const Architecture& arch) {
    std::vector<RejectionCount> counts;
    for (std::size_t k = 0; k < kNumViolationKinds; ++k) {
        const auto kind = static_cast<ViolationKind>(k);
        const std::int64_t n = r.rejected[k];
        if (n == 0) continue;
        if (kind != ViolationKind::capacity) {
            counts.push_back({std::string(violation_kind_name(kind)), n});
            continue;
        }
        std::int64_t by_level = 0;
        for (std::size_t level = 0; level < arch.levels.size() && level < kMaxLevels; ++level) {
            const std::int64_t c = r.rejected_capacity_by_level[level];
            by_level += c;
            if (c > 0) counts.push_back({"capacity at " + arch.levels[level].name, c});
        }
        if (by_level < n) counts.push_back({"capacity", n - by_level});
    }
    std::stable_sort(counts.begin(), counts.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
    return counts;
}

std::string rejection_summary(const SearchResult& r, const Architecture& arch) {
    std::int64_t total = 0;
    for (const std::int64_t n : r.rejected) total += n;
    if (total == 0) return fmt::format("{} mappings evaluated, none rejected", r.evaluations);
    const std::vector<RejectionCount> counts = rejection_counts(r, arch);
    std::string text = fmt::format("{} rejected —", group_thousands(total));
    for (std::size_t i = 0; i < counts.size(); ++i) {
        text += fmt::format("{} {} {}", i == 0 ? "" : ",", counts[i].reason,
                            group_thousands(counts[i].count));
    }
    return text;
}

std::string rejections_json(const SearchResult& r, const Architecture& arch) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const RejectionCount& c : rejection_counts(r, arch)) object[c.reason] = c.count;
    return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace trainloop
