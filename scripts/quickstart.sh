#!/usr/bin/env bash
# The main job on a built-in default: set up, build, run the sample sweep
# (examples/sweeps/quickstart.yaml: dense training on the Procrustes baseline
# against sparse training on the Procrustes architecture, 16×16 and 32×32 PEs,
# ResNet-18, MobileNet v2 and VGG-S, four dataflows) into a results database,
# print the headline comparison — every design against the dense 16×16
# baseline over a whole training step — with a canned query, and write the
# HTML report that compares the four designs (docs/reports.md).
# Rerunning resumes (finished points are kept); the database stays for more
# queries: see docs/results_db.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j "$(nproc)" --target trainloop
db=build/quickstart.db
build/trainloop sweep examples/sweeps/quickstart.yaml --db "$db"
echo
echo "Training step (fw + bw + wu), best dataflow per architecture, against procrustes_baseline_16x16:"
build/trainloop query --db "$db" compare-archs --baseline procrustes_baseline_16x16 --phase step
echo
echo "More: build/trainloop query --db $db summary | compare-dataflows --network resnet18 | best ... (docs/results_db.md)"
echo
report=build/quickstart_report.html
build/trainloop report --db "$db" --baseline procrustes_baseline_16x16 --out "$report"
echo "Report: $(pwd)/$report"
