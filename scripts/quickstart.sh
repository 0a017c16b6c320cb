#!/usr/bin/env bash
# The main job on a built-in default: set up, build, and show the training
# problems (fw, bw, wu of every layer) of ResNet-18 at batch 16.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build -j "$(nproc)" --target trainloop
build/trainloop workload show resnet18 --batch 16
