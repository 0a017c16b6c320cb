#!/usr/bin/env bash
# Configures and builds one build tree. Usage: scripts/build.sh DIR [cmake args...]
# With TARGETS="a b ..." in the environment, builds only those targets.
#
# Where ccache is installed (scripts/setup.sh --test installs it), every
# compile goes through it: sources unchanged since some earlier build on this
# machine (another clone, a worktree, a CI run after a session) are cache hits.
# Paths under the repository are hashed relative to it (CCACHE_BASEDIR, and
# CCACHE_NOHASHDIR for the -g trees), so clones in different folders share the
# cache. Without ccache nothing changes. TRAINLOOP_NO_CCACHE=1 turns it off.
set -euo pipefail
dir=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
launcher=()
if [ -z "${TRAINLOOP_NO_CCACHE:-}" ] && command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=1
fi
cmake -S "$root" -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null
targets=()
for t in ${TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$dir" -j "$(nproc)" "${targets[@]}"
