#include "evaluator/evaluators.hpp"

#include <array>

#include "evaluator/cartesian_evaluator.hpp"
#include "evaluator/loop_nest_evaluator.hpp"

namespace trainloop {
namespace {

// Constant-initialized, so any static's initializer may use them.
constexpr LoopNestEvaluator kLoopNest;
constexpr CartesianEvaluator kCartesian;

// Every evaluator, the default first. A new one is one more entry; the
// compiler refuses an entry whose class leaves a virtual unanswered, and the
// assertion below a name given twice.
constexpr std::array<const Evaluator*, 2> kEvaluators{&kLoopNest, &kCartesian};

constexpr bool names_unique_and_given() {
    for (std::size_t i = 0; i < kEvaluators.size(); ++i) {
        if (kEvaluators[i]->name().empty()) return false;
        for (std::size_t j = 0; j < i; ++j) {
            if (kEvaluators[i]->name() == kEvaluators[j]->name()) return false;
        }
    }
    return true;
}
static_assert(names_unique_and_given(), "every evaluator needs a name of its own");

}  // namespace

std::span<const Evaluator* const> evaluators() { return kEvaluators; }

const Evaluator& default_evaluator() { return *kEvaluators.front(); }

const Evaluator* find_evaluator(std::string_view name) {
    for (const Evaluator* e : kEvaluators) {
        if (e->name() == name) return e;
    }
    return nullptr;
}

std::vector<std::string> evaluator_names() {
    std::vector<std::string> names;
    for (const Evaluator* e : kEvaluators) names.emplace_back(e->name());
    return names;
}

const Evaluator& evaluator_named(const SpecNode& node) {
    return *find_evaluator(node.as_choice(evaluator_names()));  // as_choice refuses any other
}

}  // namespace trainloop
