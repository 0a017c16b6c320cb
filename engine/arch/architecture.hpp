// Architecture: a training accelerator as the evaluator sees it, read from an
// architecture YAML (top-level key `architecture:`; docs/arch_format.md).
// Plain value. Storage levels are ordered from the outermost (DRAM) to the
// innermost (next to the MACs). `components` is the component library the
// file names, with the file's inline overrides already applied, so every
// component name used by a level, the PE array or a network is in it, with
// the class that use needs. Parsing and every check live in
// architecture_parser.hpp; an Architecture that exists is valid.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/cartesian_array.hpp"
#include "arch/logic_unit.hpp"
#include "arch/on_chip_network.hpp"
#include "arch/pe_array.hpp"
#include "arch/sparse_features.hpp"
#include "arch/storage_level.hpp"
#include "components/component_library.hpp"

namespace trainloop {

struct Architecture {
    std::string name;
    std::string description;
    std::string source;
    // Clock frequency: turns cycles into seconds (leakage energy, reports).
    double clock_ghz = 1.0;
    std::vector<StorageLevel> levels;  // outermost first
    PeArray pe_array;
    std::vector<OnChipNetwork> networks;
    std::vector<LogicUnit> units;  // `units:`: logic priced by area
    SparseFeatures sparse;
    // `cartesian_product:`: the PEs run the Cartesian-product dataflow class
    // (cartesian/cartesian_product.hpp), which `train-cost --evaluator cartesian` evaluates.
    std::optional<CartesianArray> cartesian;
    ComponentLibrary components;         // library + overrides
    std::string component_library_path;  // the library file, as resolved

    std::optional<std::size_t> level_index(std::string_view level_name) const {
        for (std::size_t i = 0; i < levels.size(); ++i) {
            if (levels[i].name == level_name) return i;
        }
        return std::nullopt;
    }
    const StorageLevel* find_level(std::string_view level_name) const {
        const auto i = level_index(level_name);
        return i ? &levels[*i] : nullptr;
    }
};

}  // namespace trainloop
