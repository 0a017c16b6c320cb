// The registry: every evaluator (evaluator.hpp), the default first, looked up
// by the name a sweep file's `evaluator:` or `train-cost --evaluator` writes.
// The list is evaluators.cpp's kEvaluators, the one place a new evaluator is
// added.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/spec_node.hpp"
#include "evaluator/evaluator.hpp"

namespace trainloop {

// In the order --evaluator's help and the name lists give them.
std::span<const Evaluator* const> evaluators();

// The loop-nest search: what runs when no evaluator is named.
const Evaluator& default_evaluator();

// nullptr when none has that name.
const Evaluator* find_evaluator(std::string_view name);

// Every evaluator's name, in registry order.
std::vector<std::string> evaluator_names();

// The evaluator `node` names; otherwise a SpecError located at the node that
// lists the names (with a did-you-mean for a near miss).
const Evaluator& evaluator_named(const SpecNode& node);

}  // namespace trainloop
