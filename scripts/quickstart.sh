#!/usr/bin/env bash
# The main job on a built-in default: set up (scripts/setup.sh: what the quick
# start needs, no test tools), build trainloop, run the sample sweep
# (examples/sweeps/quickstart.yaml: the headline of the Procrustes
# reproduction — dense training on the Procrustes baseline against sparse
# training on the Procrustes accelerator, 16×16 PEs, K,N, ResNet-18,
# MobileNet v2 and VGG-S) into a results database, print the headline
# comparison — the sparse design against the dense baseline over a whole
# training step — with a canned query, then write the HTML report that
# compares the two designs (docs/reports.md).
#
# Rerunning resumes (finished points are kept); the database stays for more
# queries: see docs/results_db.md.
#
# TRAINLOOP_BINARY=path/to/trainloop scripts/quickstart.sh uses that binary
# and skips the set-up and the build (the test of this script does so on a
# fresh clone: tests/scripts/test_quickstart.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${TRAINLOOP_BINARY:-}" ]; then
  trainloop=$TRAINLOOP_BINARY
  echo "quickstart: using $trainloop (set-up and build skipped)"
else
  scripts/setup.sh
  if [ -f build/CMakeCache.txt ]; then
    cmake -S . -B build >/dev/null   # keeps the tree's settings (scripts/test.sh's, say)
  else
    # Neither the tests nor the benchmarks: their libraries are the test
    # toolchain's (scripts/setup.sh --test).
    cmake -S . -B build -G Ninja -DTRAINLOOP_BUILD_TESTS=OFF -DTRAINLOOP_BUILD_BENCH=OFF >/dev/null
  fi
  cmake --build build -j "$(nproc)" --target trainloop
  trainloop=build/trainloop
fi

mkdir -p build
db=build/quickstart.db
report=build/quickstart_report.html
"$trainloop" sweep examples/sweeps/quickstart.yaml --db "$db"
echo
echo "Training step (fw + bw + wu), K,N dataflow, against procrustes_baseline_16x16"
echo "(energy_ratio = sparse / dense energy; its inverse is the energy saving):"
"$trainloop" query --db "$db" compare-archs --baseline procrustes_baseline_16x16 --phase step
echo
echo "Procrustes (Yang et al., MICRO 2020, §VI-C) reports 3.26x less energy for ResNet-18 and"
echo "2.39x for MobileNet v2. Every claim of the paper next to trainloop's figure, with the"
echo "assumptions and how far each moves the result: docs/reproductions/procrustes.md"
echo "(regenerate: scripts/reproduce.sh procrustes)."
echo
echo "More: $trainloop query --db $db summary | best --arch procrustes_sparse_16x16 --network resnet18 --dataflow K,N | ... (docs/results_db.md)"
echo
# After the sweep: the report is of this run's database.
"$trainloop" report --db "$db" --baseline procrustes_baseline_16x16 --out "$report"
echo "Report: $(pwd)/$report"
