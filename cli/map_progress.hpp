// `trainloop map`'s progress on standard error: layer-phases done, problems
// searched, evaluations and their rate, the best objective so far, and an
// ETA; drawn by ProgressBar (progress_bar.hpp).
#pragma once

#include "network/network_mapper.hpp"
#include "progress_bar.hpp"
#include "search/search.hpp"

namespace trainloop::cli {

class MapProgress {
  public:
    MapProgress(bool enabled, Objective objective);
    void update(const NetworkMapProgress& p);
    // Erases the bar on a terminal so what follows starts clean.
    void finish();

  private:
    ProgressBar bar_;
    Objective objective_;
    bool started_ = false;
};

}  // namespace trainloop::cli
