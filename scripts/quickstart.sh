#!/usr/bin/env bash
# The main job on a built-in default: set up, build, and show the training
# problems (fw, bw, wu of every layer) of ResNet-18 at batch 16.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release -DTRAINLOOP_BUILD_TESTS=OFF -DTRAINLOOP_BUILD_BENCH=OFF
build/trainloop workload show resnet18 --batch 16
