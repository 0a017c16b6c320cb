#!/usr/bin/env bash
# Regenerates one paper's reproduction, docs/reproductions/<paper>.md: builds
# trainloop (build/, RelWithDebInfo), then runs scripts/reproduce_<paper>.py,
# which runs trainloop on the paper's setup and once per assumption where the
# paper is silent, and writes each claim next to trainloop's figure. Options
# after the paper's name go to its script (`--help` lists them).
#
#   scripts/reproduce.sh procrustes [--budget 16000]   # sweeps; resumes finished points
#   scripts/reproduce.sh eager_pruning [--resume]      # about 60-75 minutes; saves after each network
#   scripts/reproduce.sh resprop [--budget 2000]       # train-cost on GSCN
#   scripts/reproduce.sh clonets                       # about ten seconds
#   scripts/reproduce.sh seed003 [--networks a,b] [--resume]  # 77 min on two idle cores; saves after each part
set -euo pipefail
cd "$(dirname "$0")/.."
papers=$(cd scripts && ls reproduce_*.py | sed -e 's/^reproduce_//' -e 's/\.py$//' | tr '\n' ' ')
if [ $# -lt 1 ]; then
  echo "usage: scripts/reproduce.sh PAPER [options]   (PAPER: ${papers% })" >&2
  exit 2
fi
if [ ! -f "scripts/reproduce_$1.py" ]; then
  echo "error: scripts/reproduce.sh: unknown paper \`$1\`" >&2
  echo "  expected: one of ${papers% }" >&2
  exit 2
fi
paper=$1
shift
scripts/setup.sh
if [ ! -f build/CMakeCache.txt ]; then
  # Neither tests nor benchmarks: their libraries come with scripts/setup.sh --test.
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTRAINLOOP_BUILD_TESTS=OFF -DTRAINLOOP_BUILD_BENCH=OFF >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 "scripts/reproduce_$paper.py" --trainloop build/trainloop "$@"
