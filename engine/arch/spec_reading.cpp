#include "arch/spec_reading.hpp"

#include <fmt/format.h>

#include "common/did_you_mean.hpp"

namespace trainloop {

namespace arch_detail {

double read_positive_double(const SpecNode& node) {
    const double value = node.as_double();
    if (value <= 0.0) node.fail(fmt::format("non-positive value {}", value), "a number > 0");
    return value;
}

double read_non_negative_double(const SpecNode& node) {
    const double value = node.as_double();
    if (value < 0.0) node.fail(fmt::format("negative value {}", value), "a number >= 0");
    return value;
}

std::string read_name(const SpecNode& node) {
    std::string name = node.as_string();
    if (name.empty()) node.fail("empty name", "a non-empty name");
    return name;
}

DataSpace read_data_space(const SpecNode& node) {
    return read_enum<DataSpace>(
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

void fail_unknown_name(const SpecNode& node, std::string_view what, const std::string& name,
                       const std::vector<std::string>& known) {
    std::string expected;
    for (const auto& k : known) expected += (expected.empty() ? "" : ", ") + k;
    node.fail(fmt::format("unknown {} `{}`", what, name),
              known.empty() ? std::string("a defined name") : fmt::format("one of {}", expected),
              suggestion_hint(name, known));
}

void fail_duplicate_name(const SpecNode& node, std::string_view what, const std::string& name,
                         const SpecNode& first) {
    const SourceLocation where = first.location();
    node.fail(fmt::format("duplicate {} `{}`", what, name), fmt::format("a unique {}", what),
              where.line > 0 ? fmt::format("`{}` is first defined at line {}", name, where.line)
                             : std::string{});
}

}  // namespace arch_detail
}  // namespace trainloop
