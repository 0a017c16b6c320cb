#!/usr/bin/env bash
# Regenerates docs/reproductions/procrustes.md: builds trainloop, runs the
# Procrustes sweeps (the paper's setup and one sweep per assumption where the
# paper is silent) into build/reproduction/, and writes every claim of the
# paper next to trainloop's figure (scripts/reproduce_procrustes.py).
# Rerunning resumes the sweeps (finished points are kept in the databases).
#
#   scripts/reproduce_procrustes.sh                  # budget 8000 per problem
#   scripts/reproduce_procrustes.sh --budget 16000   # the convergence check's budget everywhere
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 scripts/reproduce_procrustes.py --trainloop build/trainloop "$@"
