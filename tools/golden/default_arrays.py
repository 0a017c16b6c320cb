#!/usr/bin/env python3
"""Writes tests/golden/default_arrays/results.json: the cycles and energy a trainloop
binary gives for every example mapping (examples/mappings/) on the shipped default
arrays, the dense Procrustes baseline and the sparse Procrustes design under the
`procrustes` profile. Made once with a binary from before a change that must leave
the default arrays' results alone (docs in tests/golden/default_arrays/README.md);
tests/eval/test_default_arrays.cpp checks today's binary against it.

    tools/golden/default_arrays.py --trainloop OLD/build/trainloop --commit SHA \
        -o tests/golden/default_arrays/results.json
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# (architecture, sparsity profile): the shipped defaults of docs/arch_format.md and the
# quickstart sweep.
SETUPS = [("procrustes_baseline_16x16", None), ("procrustes_sparse_16x16", "procrustes")]
KEPT = ("cycles", "energy_pj", "macs", "effectual_macs")


def evaluate(trainloop, mapping, arch, sparsity):
    command = [trainloop, "eval", "--mapping", mapping, "--arch",
               os.path.join(ROOT, "arch_specs", arch + ".yaml"), "--format", "json"]
    if sparsity:
        command += ["--sparsity", sparsity]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(command), done.returncode,
                                         done.stdout + done.stderr))
    result = json.loads(done.stdout)
    return {key: result[key] for key in KEPT if key in result}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trainloop", required=True, help="the binary whose results to keep")
    ap.add_argument("--commit", required=True, help="the commit that binary was built from")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    directory = os.path.join(ROOT, "examples", "mappings")
    cases = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".yaml"):
            continue
        for arch, sparsity in SETUPS:
            case = {"mapping": name, "arch": arch, "sparsity": sparsity}
            case.update(evaluate(args.trainloop, os.path.join(directory, name), arch, sparsity))
            cases.append(case)
    with open(args.out, "w") as f:
        json.dump({"commit": args.commit, "cases": cases}, f, indent=1)
        f.write("\n")
    print("wrote %d cases to %s" % (len(cases), args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
