#!/usr/bin/env python3
"""Format bits read: trainloop against Sparseloop, per level and data space of
the sparse corpus (development only; docs/timeloop_interop.md, "The sparse
corpus", "Format bits read").

Sparseloop's per-rank format reads (`format_reads` in each case's summary) are
weighted by its unit widths (a bitmask's metadata 1 bit, every other unit the
level's `metadata_datawidth`) and taken over all instances (x the summary's
average instances); trainloop's are `trainloop eval --timeloop`'s
`metadata_reads` x the level's word bits (its `datawidth`). Levels are split by whether
Sparseloop's ranks cut the tile as trainloop's do (what each rank's coordinate
spans is the product of the fibers below it), which
sparseloop_format_counts.py (its restatement of Sparseloop) tells.

    tools/oracles/compare_format_bits.py --trainloop build/trainloop [--json]
"""

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sparseloop_format_counts as sparseloop  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests/golden/timeloop/sparse_corpus"


def sparseloop_bits(summary, attributes):
    """Sparseloop's format bits read at one level and data space, over all instances."""
    formats = summary["representation_format"].split()
    bits = 0.0
    for rank, (metadata, payload) in enumerate(summary["format_reads"]):  # outermost first
        metadata_bits, payload_bits = sparseloop.format_word_bits(formats[rank], attributes)
        bits += metadata * metadata_bits + payload * payload_bits
    return bits * summary["average_instances"]


def ranks_cut_as_trainloop(prediction):
    """Whether every rank's coordinate spans the product of the fibers below it."""
    shapes, spans = prediction["fiber_shape"], prediction["subtile_shape"]
    if math.prod(shapes) != prediction["tile_shape"]:
        return False
    return all(shapes[r] == 1 or spans[r + 1] == math.prod(shapes[r + 1:])
               for r in range(len(shapes)))


def compare(trainloop):
    rows = []
    for case in sorted(CORPUS.glob("*_metadata/*.yaml")):
        if case.name in ("arch.yaml", "ERT.yaml", "ART.yaml"):
            continue
        summary = json.loads(case.with_suffix(".json").read_text())
        arch_dir = case.parent
        attributes = {}
        sparseloop.storage_levels(sparseloop.load_yaml(arch_dir / "arch.yaml"), attributes)
        run = subprocess.run([trainloop, "eval", "--timeloop", str(arch_dir / "arch.yaml"),
                              str(case), str(arch_dir / "ERT.yaml"), str(arch_dir / "ART.yaml"),
                              "--format", "json"], capture_output=True, text=True, check=True)
        ours = json.loads(run.stdout)
        predictions = sparseloop.predict_case(str(case))
        for level in summary["levels"]:
            for space, counts in level["spaces"].items():
                if "format_reads" not in counts:
                    continue
                level_attributes = attributes.get(level["name"], {})
                bits = level_attributes["datawidth"]  # trainloop's word_bits
                rows.append({
                    "case": str(case.relative_to(CORPUS)),
                    "level": level["name"],
                    "space": space,
                    "trainloop_bits": ours["accesses"][level["name"]][space]["metadata_reads"] * bits,
                    "sparseloop_bits": sparseloop_bits(counts, level_attributes),
                    "ranks_cut_as_trainloop": ranks_cut_as_trainloop(
                        predictions[(level["name"], space)]),
                })
    return rows


def summary(rows):
    def group(selected):
        ratios = [r["trainloop_bits"] / r["sparseloop_bits"] for r in selected]
        return {
            "levels": len(ratios),
            "within_1pct": sum(abs(x - 1) <= 0.01 for x in ratios),
            "within_5pct": sum(abs(x - 1) <= 0.05 for x in ratios),
            "within_10pct": sum(abs(x - 1) <= 0.10 for x in ratios),
            "median_ratio": statistics.median(ratios),
            "min_ratio": min(ratios),
            "max_ratio": max(ratios),
        }
    return {
        "all": group(rows),
        "ranks_cut_as_trainloop": group([r for r in rows if r["ranks_cut_as_trainloop"]]),
        "other": group([r for r in rows if not r["ranks_cut_as_trainloop"]]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trainloop", default=str(ROOT / "build/trainloop"))
    parser.add_argument("--json", action="store_true", help="the rows and the summary as JSON")
    args = parser.parse_args()
    rows = compare(args.trainloop)
    result = summary(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": result}, indent=1))
        return
    for name, g in result.items():
        print(f"{name}: {g['levels']} levels; within 1 % {g['within_1pct']}, 5 % "
              f"{g['within_5pct']}, 10 % {g['within_10pct']}; trainloop / Sparseloop median "
              f"{g['median_ratio']:.3f}, {g['min_ratio']:.3f} to {g['max_ratio']:.3f}")


if __name__ == "__main__":
    main()
