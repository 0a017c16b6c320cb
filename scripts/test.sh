#!/usr/bin/env bash
# Set up, build and run every test: the plain build (unit tests + benchmark
# smoke runs), then the same tests under AddressSanitizer + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== plain build: unit tests and benchmark smoke runs"
scripts/build.sh build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRAINLOOP_SANITIZE=OFF
ctest --test-dir build --output-on-failure -j "$(nproc)"

echo "== sanitizer build (ASan + UBSan): unit tests"
scripts/build.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DTRAINLOOP_SANITIZE=ON -DTRAINLOOP_BUILD_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L sanitizer
