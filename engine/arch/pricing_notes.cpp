#include "arch/pricing_notes.hpp"

#include <fmt/format.h>

namespace trainloop {

std::vector<std::string> pricing_notes(const Architecture& arch) {
    std::vector<std::string> notes;
    for (const StorageLevel& level : arch.levels) {
        const Component* c = arch.components.find(level.component);
        if (c == nullptr || !is_table_class(c->component_class) || !level.capacity_bytes) continue;
        const std::int64_t capacity = *level.capacity_bytes;
        if (capacity >= c->min_capacity() && capacity <= c->max_capacity()) continue;
        notes.push_back(fmt::format(
            "level `{}` ({} bytes) is outside component `{}`'s table ({}–{} bytes): its energy is "
            "scaled by sqrt(capacity) from the nearest entry and its area linearly (the library's "
            "`outside_table: {}`)",
            level.name, capacity, c->name, c->min_capacity(), c->max_capacity(),
            outside_table_name(c->outside_table)));
    }
    return notes;
}

}  // namespace trainloop
