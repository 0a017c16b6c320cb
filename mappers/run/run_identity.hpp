// The identity of one map run (`trainloop map --db`, or `train-cost --db`): a YAML description of
// every input that changes its result — the specs by name, the batch, the
// phases, and every setting of run_settings.hpp (dataflow, bypass, the
// constraints file, objective, strategy, budget, patience, time budget,
// seed, density iteration, a training run's length) — and a content hash over it and over the texts
// of the specs (architecture, network, profile, constraints file). The
// store keys a `map --db` run on the hash: the same command writes the same
// point again, and any change of input writes a new one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "run/run_settings.hpp"
#include "store/store_records.hpp"

namespace trainloop {

struct RunIdentity {
    std::string description;  // YAML, stored as the run's sweep text
    std::string hash;
};

// With settings.training_run, the identity of a `train-cost --db` run: the
// same settings under `train-cost:`, plus its iterations and samples, then
// `evaluator_lines`, the evaluator's own (Evaluator::identity: none for the
// default, so the runs stored before there were evaluators keep theirs).
RunIdentity map_run_identity(const SpecText& arch, const SpecText& network, std::int64_t batch,
                             const SpecText& sparsity, const RunSettings& settings,
                             std::string_view evaluator_lines = {});

// "fw,bw,wu": the phases a run maps, as stored.
std::string phases_text(const std::vector<Phase>& phases);

}  // namespace trainloop
