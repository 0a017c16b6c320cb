// Human-readable counts for tables: 1,843,200 and 1.84 G.
#pragma once

#include <cstdint>
#include <string>

namespace trainloop {

// Digits grouped by thousands with commas: "11,679,912".
std::string group_thousands(std::int64_t value);
// Three significant digits with an SI suffix: "1.82 G", "301 M", "512".
std::string si_count(double value);

}  // namespace trainloop
