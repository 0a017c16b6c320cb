#include "vocabulary/data_space_set.hpp"

namespace trainloop {

std::string data_space_set_text(const DataSpaceSet& set) {
    std::string out;
    for (DataSpace s : kAllDataSpaces) {
        if (set.contains(s)) out += (out.empty() ? "" : ", ") + std::string(data_space_name(s));
    }
    return out.empty() ? "none" : out;
}

}  // namespace trainloop
