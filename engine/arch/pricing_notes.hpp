// The notes a command prints when an architecture prices a storage level by
// extrapolation: a capacity outside its component's table, priced by the
// library's stated rule (`outside_table: sqrt_capacity`;
// components/component_pricing.hpp). One line per such level, naming the
// level, the table's range and the rule. (A table whose rule is `refuse`
// never gets here: the parser rejects the level.)
#pragma once

#include <string>
#include <vector>

#include "arch/architecture.hpp"

namespace trainloop {

std::vector<std::string> pricing_notes(const Architecture& arch);

}  // namespace trainloop
