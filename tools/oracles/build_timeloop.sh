#!/usr/bin/env bash
# Builds Timeloop v3.0.3 (which includes Sparseloop) as a development-only
# oracle for trainloop's nest analysis and sparse evaluation. trainloop never
# links against it or needs it at run time; tools/oracles/ and the oracle tests
# use it when it is present.
#
#   tools/oracles/build_timeloop.sh [BUILD_DIR]
#
# BUILD_DIR (default ${TIMELOOP_ORACLE_DIR:-$HOME/.cache/trainloop/timeloop})
# receives the sources (a checkout of tag v3.0.3) and the build; the
# binaries end up in BUILD_DIR/timeloop/build/ (timeloop-model, timeloop-mapper).
# TIMELOOP_GIT (default https://github.com/NVlabs/timeloop.git) may name any
# clone or mirror that has commit 6b41058f.
#
# Why v3.0.3: later master needs barvinok/ISL, which Debian does not package.
# Energy is always passed to timeloop-model as ERT/ART files, so Accelergy is
# never needed.
set -euo pipefail

readonly commit=6b41058f88bf6c70e04927f5907f20b8203e0498 # tag v3.0.3
build_dir=${1:-${TIMELOOP_ORACLE_DIR:-$HOME/.cache/trainloop/timeloop}}
git_source=${TIMELOOP_GIT:-https://github.com/NVlabs/timeloop.git}

packages=(git scons g++ libconfig++-dev libyaml-cpp-dev libboost-iostreams-dev
          libboost-serialization-dev libboost-thread-dev libncurses-dev libgpm-dev
          libtinfo-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "build_timeloop: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

mkdir -p "$build_dir"
src="$build_dir/timeloop"
if [ ! -d "$src/.git" ]; then
  git clone --quiet "$git_source" "$src"
fi
git -C "$src" checkout --quiet "$commit"

# Timeloop finds its PAT (energy/area tables) through this link.
ln -sfn ../pat-public/src/pat "$src/src/pat"

jobs=${JOBS:-2}
(cd "$src" && scons -j"$jobs")

for tool in timeloop-model timeloop-mapper; do
  test -x "$src/build/$tool" || { echo "build_timeloop: $tool was not built" >&2; exit 1; }
done
echo "build_timeloop: Timeloop v3.0.3 in $src/build"
echo "  run with LD_LIBRARY_PATH=$src/build (the binaries load libtimeloop-*.so from there)"
