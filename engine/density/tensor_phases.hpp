// In which training phases each tensor appears (derived from phase.hpp's
// table, Procrustes §II-A, fig. 2): w in fw and bw, x in fw and wu, dy in bw
// and wu; y, dx and dw are the outputs of fw, bw and wu. A density can only
// be given for a (tensor, phase) pair in which the tensor appears.
#pragma once

#include <string>
#include <vector>

#include "vocabulary/phase.hpp"

namespace trainloop {

constexpr bool tensor_in_phase_at_all(TensorName t, Phase p) {
    for (DataSpace s : kAllDataSpaces) {
        if (tensor_in_phase(p, s) == t) return true;
    }
    return false;
}

// The phases `t` appears in, in fw, bw, wu order.
std::vector<Phase> phases_of(TensorName t);

// "fw and bw", "wu" — for messages.
std::string describe_phases(const std::vector<Phase>& phases);

}  // namespace trainloop
