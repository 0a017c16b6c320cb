// LogicUnit: a hardware unit outside the storage hierarchy, the MACs and the
// networks — e.g. the mask memories, weight-recomputation PRNGs, quantile
// estimator and load balancer that Procrustes adds to a dense accelerator
// (Table III). Declared under an architecture's `units:`; priced by the area
// of its component (class `logic`), every instance counted. Plain value; the
// parser (architecture_parser.hpp) guarantees a unique non-empty name, a
// `logic` component of the library, and an instance count that divides the
// number of PEs.
#pragma once

#include <cstdint>
#include <string>

#include "components/component_library.hpp"

namespace trainloop {

struct LogicUnit {
    std::string name;
    std::string component;
    std::int64_t instances = 1;
    bool per_pe = false;  // declared `per_pe: true` (instances = #PEs)
};

// The unit's area over all its instances, µm².
inline double unit_area_um2(const LogicUnit& unit, const ComponentLibrary& library) {
    const Component* c = library.find(unit.component);
    return c == nullptr ? 0.0 : c->points.front().area_um2 * double(unit.instances);
}

}  // namespace trainloop
