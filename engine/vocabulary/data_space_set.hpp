// DataSpaceSet: which of the three data spaces (weights, inputs, outputs; see
// vocabulary/phase.hpp) a storage level holds or a network carries. A set of data
// spaces, not of tensors: a level that holds `weights` holds w in fw/bw and dw
// in wu.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "vocabulary/phase.hpp"

namespace trainloop {

struct DataSpaceSet {
    std::array<bool, 3> members{};

    static constexpr DataSpaceSet all() { return DataSpaceSet{{true, true, true}}; }

    constexpr bool contains(DataSpace s) const { return members[static_cast<std::size_t>(s)]; }
    constexpr void insert(DataSpace s) { members[static_cast<std::size_t>(s)] = true; }
    constexpr void erase(DataSpace s) { members[static_cast<std::size_t>(s)] = false; }
    constexpr bool empty() const { return !members[0] && !members[1] && !members[2]; }
    friend constexpr bool operator==(const DataSpaceSet&, const DataSpaceSet&) = default;
    // The union.
    friend constexpr DataSpaceSet operator|(const DataSpaceSet& a, const DataSpaceSet& b) {
        return DataSpaceSet{{a.members[0] || b.members[0], a.members[1] || b.members[1],
                             a.members[2] || b.members[2]}};
    }
};

// "weights, outputs" (in the canonical order), or "none".
std::string data_space_set_text(const DataSpaceSet& set);

}  // namespace trainloop
