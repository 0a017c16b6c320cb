#!/usr/bin/env python3
"""How close `trainloop map`'s default search comes to the best mapping found.

For each network and dataflow, maps every layer-phase twice on one core:
with the default search (no --budget: rounds until two agree, at most
400,000 evaluations per distinct problem) and with a fixed reference budget
(default 2,000,000 evaluations: 100x the old default of 20,000). The best
known EDP of a problem is the lowest found by any run; the table gives, per
network and dataflow, how many distinct problems the default put within 1 %
of it, the worst ratio, how many it reported converged, and its seconds per
distinct problem. With several --seeds the default search runs once per seed
(the reference once, seed 1), and each row gives the first seed's figures
and the count within 1 % for every seed. Results are cached in --out (one
JSON per run, with its wall time), so an interrupted measurement resumes.

    python3 bench/default_search_quality.py --trainloop build/trainloop \
        --out /tmp/quality [--networks resnet18 vgg16 mobilenet_v2] \
        [--dataflows any K,N C,K P,Q C,N] [--reference-budget 2000000] [--seeds 1 2 3 4]
"""
import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

ARCH = "procrustes_baseline_16x16"


def run_map(trainloop, out_file, network, dataflow, extra):
    """Runs `map` once on one thread unless its JSON is already in out_file."""
    if out_file.exists():
        return json.loads(out_file.read_text())
    command = [trainloop, "map", "--arch", ARCH, "--workload", network, "--dataflow", dataflow,
               "--threads", "1", "--format", "json", "--quiet", *extra]
    start = time.monotonic()
    result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    result["wall_seconds"] = time.monotonic() - start
    out_file.write_text(json.dumps(result))
    return result


def problems(result):
    """EDP, convergence and evaluations per distinct problem (reused entries skipped)."""
    found = {}
    for layer in result["layers"]:
        for phase, entry in layer["phases"].items():
            if entry["reused"]:
                continue
            found[(layer["name"], phase)] = {
                "edp": entry["cycles"] * entry["energy_pj"],
                "converged": entry["converged"],
                "evaluations": entry["evaluations"],
            }
    return found


def compare(default, reference, others=()):
    """`default` against the best of it, `reference` and `others` (more runs)."""
    ours, theirs = problems(default), problems(reference)
    more = [problems(o) for o in others]
    ratios, converged, evaluations = [], 0, []
    for key, entry in ours.items():
        best = min([entry["edp"], theirs[key]["edp"]] + [m[key]["edp"] for m in more])
        ratios.append(entry["edp"] / best)
        converged += entry["converged"]
        evaluations.append(entry["evaluations"])
    return {
        "problems": len(ours),
        "within_1pct": sum(r <= 1.01 for r in ratios),
        "worst": max(ratios),
        "converged": converged,
        "median_evaluations": statistics.median(evaluations),
        "seconds_per_problem": default["wall_seconds"] / len(ours),
        "reference_seconds_per_problem": reference["wall_seconds"] / len(ours),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trainloop", default="build/trainloop")
    parser.add_argument("--out", required=True, type=Path, help="cache directory")
    parser.add_argument("--networks", nargs="+", default=["resnet18", "vgg16", "mobilenet_v2"])
    parser.add_argument("--dataflows", nargs="+", default=["any", "K,N", "C,K", "P,Q", "C,N"])
    parser.add_argument("--reference-budget", type=int, default=2_000_000)
    parser.add_argument("--seeds", nargs="+", type=int, default=[1],
                        help="run the default search once per seed")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seeds_column = " | within 1 %, per seed" if len(args.seeds) > 1 else ""
    print("| network | dataflow | distinct problems | within 1 % of the best known | worst "
          f"| converged | median evaluations | s per problem | reference s per problem"
          f"{seeds_column} |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if seeds_column else ""))
    total, within = 0, [0] * len(args.seeds)
    for network in args.networks:
        for dataflow in args.dataflows:
            tag = f"{network}_{dataflow.replace(',', '')}"
            defaults = [
                run_map(args.trainloop,
                        args.out / (f"{tag}_default.json" if seed == 1
                                    else f"{tag}_default_seed{seed}.json"),
                        network, dataflow, [] if seed == 1 else ["--seed", str(seed)])
                for seed in args.seeds]
            reference = run_map(args.trainloop,
                                args.out / f"{tag}_budget{args.reference_budget}.json", network,
                                dataflow, ["--budget", str(args.reference_budget)])
            per_seed = [compare(d, reference, defaults) for d in defaults]
            c = per_seed[0]
            total += c["problems"]
            within = [w + s["within_1pct"] for w, s in zip(within, per_seed)]
            seeds_cell = (" | " + " / ".join(str(s["within_1pct"]) for s in per_seed)
                          if seeds_column else "")
            print(f"| {network} | {dataflow} | {c['problems']} | {c['within_1pct']} "
                  f"| {c['worst']:.4f} | {c['converged']} | {c['median_evaluations']:,.0f} "
                  f"| {c['seconds_per_problem']:.2f} | {c['reference_seconds_per_problem']:.2f}"
                  f"{seeds_cell} |", flush=True)
    for seed, w in zip(args.seeds, within):
        print(f"\nseed {seed}: {w} of {total} distinct problems within 1 % of the best known "
              "mapping.")


if __name__ == "__main__":
    main()
