#include "mapspace/dataflow.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/spec_error.hpp"
#include "common/spec_node.hpp"

namespace trainloop {

const std::vector<std::string>& named_dataflows() {
    static const std::vector<std::string> names = {"C,K", "K,N", "P,Q", "C,N"};
    return names;
}

std::optional<Dataflow> parse_dataflow(std::string_view text) {
    if (text == "any") return std::nullopt;
    const auto comma = text.find(',');
    auto fail = [&]() {
        throw SpecError({}, "--dataflow",
                        fmt::format("cannot read dataflow `{}`", quoted_excerpt(text)),
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

std::vector<Dataflow> layer_dataflows(const Dataflow& named, const DimBounds& bounds, bool fixed_x,
                                      bool fixed_y) {
    auto names = [](const std::vector<Dim>& dims, Dim d) {
        return std::find(dims.begin(), dims.end(), d) != dims.end();
    };
    if (bounds[Dim::G] == 1 || names(named.x, Dim::G) || names(named.y, Dim::G)) return {named};
    // The axes that carry a channel letter, output channels (K) first.
    std::vector<bool> on_x;
    for (Dim channel : {Dim::K, Dim::C}) {
        if (names(named.x, channel) && !fixed_x) on_x.push_back(true);
        if (names(named.y, channel) && !fixed_y) on_x.push_back(false);
    }
    if (on_x.empty()) return {named};
    // A dataflow naming only K (or only C) has one placement; C,K has two.
    const bool both_named = (names(named.x, Dim::K) || names(named.y, Dim::K)) &&
                            (names(named.x, Dim::C) || names(named.y, Dim::C));
    if (!both_named) on_x.resize(1);
    std::vector<Dataflow> out;
    for (bool x : on_x) {
        Dataflow flow = named;
        (x ? flow.x : flow.y).push_back(Dim::G);
        if (std::find(out.begin(), out.end(), flow) == out.end()) out.push_back(flow);
    }
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
