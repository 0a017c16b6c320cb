#!/usr/bin/env python3
"""How close a fixed search budget comes to the converged search, two binaries side by side.

For each network and architecture, runs `trainloop train-cost` on one dense
training iteration with `--budget` (default 20,000, the reproductions'
budget) for each seed, once with each binary, and once with the default
search (until converged, seed 1) of the first binary as the reference. Prints
each fixed-budget run's step cycles over the reference's, per binary and
seed, and a summary: the mean and worst ratio, how many runs are within 1 %,
on how many the first binary does better or worse than the second, and the
evaluations the first spent over the second's.
Results are cached in --out (one JSON per run), so an interrupted measurement
resumes.

    python3 bench/fixed_budget_quality.py --trainloop build/trainloop \
        --before /tmp/trainloop_before --out /tmp/fixed_quality [--seeds 1 2 3]
"""
import argparse
import json
import statistics
import subprocess
from pathlib import Path

# Eager Pruning's networks with Table 5's batches, and its three arrays (§5.2).
NETWORKS = {"alexnet": 256, "googlenet": 32, "nin": 64, "resnet50": 32, "lenet": 64,
            "resnet32_cifar": 128, "caffenet": 256, "lstm_timit": 32}
ARCHS = ["eager_pruning_2048", "eager_pruning_cx_baseline", "eager_pruning_ff_baseline"]


def step_run(trainloop, out_file, network, arch, extra):
    """One dense iteration's train-cost JSON, from the cache in out_file when there."""
    if not out_file.exists():
        command = [trainloop, "train-cost", "--arch", arch, "--workload", network,
                   "--batch", str(NETWORKS[network]), "--sparsity", "dense", "--iterations", "1",
                   "--search", "anneal", "--objective", "latency", "--imperfect-factors",
                   "--format", "json", *extra]
        run = subprocess.run(command, check=True, capture_output=True, text=True)
        out_file.write_text(run.stdout)
    return json.loads(out_file.read_text())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trainloop", required=True, help="the binary measured")
    ap.add_argument("--before", required=True, help="the binary it is compared with")
    ap.add_argument("--out", type=Path, required=True, help="cache directory")
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    ratios = {"after": [], "before": []}
    evaluations = {"after": 0, "before": 0}
    print("| network | array | seed | before | after |")
    print("|---|---|---:|---:|---:|")
    for network in NETWORKS:
        for arch in ARCHS:
            reference = step_run(args.trainloop, args.out / f"{network}-{arch}-converged.json",
                                 network, arch, ["--seed", "1"])["total_cycles"]
            for seed in args.seeds:
                fixed = ["--budget", str(args.budget), "--seed", str(seed)]
                row = {}
                for label, binary in (("before", args.before), ("after", args.trainloop)):
                    run = step_run(binary, args.out / f"{network}-{arch}-{label}-{seed}.json",
                                   network, arch, fixed)
                    row[label] = run["total_cycles"] / reference
                    ratios[label].append(row[label])
                    evaluations[label] += run["evaluations"]
                print(f"| {network} | {arch} | {seed} | {row['before']:.3f} | {row['after']:.3f} |",
                      flush=True)
    for label in ("before", "after"):
        values = ratios[label]
        print(f"{label}: mean {statistics.mean(values):.4f}, worst {max(values):.3f}, "
              f"{sum(v <= 1.01 for v in values)} of {len(values)} within 1 %")
    pairs = list(zip(ratios["before"], ratios["after"]))
    print(f"after better on {sum(a < b for b, a in pairs)}, worse on {sum(a > b for b, a in pairs)}; "
          f"evaluations after / before: {evaluations['after'] / evaluations['before']:.3f}")


if __name__ == "__main__":
    main()
