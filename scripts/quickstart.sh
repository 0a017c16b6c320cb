#!/usr/bin/env bash
# The main job on a built-in default: set up, build, run the sample sweep
# (examples/sweeps/quickstart.yaml: the headline of the Procrustes
# reproduction — dense training on the Procrustes baseline against sparse
# training on the Procrustes accelerator, 16×16 PEs, K,N, ResNet-18,
# MobileNet v2 and VGG-S) into a results database, and print the headline
# comparison — the sparse design against the dense baseline over a whole
# training step — with a canned query, and write the HTML report that
# compares the two designs (docs/reports.md).
echo
report=build/quickstart_report.html
build/trainloop report --db "$db" --baseline procrustes_baseline_16x16 --out "$report"
echo "Report: $(pwd)/$report"
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
echo "Training step (fw + bw + wu), K,N dataflow, against procrustes_baseline_16x16"
echo "(energy_ratio = sparse / dense energy; its inverse is the energy saving):"
build/trainloop query --db "$db" compare-archs --baseline procrustes_baseline_16x16 --phase step
echo
echo "Procrustes (Yang et al., MICRO 2020, §VI-C) reports 3.26x less energy for ResNet-18 and"
echo "2.39x for MobileNet v2. Every claim of the paper next to trainloop's figure, with the"
echo "assumptions and how far each moves the result: docs/reproductions/procrustes.md"
echo "(regenerate: scripts/reproduce.sh procrustes)."
echo
echo "More: build/trainloop query --db $db summary | best --arch procrustes_sparse_16x16 --network resnet18 --dataflow K,N | ... (docs/results_db.md)"
echo
report=build/quickstart_report.html
build/trainloop report --db "$db" --baseline procrustes_baseline_16x16 --out "$report"
echo "Report: $(pwd)/$report"
