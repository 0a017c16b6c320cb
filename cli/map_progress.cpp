#include "map_progress.hpp"

#include <fmt/format.h>

#include "common/count_format.hpp"
#include "map_report.hpp"

namespace trainloop::cli {
namespace {

// The current problem's best objective value, in its unit.
std::string best_text(Objective objective, double value) {
    switch (objective) {
        case Objective::energy:
            return microjoules(value) + " µJ";
        case Objective::latency:
            return si_count(value) + " cycles";
        case Objective::offchip:
            return si_count(value) + " off-chip words";
        case Objective::edp:
        case Objective::pareto:
            return fmt::format("EDP {:.3g} pJ·cycles", value);
    }
    return fmt::format("{:.3g}", value);
}

}  // namespace

// A plain line every 5 s when not on a terminal (map runs are shorter than
// sweeps), none at the end: map's summary line follows.
MapProgress::MapProgress(bool enabled, Objective objective)
    : bar_("map", "layer-phases", enabled, 5.0, false), objective_(objective) {}

void MapProgress::update(const NetworkMapProgress& p) {
    if (!started_) {  // the first report is the start: nothing to say yet
        started_ = true;
        bar_.start();
        return;
    }
    const double rate = p.seconds > 0 ? double(p.evaluations) / p.seconds : 0;
    std::string note =
        fmt::format("{}/{} problems, {} evaluations ({}/s)", p.problems_done, p.problems_total,
                    si_count(double(p.evaluations)), si_count(rate));
    if (p.best_objective > 0) note += ", best so far " + best_text(objective_, p.best_objective);
    bar_.update(p.layer_phases_done, p.layer_phases_total, p.seconds, note, p.fraction_done);
}

void MapProgress::finish() { bar_.finish(); }

}  // namespace trainloop::cli
