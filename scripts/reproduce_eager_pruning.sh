#!/usr/bin/env bash
# Regenerates docs/reproductions/eager_pruning.md: builds trainloop, runs
# `trainloop train-cost` for every network of Eager Pruning's Table 5 that
# has a network file, once with the shipped profile and once per assumption
# where the paper is silent (scripts/reproduce_eager_pruning.py), and writes
# each claim next to trainloop's figure.
#
#   scripts/reproduce_eager_pruning.sh                     # annealing, budget 20000, fewest cycles
#   scripts/reproduce_eager_pruning.sh --budget 100000     # check that the search has converged
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 scripts/reproduce_eager_pruning.py --trainloop build/trainloop "$@"
