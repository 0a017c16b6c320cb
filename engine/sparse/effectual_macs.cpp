#include "sparse/effectual_macs.hpp"

namespace trainloop {

double effectual_fraction(const PhaseDensities& densities) {
    double fraction = 1.0;
    for (DataSpace s : kAllDataSpaces) fraction *= densities.of(s).density;
    return fraction;
}

}  // namespace trainloop
