#!/usr/bin/env python3
"""Runs one Sparseloop case through timeloop-model and `trainloop eval --timeloop`
and prints their counts side by side (development only; docs/timeloop_interop.md,
"Sparse inputs").

    tools/oracles/compare_sparse.py --timeloop /work/oracle-build/timeloop/build \\
        --trainloop build/trainloop arch.yaml problem_and_map.yaml sparse.yaml ERT.yaml ART.yaml

Per level and data space: the actual (neither gated nor skipped) reads, fills and
updates over all instances, and the gated and skipped ones; the computes; cycles
and energy. Standard library only."""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timeloop_stats import parse_stats  # noqa: E402

_COMPUTE_RE = re.compile(r"^\s*(Actual|Gated|Skipped) Computes \(total\)\s*:\s*(\d+)")


def run_timeloop(build, files):
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, LD_LIBRARY_PATH=build, TIMELOOP_DISABLE_LINK_TRANSFERS="1")
        subprocess.run([str(Path(build) / "timeloop-model"), *[str(Path(f).resolve()) for f in files]],
                       cwd=out, env=env, check=True, capture_output=True)
        text = (Path(out) / "timeloop-model.stats.txt").read_text()
    stats = parse_stats(text)
    computes = {}
    for line in text.splitlines():
        m = _COMPUTE_RE.match(line)
        if m:
            computes[m.group(1).lower()] = int(m.group(2))
    stats["sparse_computes"] = computes
    return stats


def run_trainloop(binary, files):
    result = subprocess.run([binary, "eval", "--timeloop", *files, "--format", "json"],
                            check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def median_seconds(command, env, repeat):
    """Median wall time of `repeat` runs of a whole process (parsing included)."""
    times = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(command, cwd=out, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_both(build, binary, files, repeat):
    """Both tools on the same inputs, alternating, as one side-by-side measurement."""
    paths = [str(Path(f).resolve()) for f in files]
    env = dict(os.environ, LD_LIBRARY_PATH=build, TIMELOOP_DISABLE_LINK_TRANSFERS="1")
    theirs = median_seconds([str(Path(build) / "timeloop-model"), *paths], env, repeat)
    ours = median_seconds([str(Path(binary).resolve()), "eval", "--timeloop", *paths,
                           "--format", "json"], None, repeat)
    print(f"timeloop-model {theirs * 1e3:.1f} ms, trainloop eval --timeloop {ours * 1e3:.1f} ms "
          f"(median of {repeat} processes each): {theirs / ours:.1f}x")


def rows(timeloop, trainloop):
    yield ("cycles", timeloop.get("cycles"), trainloop["cycles"])
    yield ("computes performed", timeloop["sparse_computes"].get("actual"),
           trainloop["performed_macs"])
    for level in timeloop["levels"]:
        name = level["name"]
        for space, counts in level["spaces"].items():
            ours = trainloop["accesses"].get(name, {}).get(space)
            if ours is None:
                continue
            # Sparseloop's per-instance counts are per instance holding a non-empty
            # tile (its average utilized instances), not per mapped instance.
            instances = counts.get("average_instances", counts.get("instances", 1)) or 1
            for action in ("reads", "fills", "updates"):
                actual = counts.get("actual_" + action)
                if actual is None:
                    continue
                yield (f"{name} {space} actual {action}", actual * instances, ours[action])
    yield ("energy pJ", (timeloop.get("energy_uj") or 0) * 1e6, trainloop["energy_pj"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeloop", required=True, help="Timeloop build directory")
    parser.add_argument("--trainloop", default="build/trainloop")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    parser.add_argument("--repeat", type=int, default=0,
                        help="also time both tools, median of this many runs each")
    parser.add_argument("--save", type=Path,
                        help="also write timeloop-model's summary (JSON) here, for tests/golden")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.repeat:
        time_both(args.timeloop, args.trainloop, args.files, args.repeat)
    timeloop = run_timeloop(args.timeloop, args.files)
    if args.save:
        args.save.write_text(json.dumps(timeloop, indent=1, sort_keys=True) + "\n")
    trainloop = run_trainloop(args.trainloop, args.files)
    if args.markdown:
        print("| quantity | Sparseloop | trainloop | trainloop / Sparseloop |")
        print("|---|---:|---:|---:|")
    for name, theirs, ours in rows(timeloop, trainloop):
        ratio = f"{ours / theirs:.4f}" if theirs else ("=" if not ours else "—")
        if args.markdown:
            print(f"| {name} | {theirs:,.0f} | {ours:,.0f} | {ratio} |")
        else:
            print(f"{name:45s} {theirs:>16,.0f} {ours:>16,.0f} {ratio:>8s}")


if __name__ == "__main__":
    main()
