#include "common/spec_reading.hpp"

#include <fmt/format.h>

#include "common/did_you_mean.hpp"
#include "common/names.hpp"

namespace trainloop {

namespace spec_reading {

std::string read_name(const SpecNode& node) {
    std::string name = node.as_string();
    if (const auto problem = name_problem(name)) node.fail(*problem, std::string(kNameRule));
    return name;
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

}  // namespace spec_reading
}  // namespace trainloop
