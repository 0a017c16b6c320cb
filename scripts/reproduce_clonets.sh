#!/usr/bin/env bash
# Regenerates docs/reproductions/clonets.md: builds trainloop, counts the
# parameters of CloNets' dense and Clos networks (`trainloop workload show`),
# maps Table I's dense and Clos layers on arch_specs/clonets_torus_32x32.yaml
# at batch 1 (`trainloop map`), once as shipped and once per assumption where
# the paper is silent (scripts/reproduce_clonets.py), and writes each claim
# next to trainloop's figure. About ten seconds.
#
#   scripts/reproduce_clonets.sh               # anneal search, budget 4000 per problem
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 scripts/reproduce_clonets.py --trainloop build/trainloop "$@"
