// Whether a mapping honours a set of MappingConstraints on one iteration
// space (with the contract's rule that factors above a dimension's bound
// apply as the whole dimension). The mapper builds only mappings that do;
// this is the independent check the tests hold its results to.
#pragma once

#include <optional>
#include <string>

#include "constraints/mapping_constraints.hpp"
#include "mapping/mapping.hpp"
#include "problem/iteration_space.hpp"

namespace trainloop {

// The first constraint the mapping breaks, described with where it was
// written and the mapping's value; nullopt when it honours them all.
std::optional<std::string> find_constraint_violation(const MappingConstraints& constraints,
                                                     const IterationSpace& space,
                                                     const Mapping& mapping);

}  // namespace trainloop
