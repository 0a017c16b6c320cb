#include "search/pareto_front.hpp"

#include <algorithm>

namespace trainloop {
namespace {

// a is at least as good as b on both axes.
bool covers(const Candidate& a, const Candidate& b) {
    return a.energy_pj <= b.energy_pj && a.cycles <= b.cycles;
}

}  // namespace

bool ParetoFront::insert(const Candidate& candidate) {
    for (const Candidate& m : members_) {
        if (covers(m, candidate)) return false;  // dominated, or equal to one we have
    }
    std::erase_if(members_, [&](const Candidate& m) { return covers(candidate, m); });
    members_.push_back(candidate);
    return true;
}

std::vector<Candidate> ParetoFront::sorted() const {
    std::vector<Candidate> out = members_;
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
        return a.energy_pj != b.energy_pj ? a.energy_pj < b.energy_pj : a.cycles < b.cycles;
    });
    return out;
}

}  // namespace trainloop
