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

}  // namespace trainloop
