// Physical quantities a spec gives, one checked reader per kind: a finite
// number in the range the kind allows, else a SpecError at the node saying
// the range and its unit. Every parser reads a physical number through
// these (a new key names its kind, it cannot skip the check), so no value
// that makes the model's arithmetic overflow, underflow into a division by
// zero or turn into NaN ever reaches it: a clock of 1e-300 GHz, a bandwidth
// of 1e-300 words per cycle, an energy of 1e300 pJ.
//
// The ranges are wide, plausible bounds for any accelerator trainloop
// models (docs/arch_format.md lists them); within them every product the
// model forms (counts up to 2^53 times energies, leakage power times time)
// stays finite. Counts (sizes, factors, instances) are integers read by
// SpecNode::as_positive_int; densities and shares are fractions
// (SpecNode::as_fraction).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/spec_node.hpp"

namespace trainloop {

enum class Quantity : std::uint8_t {
    frequency,  // a clock, GHz
    bandwidth,  // words per cycle
    energy,     // pJ per action, per hop, per word
    power,      // mW (leakage)
    area,       // µm²
    width,      // bits of a word, a row, an index field (an integer)
};

struct QuantityRange {
    std::string_view what;  // "a frequency"
    std::string_view unit;  // "GHz"
    double min;             // the least allowed value, when not zero
    double max;
};

// The range of `quantity` (min is the least positive value for a quantity
// read as positive; a non-negative one also takes 0).
const QuantityRange& quantity_range(Quantity quantity);

// A value of `quantity` greater than 0, in its range.
double read_positive_quantity(const SpecNode& node, Quantity quantity);
// A value of `quantity` that is 0 or in its range.
double read_non_negative_quantity(const SpecNode& node, Quantity quantity);
// A width in bits: an integer in the range of Quantity::width.
std::int64_t read_width_bits(const SpecNode& node);

// The range as users read it: "from 0.001 to 1000 GHz".
std::string quantity_range_text(Quantity quantity, bool zero_allowed);

}  // namespace trainloop
