// The JSON form of a Mapping (`trainloop map --format json`, the results
// database; docs/mapping_format.md):
//
//   {"levels": [{"level": "DRAM", "temporal": ["N16", "K4"], "spatial_x": [],
//                "spatial_y": [], "keep": ["weights", "inputs", "outputs"]}, ...]}
//
// mapping_to_json writes every level of the architecture, in order, with all
// five keys and an explicit `keep` list. mapping_from_json reads that back;
// like the YAML form it also accepts levels left out and keys left out (no
// loops, the level's default data spaces). It checks the spelling only (the
// same rules as the YAML form); every error is a SpecError whose key path
// (`levels[2].temporal[0]`) says where, in a document named `source_name`.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "arch/architecture.hpp"
#include "mapping/mapping.hpp"
#include "vocabulary/problem_shape.hpp"

namespace trainloop {

inline constexpr std::string_view kMappingJsonSource = "<mapping json>";

// Precondition: mapping.num_levels == arch.levels.size(). Loops are named as
// `shape` names its dimensions (the conv letters by default).
nlohmann::json mapping_to_json(const Mapping& mapping, const Architecture& arch,
                               const ProblemShape& shape = conv_family_shape());

Mapping mapping_from_json(const nlohmann::json& json, const Architecture& arch,
                          std::string_view source_name = kMappingJsonSource,
                          const ProblemShape& shape = conv_family_shape());

}  // namespace trainloop
