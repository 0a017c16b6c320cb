#!/usr/bin/env bash
# Regenerates docs/reproductions/seed003.md: builds trainloop, runs a whole
# sparse training run (`trainloop train-cost`, workloads/sparsity/chen2024.yaml)
# of each network on Chen et al. 2024's design and its three baselines
# (arch_specs/chen2024_*_8x8.yaml), and one network again per assumption where
# the paper is silent (scripts/reproduce_seed003.py), and writes each claim
# next to trainloop's figure. About 80 minutes on two cores.
#
#   scripts/reproduce_seed003.sh                      # AlexNet, VGG-16, ResNet-152
#   scripts/reproduce_seed003.sh --networks vgg11,vgg19,resnet101
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" --target trainloop
exec python3 scripts/reproduce_seed003.py --trainloop build/trainloop "$@"
