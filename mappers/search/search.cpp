#include "search/search.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "eval/layer_phase_metrics.hpp"
#include "mapspace/divisors.hpp"
#include "search/parallel_units.hpp"
#include "search/pareto_front.hpp"
#include "sparse/sparse_adjustment.hpp"
#include "vocabulary/projection.hpp"

namespace trainloop {
namespace {

using Clock = std::chrono::steady_clock;

// SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): independent seeds for the
// work units from one user seed.
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t unit) {
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (unit + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// What one work unit found. Units are merged in index order.
struct UnitResult {
    std::optional<Candidate> best;
    double best_value = std::numeric_limits<double>::infinity();
    ParetoFront front;
    std::int64_t evaluations = 0;
    std::int64_t valid = 0;
    std::array<std::int64_t, kNumViolationKinds> rejected{};
    std::array<std::int64_t, kMaxLevels> rejected_capacity_by_level{};
    // Where `best` is, for units that end with a hill climb.
    std::optional<MapPoint> best_point;
};

struct Context {
    const ArchModel& arch;
    const PhaseProblem& problem;
    const Mapspace& space;
    const SearchOptions& options;
    Clock::time_point start;
    std::atomic<bool> stop{false};

    bool out_of_time() const {
        return options.budget.max_seconds > 0 &&
               std::chrono::duration<double>(Clock::now() - start).count() >=
                   options.budget.max_seconds;
    }
};

// Evaluates one mapping into the unit's result; returns its objective value
// (infinity when invalid).
// The search ranks mappings on their cycles and energy; the spreads the
// balancing steps would leave are only reported, so the inner loop leaves them
// out and consider() derives them (balanced_spreads()) for the mappings it keeps.
const ImbalanceOptions kSearchImbalance{.balanced_spreads = false};

double consider(Context& ctx, UnitResult& r, const Mapping& mapping) {
    const Evaluation e = ctx.options.densities ? evaluate(ctx.arch, ctx.problem, mapping,
                                                          *ctx.options.densities, kSearchImbalance)
                                               : evaluate(ctx.arch, ctx.problem, mapping);
    ++r.evaluations;
    if (!e.valid()) {
        ++r.rejected[std::size_t(e.violation->kind)];
        if (e.violation->kind == ViolationKind::capacity) {
            ++r.rejected_capacity_by_level[std::size_t(e.violation->level)];
        }
        return std::numeric_limits<double>::infinity();
    }
    ++r.valid;
    const double value =
        objective_value(ctx.options.objective, e.cycles, e.energy_pj, offchip_words(e));
    const bool better = improves(ctx.options.objective, value, e.energy_pj, r.best_value, r.best);
    if (better || ctx.options.objective == Objective::pareto) {
        const Candidate c{layer_phase_metrics(e), mapping, e.energy};
        if (better) {
            r.best = c;
            r.best_value = value;
        }
        if (ctx.options.objective == Objective::pareto) r.front.insert(c);
    }
    return value;
}

void merge(Objective objective, SearchResult& out, double& best_value, ParetoFront& front,
           const UnitResult& r) {
    out.evaluations += r.evaluations;
    out.valid += r.valid;
    for (std::size_t k = 0; k < kNumViolationKinds; ++k) out.rejected[k] += r.rejected[k];
    for (std::size_t l = 0; l < kMaxLevels; ++l) {
        out.rejected_capacity_by_level[l] += r.rejected_capacity_by_level[l];
    }
    if (r.best && improves(objective, r.best_value, r.best->energy_pj, best_value, out.best)) {
        out.best = r.best;
        best_value = r.best_value;
    }
    for (const Candidate& c : r.front.sorted()) front.insert(c);
}

// Runs units [first, units.size()) in batches on the arena, calling progress
// between batches from this thread. Units are independent, so results do not
// depend on the threads or the batches. Progress reports the evaluations of
// every unit so far and, as the fraction done, `done_before` plus this call's
// share `done_share` of the work scaled by the units finished.
template <typename RunUnit>
void run_units(Context& ctx, tbb::task_arena& arena, std::vector<UnitResult>& units,
               std::size_t first, double done_before, double done_share, RunUnit run_unit) {
    const std::size_t count = units.size();
    const std::size_t batch = std::max<std::size_t>(1, std::size_t(arena.max_concurrency()) * 2);
    for (std::size_t begin = first; begin < count && !ctx.stop; begin += batch) {
        const std::size_t end = std::min(count, begin + batch);
        parallel_units(arena, begin, end, [&](std::size_t u) { run_unit(u, units[u]); });
        if (ctx.out_of_time()) ctx.stop = true;
        if (ctx.options.progress) {
            SearchProgress p;
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t u = 0; u < end; ++u) {
                p.evaluations += units[u].evaluations;
                p.valid += units[u].valid;
                best = std::min(best, units[u].best_value);
            }
            p.best_objective = std::isfinite(best) ? best : 0;
            p.fraction_done =
                done_before + done_share * double(end - first) / double(count - first);
            ctx.options.progress(p);
        }
    }
}

// Evaluations to spend: the budget's, else unlimited under a time budget,
// else `fallback`.
std::int64_t evaluation_budget(const SearchBudget& budget, std::int64_t fallback) {
    if (budget.max_evaluations > 0) return budget.max_evaluations;
    if (budget.max_seconds > 0) return std::numeric_limits<std::int64_t>::max() / 2;
    return fallback;
}

// One round of a random or annealing search: `units` more units sharing
// `evaluations`, seeded from the user's seed and their index among all the
// search's units (so each round draws fresh streams), appended to the
// search's units.
struct Round {
    std::int64_t evaluations = 0;
    std::size_t units = 0;
    // A round of a search that stops on convergence: random units end with a
    // hill climb from their best (annealing chains always do), and annealing
    // chains start cooler and rescale spatial factors (anneal_round).
    bool polish = false;
    double done_before = 0;  // progress: the fraction of the search done before
    double done_share = 1;   // and this round's share of it
};

// The share of a unit's evaluations its closing hill climb may use (its
// sampling or annealing gets the rest; the climb usually needs far fewer).
constexpr double kPolishShare = 0.2;
// What a fixed budget's chain may spend on its closing climb beyond its share
// (the climb stops earlier at a local optimum: on ResNet-18 with the `any`
// dataflow it spends about a tenth of the budget).
constexpr double kFixedClimbShare = 0.25;

std::int64_t unit_share(const Round& round, std::size_t index_in_round) {
    const auto n = std::int64_t(round.units);
    return round.evaluations / n + (std::int64_t(index_in_round) < round.evaluations % n ? 1 : 0);
}

// ---- hill climbs ---------------------------------------------------------------

struct Climbed {
    MapPoint point;
    double value = 0;
};

// First-improvement climb from `at`: `neighbours(point, visit)` offers the
// points near `point` to `visit` in a fixed order until it returns true; the
// first better one is taken (then `settle` may climb on from it), and the
// scan starts again from there, until no neighbour improves or the unit has
// spent `limit` evaluations.
template <typename Neighbours, typename Settle>
Climbed climb(Context& ctx, UnitResult& r, Climbed at, std::int64_t limit, Neighbours neighbours,
              Settle settle) {
    bool improved = true;
    while (improved && r.evaluations < limit && !ctx.stop) {
        improved = false;
        neighbours(at.point, [&](const MapPoint& next) {
            if (r.evaluations >= limit) return true;
            const double value = consider(ctx, r, ctx.space.to_mapping(next));
            if (value >= at.value) return false;
            at = settle(Climbed{next, value});
            improved = true;
            return true;
        });
    }
    return at;
}

// The closing step of each unit in a search that stops on convergence, over
// Mapspace::single_moves(): a stochastic search ends near a local optimum;
// this reaches it.
Climbed hill_climb(Context& ctx, UnitResult& r, MapPoint start, double value, std::int64_t limit) {
    const auto single_moves = [&](const MapPoint& p, const auto& visit) {
        for (const MapPoint& next : ctx.space.single_moves(p)) {
            if (visit(next)) return;
        }
    };
    return climb(ctx, r, {start, value}, limit, single_moves, [](Climbed c) { return c; });
}

// The closing step of a search that stops on convergence, from its best
// points: over every pair of single moves (a move, then a move from there),
// each improvement followed by a hill climb. Two local optima of single moves
// are often two moves apart (e.g. a factor moved between levels together with
// a loop order or a keep that makes it pay), where no single move improves.
void pair_climb(Context& ctx, UnitResult& r, MapPoint start, double value, std::int64_t limit) {
    const auto pairs_of_moves = [&](const MapPoint& p, const auto& visit) {
        for (const MapPoint& first : ctx.space.single_moves(p)) {
            for (const MapPoint& second : ctx.space.single_moves(first)) {
                if (visit(second)) return;
            }
        }
    };
    climb(ctx, r, {start, value}, limit, pairs_of_moves,
          [&](Climbed c) { return hill_climb(ctx, r, c.point, c.value, limit); });
}

// A unit's closing hill climb from its best point (`best_point`, where it
// found r.best_value), within its `share`; records where its best now is.
void close_unit(Context& ctx, UnitResult& r, const MapPoint& best_point, std::int64_t share) {
    const double best = r.best_value;
    const Climbed c = hill_climb(ctx, r, best_point, best, share);
    r.best_point = c.value <= best ? c.point : best_point;
}

// Runs `round`: appends its units to `units` and calls
// run_unit(index in the round, the unit's random stream, its result) for each.
template <typename RunUnit>
void run_round(Context& ctx, tbb::task_arena& arena, std::vector<UnitResult>& units,
               const Round& round, RunUnit run_unit) {
    const std::size_t first = units.size();
    units.resize(first + round.units);
    run_units(ctx, arena, units, first, round.done_before, round.done_share,
              [&](std::size_t u, UnitResult& r) {
                  std::mt19937_64 rng(mix_seed(ctx.options.seed, u));
                  run_unit(u - first, rng, r);
              });
}

// ---- random sampling --------------------------------------------------------

constexpr std::size_t kRandomUnits = 64;

void random_round(Context& ctx, tbb::task_arena& arena, std::vector<UnitResult>& units,
                  const Round& round) {
    run_round(
        ctx, arena, units, round, [&](std::size_t index, std::mt19937_64& rng, UnitResult& r) {
            const std::int64_t share = unit_share(round, index);
            const std::int64_t sampling =
                round.polish ? share - std::int64_t(kPolishShare * double(share)) : share;
            MapPoint best_point;
            std::int64_t since_better = 0;
            while (r.evaluations < sampling && !ctx.stop) {
                const double before = r.best_value;
                const MapPoint point = ctx.space.random_point(rng);
                consider(ctx, r, ctx.space.to_mapping(point));
                const bool better = r.best_value < before;
                if (better) best_point = point;
                since_better = better ? 0 : since_better + 1;
                if (ctx.options.budget.patience > 0 && since_better >= ctx.options.budget.patience)
                    break;
                if ((r.evaluations & 255) == 255 && ctx.out_of_time()) ctx.stop = true;
            }
            if (round.polish && std::isfinite(r.best_value)) close_unit(ctx, r, best_point, share);
        });
}

// ---- simulated annealing ----------------------------------------------------

// Independent chains, a fixed number whatever the threads (determinism): in
// the one round of a fixed budget, and in each round of a search that stops
// on convergence. The latter are many short chains, each ending in a hill
// climb: more of them reach the basin of the best mapping (while this was
// tuned, on ResNet-18 with `any` dataflow and 50,000-evaluation first
// rounds, 12 of 62 layer-phases ended more than 1 % above a
// 2,000,000-evaluation search with 8 chains per round, 3 with 32).
constexpr std::size_t kChains = 8;
constexpr std::size_t kRoundChains = 32;
// Temperature on log(objective): at the start a move 2.7× worse is accepted
// with probability 1/e; at the end one 1 % worse with probability 1/e.
constexpr double kStartTemperature = 1.0;
constexpr double kEndTemperature = 0.01;
// The converging rounds' chains are short (3,000–10,000 evaluations): they
// start where a move 10 % worse is accepted with probability 1/e, so they
// spend their few steps descending instead of wandering. (`any` on ResNet-18,
// VGG-16 and MobileNet v2, seeds 1–4: 648 instead of 645 of 648 distinct
// problems within 1 % of the best known, worst 0.67 % instead of 1.36 %;
// bench/RESULTS.md, "Cooler short chains".)
constexpr double kRoundStartTemperature = 0.1;

void anneal_round(Context& ctx, tbb::task_arena& arena, std::vector<UnitResult>& units,
                  const Round& round) {
    const bool timed =
        ctx.options.budget.max_evaluations <= 0 && ctx.options.budget.max_seconds > 0;
    run_round(ctx, arena, units, round, [&](std::size_t, std::mt19937_64& rng, UnitResult& r) {
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        // Not unit_share(): a fixed budget's chains each take budget ÷ chains.
        const std::int64_t share =
            std::max<std::int64_t>(1, round.evaluations / std::int64_t(round.units));
        // A converging round's chains keep the last kPolishShare of their share
        // for the closing climb. A fixed budget's anneal their whole share, as
        // they did before they climbed, so the climb can only improve on what the
        // annealing found; it may spend up to kFixedClimbShare of the share more.
        const std::int64_t annealing =
            round.polish ? share - std::int64_t(kPolishShare * double(share)) : share;
        const std::int64_t climb_limit =
            round.polish ? share : share + std::int64_t(kFixedClimbShare * double(share));
        // Start from a random valid point.
        MapPoint current;
        double current_value = std::numeric_limits<double>::infinity();
        while (r.evaluations < annealing && !std::isfinite(current_value) && !ctx.stop) {
            current = ctx.space.random_point(rng);
            current_value = consider(ctx, r, ctx.space.to_mapping(current));
        }
        if (!std::isfinite(current_value)) return;
        MapPoint best_point = current;
        const double start_temperature = round.polish ? kRoundStartTemperature : kStartTemperature;
        const std::int64_t steps = std::max<std::int64_t>(1, annealing - r.evaluations);
        const double cooling = std::pow(kEndTemperature / start_temperature, 1.0 / double(steps));
        double temperature = start_temperature;
        std::int64_t since_better = 0;
        while (r.evaluations < annealing && !ctx.stop) {
            const MapPoint next = ctx.space.neighbor(
                current, rng, round.polish ? SpatialMove::rescale : SpatialMove::resplit);
            const double before = r.best_value;
            const double value = consider(ctx, r, ctx.space.to_mapping(next));
            if (timed) {
                // Only a time budget: cool with the fraction of the time used.
                if ((r.evaluations & 255) == 0) {
                    const double used =
                        std::chrono::duration<double>(Clock::now() - ctx.start).count() /
                        ctx.options.budget.max_seconds;
                    temperature = start_temperature * std::pow(kEndTemperature / start_temperature,
                                                               std::min(1.0, used));
                }
            } else {
                temperature *= cooling;
            }
            const bool better = r.best_value < before;
            if (better) best_point = next;
            since_better = better ? 0 : since_better + 1;
            if (std::isfinite(value)) {
                const double delta = std::log(value) - std::log(current_value);
                if (delta <= 0 || uniform(rng) < std::exp(-delta / temperature)) {
                    current = next;
                    current_value = value;
                }
            }
            if (ctx.options.budget.patience > 0 && since_better >= ctx.options.budget.patience)
                break;
            if ((r.evaluations & 255) == 255 && ctx.out_of_time()) ctx.stop = true;
        }
        // Every chain ends with a hill climb from its best: annealing stops near
        // a local optimum and the climb reaches it (bench/RESULTS.md, "Closing
        // climb").
        close_unit(ctx, r, best_point, climb_limit);
    });
}

// ---- rounds until converged ---------------------------------------------------

// SearchBudget::stop_when_converged: rounds of fresh units, each round
// kRoundGrowth times as long as the one before, the first
// kFirstRoundEvaluations long, each unit ending with a hill climb. The search
// has converged when a round, though longer and from other random starts,
// ends within kRoundAgreement of the best of the rounds before it: the same
// answer found independently twice. It stops there, or at the budget.
constexpr std::int64_t kFirstRoundEvaluations = 100'000;
constexpr std::int64_t kRoundGrowth = 3;
constexpr double kRoundAgreement = 0.005;

struct RoundsOutcome {
    bool converged = false;
    int rounds = 0;
    std::size_t last_round_first_unit = 0;
    std::size_t last_round_end = 0;  // units after it are closing steps
};

template <typename RunRound>
RoundsOutcome run_rounds(Context& ctx, std::vector<UnitResult>& units, std::size_t units_per_round,
                         std::int64_t budget, RunRound run_round) {
    RoundsOutcome outcome;
    double best_before = std::numeric_limits<double>::infinity();
    std::int64_t spent = 0;
    std::int64_t length = std::min(budget, kFirstRoundEvaluations);
    while (!ctx.stop) {
        const std::size_t first = units.size();
        run_round(Round{length, units_per_round, true, double(spent) / double(budget),
                        double(length) / double(budget)});
        ++outcome.rounds;
        outcome.last_round_first_unit = first;
        outcome.last_round_end = units.size();
        double round_best = std::numeric_limits<double>::infinity();
        for (std::size_t u = first; u < units.size(); ++u) {
            round_best = std::min(round_best, units[u].best_value);
            spent += units[u].evaluations;
        }
        if (outcome.rounds >= 2 && std::isfinite(best_before) &&
            std::abs(round_best / best_before - 1) <= kRoundAgreement) {
            outcome.converged = true;
            break;
        }
        best_before = std::min(best_before, round_best);
        // A round spends at most its length, if it has at least one
        // evaluation per unit; stop when what is left cannot give them that.
        if (budget - spent < std::int64_t(units_per_round)) break;
        length = std::min(length * kRoundGrowth, budget - spent);
    }
    return outcome;
}

// The pair climb from the rounds' kClosingStarts best distinct local optima,
// one unit each (in parallel), spending at most `limit` in all. When it finds a
// mapping better than the rounds by more than their agreement, they had not
// converged after all. (Three starts rather than one: on ResNet-18, VGG-16
// and MobileNet v2 with `any`, 158 instead of 157 of 162 distinct problems
// within 1 % of a 2,000,000-evaluation search; bench/RESULTS.md.)
constexpr std::int64_t kClosingEvaluations = 50'000;
constexpr std::size_t kClosingStarts = 3;

void close_with_pair_climb(Context& ctx, tbb::task_arena& arena, std::vector<UnitResult>& units,
                           RoundsOutcome& outcome, std::int64_t limit) {
    // The best points of the units, best first (index order among equals).
    std::vector<std::size_t> order;
    for (std::size_t u = 0; u < units.size(); ++u) {
        if (units[u].best_point) order.push_back(u);
    }
    if (order.empty() || limit <= 0) return;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return units[a].best_value < units[b].best_value;
    });
    const double rounds_best = units[order.front()].best_value;
    // The kClosingStarts best distinct local optima, each climbed by a unit of its own.
    std::vector<MapPoint> starts;
    std::vector<double> values;
    for (std::size_t u : order) {
        if (starts.size() == kClosingStarts) break;
        if (!values.empty() && units[u].best_value == values.back()) continue;
        starts.push_back(*units[u].best_point);
        values.push_back(units[u].best_value);
    }
    const std::size_t first = units.size();
    units.resize(first + starts.size());
    const std::int64_t share = limit / std::int64_t(starts.size());
    run_units(ctx, arena, units, first, 1.0, 0.0, [&](std::size_t u, UnitResult& r) {
        pair_climb(ctx, r, starts[u - first], values[u - first], share);
    });
    for (std::size_t u = first; u < units.size(); ++u) {
        if (units[u].best_value < rounds_best * (1 - kRoundAgreement)) outcome.converged = false;
    }
}

// ---- exhaustive ---------------------------------------------------------------

// Tilings (spatial × keep × temporal factors) are generated in a fixed order,
// pruning a partial tiling as soon as a level overflows; each tiling is one
// unit that tries all its loop orders. Units are evaluated in batches of at
// most kBatchEvaluations evaluations (a tiling's order count is known up
// front), and a unit that would cross the evaluation budget is cut at it, so
// the budget is exact and the cut does not depend on the threads.
constexpr std::int64_t kBatchEvaluations = 50'000;

class Exhaustive {
  public:
    Exhaustive(Context& ctx, tbb::task_arena& arena, SearchResult& out, double& best_value,
               ParetoFront& front)
        : ctx_(ctx), arena_(arena), out_(out), best_value_(best_value), front_(front) {}

    // Returns true when the whole mapspace was covered.
    bool run() {
        MapPoint point;
        for (std::uint32_t s = 0; s < ctx_.space.spatial_choices().size() && !ctx_.stop; ++s) {
            point.spatial = s;
            if (!keeps(point, 0)) break;
        }
        flush();
        return !ctx_.stop;
    }

  private:
    bool keeps(MapPoint& p, std::size_t level) {
        if (level == ctx_.space.num_levels()) {
            DimBounds remaining;
            for (Dim d : kAllDims) remaining[d] = ctx_.space.temporal_bound(p.spatial, d);
            return tile(p, ctx_.space.num_levels() - 1, remaining);
        }
        for (const DataSpaceSet& keep : ctx_.space.keep_choices(level)) {
            p.keep[level] = keep;
            if (!keeps(p, level + 1)) return false;
        }
        return true;
    }

    // Chooses level `level`'s temporal factors (innermost level first); the
    // outermost takes what is left.
    bool tile(MapPoint& p, std::size_t level, const DimBounds& remaining) {
        if (level == 0) {
            p.factors[0] = remaining;
            for (Dim d : kAllDims) {
                if (!ctx_.space.factor_allowed(0, d, remaining[d])) return true;
            }
            if (!fits(p, 0)) return true;
            const std::int64_t orders = order_count(p);
            if (!batch_.empty() && batch_evaluations_ + orders > kBatchEvaluations && !flush()) {
                return false;
            }
            std::int64_t cap = orders;
            const std::int64_t limit = ctx_.options.budget.max_evaluations;
            if (limit > 0) cap = std::min(cap, limit - out_.evaluations - batch_evaluations_);
            if (cap <= 0) {
                ctx_.stop = true;
                return false;
            }
            batch_.push_back({p, cap});
            batch_evaluations_ += cap;
            return true;
        }
        // Mixed-radix walk over the divisors of each dimension's remainder.
        std::array<std::vector<std::int64_t>, kNumDims> options;
        for (Dim d : kAllDims) {
            for (std::int64_t f : divisors(remaining[d])) {
                if (ctx_.space.factor_allowed(level, d, f)) options[std::size_t(d)].push_back(f);
            }
        }
        for (Dim d : kAllDims) {
            if (options[std::size_t(d)].empty()) return true;  // the factor bounds allow none
        }
        std::array<std::size_t, kNumDims> index{};
        while (true) {
            DimBounds rest;
            for (Dim d : kAllDims) {
                p.factors[level][d] = options[std::size_t(d)][index[std::size_t(d)]];
                rest[d] = remaining[d] / p.factors[level][d];
            }
            if (fits(p, level) && !tile(p, level - 1, rest)) return false;
            std::size_t k = 0;
            while (k < kNumDims && ++index[k] == options[k].size()) index[k++] = 0;
            if (k == kNumDims) return true;
        }
    }

    // Whether level `level`'s kept tiles fit, given the factors at it and inside it
    // (a partitioned level: the data in its data part, the metadata in its index part).
    bool fits(const MapPoint& p, std::size_t level) {
        const LevelModel& model = ctx_.arch.levels[level];
        const std::int64_t capacity = model.capacity_words;
        if (capacity < 0) return true;
        const SpatialChoice& s = ctx_.space.spatial_choices()[p.spatial];
        DimBounds tile;
        tile.values.fill(1);
        for (std::size_t i = level; i < ctx_.space.num_levels(); ++i) {
            for (Dim d : kAllDims) tile[d] *= p.factors[i][d];
            for (const Loop& l : s.x[i]) tile[l.dim] *= l.factor;
            for (const Loop& l : s.y[i]) tile[l.dim] *= l.factor;
        }
        const bool partitioned = model.metadata_capacity_words >= 0;
        double words = 0;
        double metadata = 0;
        for (DataSpace space : kAllDataSpaces) {
            if (!p.keep[level].contains(space)) continue;
            const CompressedSize stored =
                stored_tile(model, ctx_.problem, space, tile,
                            ctx_.options.densities ? &*ctx_.options.densities : nullptr);
            words += partitioned ? stored.data_words : stored.words(model.word_bits);
            metadata += stored.metadata_bits / double(model.word_bits);
        }
        const bool metadata_fits =
            !partitioned || std::ceil(metadata) <= double(model.metadata_capacity_words);
        if (std::ceil(words) <= double(capacity) && metadata_fits) return true;
        ++pruned_[level];
        return false;
    }

    // Evaluates the batch (each tiling with all its loop orders) in parallel.
    bool flush() {
        for (std::size_t l = 0; l < kMaxLevels; ++l) {
            out_.rejected[std::size_t(ViolationKind::capacity)] += pruned_[l];
            out_.rejected_capacity_by_level[l] += pruned_[l];
            pruned_[l] = 0;
        }
        if (batch_.empty()) return !ctx_.stop;
        std::vector<UnitResult> units(batch_.size());
        batch_evaluations_ = 0;
        parallel_units(arena_, 0, batch_.size(),
                       [&](std::size_t u) { orders(batch_[u].point, batch_[u].cap, units[u]); });
        batch_.clear();
        for (const UnitResult& r : units)
            merge(ctx_.options.objective, out_, best_value_, front_, r);
        if (ctx_.options.progress) {
            SearchProgress progress{out_.evaluations, out_.valid,
                                    std::isfinite(best_value_) ? best_value_ : 0, 0};
            ctx_.options.progress(progress);
        }
        const std::int64_t limit = ctx_.options.budget.max_evaluations;
        if ((limit > 0 && out_.evaluations >= limit) || ctx_.out_of_time()) ctx_.stop = true;
        return !ctx_.stop;
    }

    // Loop orders of a tiling: Π over the levels above the innermost of the
    // orders of its loops with factor > 1 that the constraints allow (all
    // (loops)! without an order constraint).
    std::int64_t order_count(const MapPoint& p) const {
        std::int64_t count = 1;
        for (std::size_t i = 0; i + 1 < ctx_.space.num_levels(); ++i) {
            std::vector<Dim> loops;
            for (Dim d : kAllDims) {
                if (p.factors[i][d] > 1) loops.push_back(d);
            }
            count *= ctx_.space.order_count(i, loops);
        }
        return count;
    }

    // The first `cap` orders of the loops with factor > 1 at each level above
    // the innermost (all of them unless the budget cuts the unit).
    void orders(MapPoint p, std::int64_t cap, UnitResult& r) {
        const std::size_t levels = ctx_.space.num_levels();
        std::array<std::vector<Dim>, kMaxLevels> loops;
        for (std::size_t i = 0; i + 1 < levels; ++i) {
            for (Dim d : kAllDims) {
                if (p.factors[i][d] > 1) loops[i].push_back(d);
            }
        }
        p.order[levels - 1] = kAllDims;
        ctx_.space.constrain_order(levels - 1, p.order[levels - 1]);
        std::function<void(std::size_t)> go = [&](std::size_t level) {
            if (r.evaluations >= cap) return;
            if (level + 1 >= levels) {
                consider(ctx_, r, ctx_.space.to_mapping(p));
                return;
            }
            std::vector<Dim> perm = loops[level];
            do {
                if (!ctx_.space.order_allowed(level, perm)) continue;
                std::size_t k = 0;
                for (Dim d : perm) p.order[level][k++] = d;
                for (Dim d : kAllDims) {
                    if (p.factors[level][d] <= 1) p.order[level][k++] = d;
                }
                go(level + 1);
            } while (r.evaluations < cap && std::next_permutation(perm.begin(), perm.end()));
        };
        go(0);
    }

    Context& ctx_;
    tbb::task_arena& arena_;
    SearchResult& out_;
    double& best_value_;
    ParetoFront& front_;
    struct Unit {
        MapPoint point;
        std::int64_t cap;  // evaluations allowed
    };
    std::vector<Unit> batch_;
    std::int64_t batch_evaluations_ = 0;
    std::array<std::int64_t, kMaxLevels> pruned_{};
};

}  // namespace

double objective_value(Objective objective, std::int64_t cycles, double energy_pj,
                       double offchip_words) {
    switch (objective) {
        case Objective::energy:
            return energy_pj;
        case Objective::offchip:
            return offchip_words;
        case Objective::latency:
            return double(cycles);
        case Objective::edp:
        case Objective::pareto:
            return energy_pj * double(cycles);
    }
    return energy_pj;
}

bool improves(Objective objective, double value, double energy_pj, double best_value,
              const std::optional<Candidate>& best) {
    if (value != best_value) return value < best_value;
    // Many mappings take the fewest cycles or move the fewest words: of
    // those, the least energy.
    const bool ties_to_energy = objective == Objective::latency || objective == Objective::offchip;
    return ties_to_energy && best && energy_pj < best->energy_pj;
}

int search_parallelism(SearchStrategy strategy, bool stop_when_converged) {
    switch (strategy) {
        case SearchStrategy::exhaustive:
            return std::numeric_limits<int>::max();
        case SearchStrategy::random:
            return int(kRandomUnits);
        case SearchStrategy::anneal:
            return int(stop_when_converged ? kRoundChains : kChains);
    }
    return 1;
}

std::optional<Objective> objective_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kObjectiveNames.size(); ++i) {
        if (kObjectiveNames[i] == name) return static_cast<Objective>(i);
    }
    return std::nullopt;
}

std::optional<SearchStrategy> strategy_from_name(std::string_view name) {
    for (std::size_t i = 0; i < kSearchStrategyNames.size(); ++i) {
        if (kSearchStrategyNames[i] == name) return static_cast<SearchStrategy>(i);
    }
    return std::nullopt;
}

std::string_view objective_name(Objective o) { return kObjectiveNames[std::size_t(o)]; }

std::string_view strategy_name(SearchStrategy s) { return kSearchStrategyNames[std::size_t(s)]; }

std::vector<std::string> objective_names() {
    return {kObjectiveNames.begin(), kObjectiveNames.end()};
}

std::vector<std::string> strategy_names() {
    return {kSearchStrategyNames.begin(), kSearchStrategyNames.end()};
}

SearchResult search(const ArchModel& arch, const PhaseProblem& problem, const Mapspace& space,
                    const SearchOptions& options) {
    Context ctx{arch, problem, space, options, Clock::now()};
    tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
    SearchResult out;
    double best_value = std::numeric_limits<double>::infinity();
    ParetoFront front;
    if (space.spatial_choices().empty()) return out;
    std::vector<UnitResult> units;
    SearchStrategy strategy = options.strategy;
    const bool rounds = options.budget.stop_when_converged &&
                        strategy != SearchStrategy::exhaustive &&
                        options.budget.max_evaluations > 0;
    // A mapspace no larger than a first round is covered exactly instead.
    if (rounds && space.size().total() <= double(kFirstRoundEvaluations)) {
        strategy = SearchStrategy::exhaustive;
    }
    const bool random = strategy == SearchStrategy::random;
    const std::size_t units_per_round = random ? kRandomUnits : rounds ? kRoundChains : kChains;
    const auto run_round = [&](const Round& round) {
        if (random) {
            random_round(ctx, arena, units, round);
        } else {
            anneal_round(ctx, arena, units, round);
        }
    };
    RoundsOutcome outcome;
    if (strategy == SearchStrategy::exhaustive) {
        Exhaustive exhaustive(ctx, arena, out, best_value, front);
        out.exhausted = exhaustive.run();
    } else if (rounds) {
        const std::int64_t budget = options.budget.max_evaluations;
        const std::int64_t closing = std::min(budget / 8, kClosingEvaluations);
        outcome = run_rounds(ctx, units, units_per_round, budget - closing, run_round);
        close_with_pair_climb(ctx, arena, units, outcome, closing);
    } else {
        const std::int64_t fallback = std::int64_t(units_per_round) * (random ? 1000 : 5000);
        run_round(Round{evaluation_budget(options.budget, fallback), units_per_round});
    }
    for (const UnitResult& r : units) merge(options.objective, out, best_value, front, r);
    out.rounds = outcome.rounds;
    if (strategy == SearchStrategy::exhaustive) {
        out.converged = out.exhausted;
    } else if (std::isfinite(best_value)) {
        // The units of the last round (all of them without rounds).
        const std::size_t first = outcome.last_round_first_unit;
        const std::size_t end = rounds ? outcome.last_round_end : units.size();
        out.units = int(end - first);
        for (std::size_t u = first; u < end; ++u) {
            if (units[u].best_value <= best_value * (1 + kConvergedTolerance))
                ++out.units_near_best;
        }
        const int needed = std::max(2, int(std::ceil(kConvergedUnitsFraction * double(out.units))));
        out.converged = rounds ? outcome.converged : out.units_near_best >= needed;
    }
    if (options.objective == Objective::pareto) {
        out.pareto = front.sorted();
        // The front's best EDP stands for it where one mapping is needed.
        out.best.reset();
        double best_edp = std::numeric_limits<double>::infinity();
        for (const Candidate& c : out.pareto) {
            if (c.edp() < best_edp) {
                best_edp = c.edp();
                out.best = c;
            }
        }
    }
    out.seconds = std::chrono::duration<double>(Clock::now() - ctx.start).count();
    return out;
}

}  // namespace trainloop
