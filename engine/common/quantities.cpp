#include "common/quantities.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace trainloop {
namespace {

// Why each bound: a frequency from 1 MHz to 1 THz; a bandwidth from one word
// per million cycles to a billion words per cycle; up to a millijoule per
// action, a megawatt of leakage, a square metre of silicon; a word of up to
// 64 Kib. Cycles (at most 2^53) over the least clock, times the largest
// power, and 2^53 actions times the largest energy, stay far below 1e300.
constexpr std::array<QuantityRange, 6> kRanges = {{
    {"a frequency", "GHz", 1e-3, 1e3},
    {"a bandwidth", "words per cycle", 1e-6, 1e9},
    {"an energy", "pJ", 1e-9, 1e9},
    {"a power", "mW", 1e-9, 1e9},
    {"an area", "µm²", 1e-9, 1e15},
    {"a width", "bits", 1, 65536},
}};

double read_in_range(const SpecNode& node, Quantity quantity, bool zero_allowed) {
    const QuantityRange& range = quantity_range(quantity);
    const double value = node.as_double();  // finite, or a located error
    if ((zero_allowed && value == 0) || (value >= range.min && value <= range.max)) return value;
    node.fail(
        fmt::format("{} of {:g} {} is out of range", range.what, value, range.unit),
        fmt::format("{} {}", range.what, quantity_range_text(quantity, zero_allowed)),
        value <= 0 && !zero_allowed ? std::string("it must be greater than 0") : std::string{});
}

}  // namespace

const QuantityRange& quantity_range(Quantity quantity) {
    return kRanges.at(static_cast<std::size_t>(quantity));
}

std::string quantity_range_text(Quantity quantity, bool zero_allowed) {
    const QuantityRange& range = quantity_range(quantity);
    return fmt::format("{}from {:g} to {:g} {}", zero_allowed ? "of 0, or " : "", range.min,
                       range.max, range.unit);
}

double read_positive_quantity(const SpecNode& node, Quantity quantity) {
    return read_in_range(node, quantity, false);
}

double read_non_negative_quantity(const SpecNode& node, Quantity quantity) {
    return read_in_range(node, quantity, true);
}

std::int64_t read_width_bits(const SpecNode& node) {
    const std::int64_t bits = node.as_positive_int();
    const QuantityRange& range = quantity_range(Quantity::width);
    if (double(bits) > range.max) {
        node.fail(fmt::format("a width of {} bits is out of range", bits),
                  fmt::format("a width {}", quantity_range_text(Quantity::width, false)));
    }
    return bits;
}

}  // namespace trainloop
