#!/usr/bin/env bash
# Installs every Debian package trainloop's build, tests and benchmarks need.
# Idempotent: packages already installed are skipped, and apt is not touched
# at all when nothing is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libboost-graph-dev libtbb-dev libyaml-cpp-dev libsqlite3-dev
  libbenchmark-dev libgtest-dev libgmock-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  clang-format
  python3 python3-yaml python3-matplotlib python3-numpy   # reports/: `trainloop report` charts; workloads/tools; the malformed-input corpus (tests/malformed/)
  python3-pyflakes             # tests: the Python scripts pass pyflakes (label lint)
  chromium                     # tests: reports render in a headless browser (label browser)
  clang libfuzzer-14-dev       # the libFuzzer targets (fuzz/)
  slurm-wlm munge              # tests/slurm/: a one-node Slurm runs examples/sweeps/slurm_array.sh (authenticating with MUNGE)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
