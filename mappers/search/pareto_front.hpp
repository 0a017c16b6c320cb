// ParetoFront: the candidates no other candidate beats on both energy and
// cycles, kept online: an insert that is dominated is dropped, and one that
// dominates removes what it beats. Ties keep the first inserted, so merging
// fronts in a fixed order gives a deterministic front.
#pragma once

#include <vector>

#include "search/search.hpp"

namespace trainloop {

class ParetoFront {
  public:
    // Returns whether the candidate joined the front.
    bool insert(const Candidate& candidate);
    // By increasing energy (then cycles).
    std::vector<Candidate> sorted() const;
    std::size_t size() const { return members_.size(); }

  private:
    std::vector<Candidate> members_;
};

}  // namespace trainloop
