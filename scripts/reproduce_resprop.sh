#!/usr/bin/env bash
# Regenerates docs/reproductions/resprop.md: builds trainloop, runs
# `trainloop train-cost` for ReSprop's ImageNet networks on GSCN
# (arch_specs/gscn_4x64.yaml) and its dense counterpart, once with the shipped
# profile and once per assumption where the thesis is silent
# (scripts/reproduce_resprop.py), and writes each claim next to trainloop's
# figure.
#
#   scripts/reproduce_resprop.sh                  # annealing, budget 20000, fewest cycles
#   scripts/reproduce_resprop.sh --budget 2000    # quicker, further from converged
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 scripts/reproduce_resprop.py --trainloop build/trainloop "$@"
