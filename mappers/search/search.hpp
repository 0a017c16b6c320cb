// search(): find the best mappings of one phase problem on one architecture.
//
// Strategies: exhaustive (every point of the mapspace, pruning tilings that
// already overflow a level), random sampling, and simulated annealing (see
// README "Choosing the guided search"). Objectives: energy, latency, EDP, or
// the Pareto front over (energy, cycles). Deterministic: the same inputs and
// seed give the same result whatever the thread count — work is cut into
// units whose number does not depend on the threads, each unit draws from its
// own seeded stream, and results are merged in unit order.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/evaluation.hpp"
#include "mapspace/mapspace.hpp"
#include "vocabulary/layer_phase_metrics.hpp"

namespace trainloop {

// latency: the fewest cycles, ties broken by energy. offchip: the fewest
// words moved to and from the outermost level (metadata included,
// eval/evaluation.hpp offchip_words()), ties broken by energy.
enum class Objective : std::uint8_t { energy, latency, edp, pareto, offchip };
enum class SearchStrategy : std::uint8_t { exhaustive, random, anneal };

// The one table of each: names (in the CLI's choices, sweep files and the
// database), in enum order. search() dispatches on the enum with a switch,
// so a new strategy is an enum value, a row here and a case there.
inline constexpr std::array<std::string_view, 5> kObjectiveNames = {"energy", "latency", "edp",
                                                                    "pareto", "offchip"};
inline constexpr std::array<std::string_view, 3> kSearchStrategyNames = {"exhaustive", "random",
                                                                         "anneal"};

std::optional<Objective> objective_from_name(std::string_view name);
std::optional<SearchStrategy> strategy_from_name(std::string_view name);
std::string_view objective_name(Objective o);
std::string_view strategy_name(SearchStrategy s);
// The names as strings, for CLI choices and spec readers.
std::vector<std::string> objective_names();
std::vector<std::string> strategy_names();

// A budget of 0 evaluations means: exhaustive — the whole mapspace; random
// and anneal — until the time budget, or 64,000 / 40,000 evaluations when
// there is none. A time budget makes a result depend on the machine's speed.
//
// stop_when_converged (random and anneal with a positive max_evaluations):
// the search runs in rounds of fresh units (32 annealing chains or 64
// sampling streams), 100,000 evaluations first and each round three times
// the one before, each unit ending with a hill climb over every single move
// (Mapspace::single_moves), until a round's best and the best of the rounds
// before it agree within 0.5 % (converged) or max_evaluations is reached;
// then a closing climb over pairs of moves from the rounds' three best
// distinct local optima (at most an eighth of the budget, 50,000, shared). A mapspace no larger
// than the first round is searched exhaustively instead. Without it the search spends
// max_evaluations in one round (random: exactly; anneal: the largest multiple of its 8
// chains), and each annealing chain then ends with a hill climb over single moves from its
// best, which stops at a local optimum or after a quarter of the chain's share more.
struct SearchBudget {
    std::int64_t max_evaluations = 20'000;
    double max_seconds = 0;     // 0: no limit
    std::int64_t patience = 0;  // stop after this many evaluations without improvement; 0: never
    bool stop_when_converged = false;
};

// What a search that stops on convergence may spend at most per problem by
// default (`trainloop map` with no --budget): about a second on one core.
inline constexpr std::int64_t kConvergingBudget = 400'000;

struct SearchProgress {
    std::int64_t evaluations = 0;
    std::int64_t valid = 0;
    double best_objective = 0;  // of the best so far (energy pJ, cycles, or EDP)
    double fraction_done = 0;   // of the budget, for an ETA
};

struct SearchOptions {
    Objective objective = Objective::edp;
    SearchStrategy strategy = SearchStrategy::anneal;
    SearchBudget budget;
    std::uint64_t seed = 1;
    int threads = 0;  // 0: all cores
    // The phase's densities: mappings are evaluated sparse (with the closed-form
    // load imbalance); nullopt: dense.
    std::optional<PhaseDensities> densities;
    // Called from the calling thread now and then; may be empty.
    std::function<void(const SearchProgress&)> progress;
};

// A mapping the search kept, with its metrics (vocabulary/layer_phase_metrics.def)
// and its energy by component, so that what is stored or shown of it needs no
// second evaluation.
struct Candidate : LayerPhaseMetrics {
    Mapping mapping;
    EnergyBreakdown energy;
    double edp() const { return energy_pj * double(cycles); }
};

struct SearchResult {
    std::optional<Candidate> best;  // by the objective (pareto: the front's lowest EDP)
    std::vector<Candidate> pareto;  // objective pareto: the front, by increasing energy
    std::int64_t evaluations = 0;
    std::int64_t valid = 0;
    // Why mappings were rejected: by violation kind, and capacity by level.
    std::array<std::int64_t, kNumViolationKinds> rejected{};
    std::array<std::int64_t, kMaxLevels> rejected_capacity_by_level{};
    bool exhausted = false;  // exhaustive search covered the whole mapspace
    double seconds = 0;
    // Whether the search converged. Exhaustive: it covered the whole
    // mapspace. Random and anneal run independent units (sampling streams,
    // annealing chains) from different seeds: they converged when at least
    // kConvergedUnits of them (and at least two) each ended within
    // kConvergedTolerance of the best — the best was found again
    // independently, not once by luck. A heuristic, not a proof: the lower
    // bound (eval/lower_bound.hpp) says how far the best could still be.
    //
    // With SearchBudget::stop_when_converged, converged says instead that
    // two rounds agreed and the closing pair climb found nothing better by
    // more than that agreement (SearchBudget above).
    bool converged = false;
    int units = 0;            // random and anneal: independent units run (the last round's)
    int units_near_best = 0;  // of those, ending within the tolerance of the best
    int rounds = 0;           // stop_when_converged: the rounds run; else 0
};

// Convergence (SearchResult::converged): a unit's best within 1 % of the
// overall best, in a quarter of the units.
inline constexpr double kConvergedTolerance = 0.01;
inline constexpr double kConvergedUnitsFraction = 0.25;

SearchResult search(const ArchModel& arch, const PhaseProblem& problem, const Mapspace& space,
                    const SearchOptions& options);

// How many threads one search can keep busy: its independent units at a
// time (random: 64 sampling streams; anneal: 8 chains, or 32 per round when
// it stops on convergence); exhaustive search has no such bound. Sweeps run
// points side by side when the machine has more cores than this.
int search_parallelism(SearchStrategy strategy, bool stop_when_converged);

// The value a candidate is ranked by (lower is better); pareto ranks by EDP.
double objective_value(Objective objective, std::int64_t cycles, double energy_pj,
                       double offchip_words);

// Whether a mapping of objective value `value` and energy `energy_pj` beats
// `best` (of value `best_value`). Off-chip traffic ties often (many tilings
// move every tensor once), so there the lower energy wins a tie; the other
// objectives tie almost never and keep the first found.
bool improves(Objective objective, double value, double energy_pj, double best_value,
              const std::optional<Candidate>& best);

}  // namespace trainloop
