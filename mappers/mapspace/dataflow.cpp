#include "mapspace/dataflow.hpp"

#include <fmt/format.h>

#include "common/spec_error.hpp"

namespace trainloop {

const std::vector<std::string>& named_dataflows() {
    static const std::vector<std::string> names = {"C,K", "K,N", "P,Q", "C,N"};
    return names;
}

std::optional<Dataflow> parse_dataflow(std::string_view text) {
    if (text == "any") return std::nullopt;
    const auto comma = text.find(',');
    auto fail = [&]() {
        throw SpecError({}, "--dataflow", fmt::format("cannot read dataflow `{}`", text),
                        "X,Y dimension letters such as K,N or C,K (two letters on one side split "
                        "that axis, e.g. KC,N), or `any`",
                        "the seed papers' dataflows: C,K K,N P,Q C,N");
    };
    if (comma == std::string_view::npos) fail();
    Dataflow out;
    auto read = [&](std::string_view letters, std::vector<Dim>& dims) {
        if (letters.empty() || letters.size() > 2) fail();
        for (char c : letters) {
            const auto d = dim_from_name(std::string_view(&c, 1));
            if (!d) fail();
            for (Dim seen : out.x)
                if (seen == *d) fail();
            for (Dim seen : out.y)
                if (seen == *d) fail();
            dims.push_back(*d);
        }
    };
    read(text.substr(0, comma), out.x);
    read(text.substr(comma + 1), out.y);
    return out;
}

std::string to_string(const Dataflow& dataflow) {
    std::string text;
    for (Dim d : dataflow.x) text += dim_name(d);
    text += ",";
    for (Dim d : dataflow.y) text += dim_name(d);
    return text;
}

}  // namespace trainloop
