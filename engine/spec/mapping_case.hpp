// A mapping with everything it refers to: the architecture, the network,
// the layer's phase problem. The mapping is any form trainloop prints
// (docs/mapping_format.md), recognised by its content:
//   - YAML (`mapping:` list, optional `for:` block);
//   - the one-line text form (`DRAM[N16 K4] GLB[X:C16 Y:K16] RF[...]`), in a
//     file or given inline on the command line;
//   - JSON: a mapping object (`{"levels": [...]}`), a layer-phase entry of
//     `map --format json` (`{"mapping": {...}, ...}`), or the whole of
//     `map --format json`'s output, from which --layer and --phase pick one
//     (its `arch`, `network` and `batch` then stand for the `for:` block).
// Command-line values override what the mapping says it is for; whatever is
// missing from both is a SpecError that says both ways of giving it.
// evaluate_case() turns an invalid mapping into a SpecError at the offending
// level's entry (YAML: its line; JSON: its key path; text: its level name).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "arch/architecture.hpp"
#include "eval/evaluation.hpp"
#include "mapping/mapping_target.hpp"
#include "mapping/mapping_text.hpp"
#include "problem/training_problems.hpp"

namespace trainloop {

enum class MappingForm { yaml, text, json };

// The form of a mapping text: JSON when it opens with `{` (unless it is the
// YAML form in flow style: a `for:` block or a `mapping:` list), the one-line
// form when its first line (after comments) opens with `LEVEL[`, else YAML.
MappingForm detect_mapping_form(std::string_view text);

struct MappingCase {
    std::filesystem::path file;  // or kMappingTextSource for an inline mapping
    MappingForm form = MappingForm::yaml;
    std::string text;  // as read (errors are located in it)
    Architecture arch;
    ArchModel arch_model;
    std::shared_ptr<const Network> network;  // the training problems point into it
    NetworkTraining training;
    const PhaseProblem* problem = nullptr;
    Mapping mapping;
    MappingTarget target;  // as resolved
};

// `overrides` holds command-line values (unset fields fall back to `for:`).
MappingCase load_mapping_case(const std::filesystem::path& file,
                              const MappingTarget& overrides = {});
// The same for a mapping given as text; `source` names it in errors (the
// file it was read from, or kMappingTextSource).
MappingCase load_mapping_case_text(std::string text, const std::string& source,
                                   const MappingTarget& overrides = {});
// A --mapping argument: an existing file, else (when it looks like one) a
// one-line mapping given inline; else a SpecError naming the argument.
MappingCase load_mapping_argument(const std::string& argument, const MappingTarget& overrides);

// Evaluates; an invalid mapping throws SpecError located at the file's entry
// for the level at fault, naming the level, tensors, sizes and limit.
Evaluation evaluate_case(const MappingCase& c);
// The same with the phase's densities (sparse evaluation).
Evaluation evaluate_case(const MappingCase& c, const PhaseDensities& densities,
                         const ImbalanceOptions& imbalance);

}  // namespace trainloop
