#!/usr/bin/env python3
"""Reproduces ReSprop's speed-ups (Goli, "ReSprop: Reused Sparsified
Backpropagation", M.A.Sc. thesis, UBC, 2020) with trainloop and writes
docs/reproductions/resprop.md.

Four claims, the first three from `trainloop train-cost --format json`:
  1. Table 7.8, first row: the theoretical back-propagation speed-up at 90 %
     reuse-sparsity (ResNet-18 9.83x, ResNet-34 9.68x, VGG-16 9.34x): all MACs of
     both back-propagation convolutions (trainloop's bw and wu phases) over the
     effectual ones. It does not depend on an architecture.
  2. Table 7.8, second and third rows: GSCN's measured back-propagation
     speed-up over a GTX 1080 Ti GPU with standard training and with ReSprop.
     trainloop has no GPU model; the ratio of the two rows is ReSprop against
     standard training on GSCN itself, which trainloop computes on
     arch_specs/gscn_4x64.yaml (minibatch 64, §7.2).
  3. §7.5.3: whole training (forward and backward) 2.5x to 3.0x faster, 2.7x on
     average: from the MACs with the pre-ReSprop convolutions (Alg. 1: one
     sample's bw and wu per iteration), and on GSCN over the whole 90-epoch run
     with the shipped W-ReSprop profile.

  4. Table 6.1: the share of SCNN's 4x4 Cartesian products in the weight-gradient
     convolution of which no product is used (ResNet-18 64.91 %, ResNet-34 69.6 %),
     from `trainloop cartesian --format json` (engine/cartesian/cartesian_product.hpp).
  5. §6.5 and §7.5.4 (Fig. 7.4): GSCN's predictor makes the weight-gradient
     convolution about 2x faster; §8: GSCN is 6x and 5.5x faster than SCNN on
     ResNet-18 and ResNet-34 back-propagation, at the thesis's sizes (GSCN 4 tiles
     of 64 PEs, SCNN 64 PEs: `cartesian --tiles`) and on arrays of equal size. Also
     from `trainloop cartesian`, which also gives Table 7.8's ratio for GSCN as a
     Cartesian-product array.

Every assumption where the thesis is silent is one option of the profile
generator (workloads/tools/resprop_profile.py) and gets its own rows.

    scripts/reproduce.sh resprop [--budget N] [--work DIR] [--out FILE]

The work is split by job in the package scripts/resprop/: `thesis` (the thesis's figures and
the claims compared), `readings` (what the runs read where the thesis is silent), `runs`
(running trainloop, storing, replaying), `measures` (arithmetic on the runs), one module of
sections per part of the thesis, and `document` (the sections in order).
"""

import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reproduction_support import (  # noqa: E402
    ROOT, add_search_options, network_names, read_stored_runs, require_trainloop,
    shipped_networks)
from resprop.document import render  # noqa: E402
from resprop.readings import NETWORKS  # noqa: E402
from resprop.runs import STORED_KEYS, run_all  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trainloop", default=os.path.join(ROOT, "build", "trainloop"))
    ap.add_argument("--arch", default="gscn_4x64", help="GSCN (arch_specs/gscn_4x64.yaml)")
    ap.add_argument("--dense-arch", default="gscn_dense_4x64",
                    help="the same array without sparse features")
    add_search_options(ap)
    ap.add_argument("--networks", default=",".join(NETWORKS))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "reproduction_resprop"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "reproductions", "resprop.md"))
    ap.add_argument("--report-only", action="store_true",
                    help="render the document from the runs an earlier run stored in "
                         "WORK/results.json, running nothing (tests/golden/resprop holds the "
                         "document's)")
    ap.add_argument("--replay", metavar="REGEX",
                    help="with --report-only: run the stored runs whose command (as "
                         "commands.txt gives it, without the binary) REGEX finds again with "
                         "--trainloop and compare them with what is stored; exit 1 naming each "
                         "that differs (the document then no longer shows what trainloop "
                         "gives: rerun the script)")
    args = ap.parse_args()
    replay = None
    if args.replay:
        if not args.report_only:
            ap.error("--replay needs --report-only")
        try:
            replay = re.compile(args.replay)
        except re.error as e:
            ap.error("--replay: not a regular expression: %s" % e)
        require_trainloop(args.trainloop)
    if not args.report_only:
        network_names(ap, "--networks", [args.networks], shipped_networks())
    stored_path = os.path.join(args.work, "results.json")
    stored = None
    if args.report_only:
        stored = read_stored_runs(stored_path, "run without --report-only first, or give the "
                                  "--work directory of an earlier run", STORED_KEYS)
        # The profiles and spec variants the commands name are written to a scratch
        # directory, not into the stored runs' directory.
        scratch = tempfile.TemporaryDirectory()
        work = scratch.name
        args.strategy, args.budget, args.objective = stored["search"]
    else:
        require_trainloop(args.trainloop)
        work = args.work
    render(args, run_all(args, stored, stored_path, work, replay))


if __name__ == "__main__":
    main()
