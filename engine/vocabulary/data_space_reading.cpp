#include "vocabulary/data_space_reading.hpp"

#include <fmt/format.h>

#include "common/spec_reading.hpp"

namespace trainloop {

DataSpace read_data_space(const SpecNode& node) {
    return spec_reading::read_enum<DataSpace>(
        node, std::array<std::string_view, 3>{data_space_name(DataSpace::weights),
                                              data_space_name(DataSpace::inputs),
                                              data_space_name(DataSpace::outputs)});
}

DataSpaceSet read_data_space_set(const SpecNode& node) {
    DataSpaceSet set;
    if (node.is_scalar()) {
        set.insert(read_data_space(node));
        return set;
    }
    const std::vector<SpecNode> items = node.items();
    if (items.empty()) {
        node.fail("empty list of data spaces", "at least one of weights, inputs, outputs");
    }
    for (const SpecNode& item : items) {
        const DataSpace s = read_data_space(item);
        if (set.contains(s)) {
            item.fail(fmt::format("data space `{}` listed twice", data_space_name(s)),
                      "each data space at most once");
        }
        set.insert(s);
    }
    return set;
}

}  // namespace trainloop
