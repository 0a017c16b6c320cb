#!/usr/bin/env bash
# Installs the Debian packages trainloop needs, in two parts:
#
#   scripts/setup.sh          what the quick start needs: the build toolchain,
#                             the libraries, and Python 3 with matplotlib for
#                             `trainloop report` (and PyYAML for the shipped
#                             Python tools: workloads/tools, the reproductions);
#   scripts/setup.sh --test   that, and the test toolchain as well (GoogleTest,
#                             Google Benchmark, clang-format, pyflakes, chromium,
#                             clang + libFuzzer, Slurm + MUNGE): what
#                             scripts/test.sh runs.
#   scripts/setup.sh [--test] --list   prints the packages, installs nothing.
#
# Idempotent: packages already installed are skipped, and apt is not touched
# at all when nothing is missing.
set -euo pipefail

test_tools=false
list_only=false
for arg in "$@"; do
  case $arg in
    --test) test_tools=true ;;
    --list) list_only=true ;;
    *)
      echo "error: scripts/setup.sh: unknown option \`$arg\`" >&2
      echo "  expected: --test (add the test toolchain), --list (print the packages only)" >&2
      exit 2
      ;;
  esac
done

# The quick start (scripts/quickstart.sh): build and run trainloop, write a report.
packages=(
  g++ cmake ninja-build pkg-config
  libboost-graph-dev libtbb-dev libyaml-cpp-dev libsqlite3-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  python3 python3-matplotlib python3-numpy   # reports/: `trainloop report` and its charts
  python3-yaml                 # the shipped Python tools: workloads/tools, scripts/reproduce_*.py
)
# The tests (scripts/test.sh): everything the four build trees and ctest use.
if $test_tools; then
  packages+=(
    libgtest-dev libgmock-dev    # tests/: the GoogleTest suites
    ccache                       # scripts/build.sh: the four trees reuse what this machine compiled before
    libbenchmark-dev             # bench/: the benchmarks and their smoke runs
    clang-format                 # tests: C++ formatting (label lint)
    python3-pyflakes             # tests: the Python scripts pass pyflakes (label lint)
    chromium                     # tests: reports render in a headless browser (label browser)
    clang libfuzzer-14-dev       # the libFuzzer targets (fuzz/)
    slurm-wlm munge              # tests/slurm/: a one-node Slurm runs examples/sweeps/slurm_array.sh (authenticating with MUNGE)
  )
fi

if $list_only; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

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
