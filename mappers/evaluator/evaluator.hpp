// What costs a run's problems: one interface for every evaluator, so that
// sweeps, `train-cost`, the records and the CLI ask the evaluator instead of
// branching on which one it is. The evaluators are listed once, in
// evaluators.hpp (the registry, looked up by the name sweep files and
// --evaluator write): the loop-nest search (loop_nest_evaluator.hpp) and the
// Cartesian-product array (cartesian_evaluator.hpp). A new evaluator is a
// class deriving from Evaluator (the compiler refuses one that leaves a
// question unanswered) and one line in evaluators.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/architecture.hpp"
#include "network/network_mapper.hpp"
#include "run/run_settings.hpp"
#include "run/run_setup.hpp"
#include "store/store_records.hpp"
#include "training_run/training_run.hpp"

namespace trainloop {

// Why an evaluator cannot run an architecture: the section of the
// architecture file it needs, and what is missing without it. The front ends
// word the located error (the option or sweep key that chose the evaluator).
struct ArchitectureGap {
    std::string section;  // the architecture file's key: "cartesian_product"
    std::string example;  // a shipped architecture that has it: "gscn_4x64"
    std::string missing;  // what there is none of to evaluate: "Cartesian-product array"
};

// One run as its evaluator gets it: everything set_up_run() read and built.
struct RunToEvaluate {
    const RunSubject& subject;
    const RunSettings& settings;
    // set_up_run(subject, settings, ..., evaluator.mapspaces()).
    const RunSetup& setup;
    std::int64_t batch = 0;
    // Called as map_network() calls it, by an evaluator that searches (may be empty).
    NetworkMapProgressFn progress;
};

// What an evaluator hands back. It refers to the run's subject and set-up:
// keep them alive while it is used.
struct EvaluatedRun {
    // Each distinct problem's cost per iteration, in the plan's order (what
    // integrate_training_run adds up); nullopt when some problem has none
    // (no valid mapping: `searches` says which and why).
    std::optional<std::vector<ProblemCost>> costs;
    std::int64_t evaluations = 0;  // mappings evaluated; 0 when nothing is searched
    // The searches' results, for the report of a problem without a mapping;
    // null when the evaluator searches nothing.
    std::shared_ptr<const NetworkMapResult> searches;
    // Fills a point's results (its layer-phases, totals, training run,
    // evaluations, failure) from what was evaluated, nothing evaluated again;
    // the point's coordinates are the caller's, except those the evaluator
    // owns (a Cartesian-product point's dataflow, objective and search).
    std::function<void(PointRecord&)> fill_record;
};

class Evaluator {
  public:
    // What sweep files (`evaluator:`) and --evaluator write, also the JSON's
    // "evaluator"; the dataflow of its points when it searches nothing.
    virtual constexpr std::string_view name() const = 0;
    // How messages name it: "the loop-nest evaluator".
    virtual std::string_view title() const = 0;
    // What it does, for --evaluator's help.
    virtual std::string_view help() const = 0;

    // Whether it searches mappings: then dataflows, objectives, search
    // settings and constraints apply, and there is progress to show.
    virtual bool searches_mappings() const = 0;
    // Why not, when it does not: a sweep file's searching keys are refused with it.
    virtual std::string_view why_nothing_is_searched() const = 0;
    // Whether it costs one training iteration (`map`, a sweep without
    // `iterations:`), not only whole training runs.
    virtual bool costs_one_iteration() const = 0;
    // Whether `--zeros` / `zeros:` (where the profile's zeros fall) is its to choose.
    virtual bool places_zeros() const = 0;
    // Whether its costs have the PEs' workload spread (ProblemCost::spread).
    virtual bool computes_workload_spread() const = 0;
    // Whether a training run's plan needs its problems' mapspaces.
    virtual PlanMapspaces mapspaces() const = 0;

    // nullopt when it can run `arch`.
    virtual std::optional<ArchitectureGap> unsupported(const Architecture& arch) const = 0;

    // What it adds to a training run's identity (run_identity.hpp): YAML
    // lines of its settings, empty for the default evaluator so that the runs
    // stored before evaluators had names keep their identity.
    virtual std::string identity(const RunSettings& settings) const = 0;

    // Costs the run's problems. Preconditions: unsupported(arch) is nullopt,
    // and the run is a training run unless costs_one_iteration(). Throws
    // SpecError for a problem it cannot cost (the message names it).
    virtual EvaluatedRun evaluate(const RunToEvaluate& run) const = 0;

    // train-cost's last line of text: what was evaluated, and how.
    virtual std::string run_summary(const TrainingRunCost& cost, std::int64_t evaluations,
                                    const Architecture& arch,
                                    const RunSettings& settings) const = 0;
    // train-cost's JSON keys of its own (none: an empty object).
    virtual nlohmann::json run_json(const Architecture& arch,
                                    const RunSettings& settings) const = 0;

  protected:
    // The evaluators are the registry's constants, never owned through this
    // interface: no virtual destructor, so that they can be constexpr.
    ~Evaluator() = default;
};

}  // namespace trainloop
