// Dataflows: which dimensions a mapping spreads over the PE array's columns
// (X) and rows (Y). The named dataflows of the seed papers are written "X,Y":
// `C,K`, `K,N`, `P,Q`, `C,N` (Procrustes §III, Figs. 3 and 11). `any` lets
// the mapper choose, including splitting one axis over two dimensions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vocabulary/dims.hpp"

namespace trainloop {

struct Dataflow {
    std::vector<Dim> x;  // dimensions across the columns
    std::vector<Dim> y;  // dimensions across the rows
    friend bool operator==(const Dataflow&, const Dataflow&) = default;
};

// "K,N" → {x: [K], y: [N]}; "KC,N" → {x: [K, C], y: [N]}; "any" → nullopt.
// Throws SpecError (key `--dataflow`) for anything else.
std::optional<Dataflow> parse_dataflow(std::string_view text);
std::string to_string(const Dataflow& dataflow);

// The dataflows of the seed papers, by name.
const std::vector<std::string>& named_dataflows();

// The dataflows a named one stands for on one layer. The letters K and C
// name a layer's output and input channels; a grouped convolution has G·K
// output and G·C input channels (a depthwise one K = C = 1 per group, its
// channels are its groups), so when the layer has groups (G > 1) and the
// dataflow does not name G, G joins the axis that carries K, or C when K
// is not named; with both named (C,K) each placement is a candidate. Axes
// in `fixed` (set by the user's spatial constraints) are left as named.
// Otherwise, and always when G = 1, the named dataflow itself.
std::vector<Dataflow> layer_dataflows(const Dataflow& named, const DimBounds& bounds,
                                      bool fixed_x = false, bool fixed_y = false);

}  // namespace trainloop
