#!/usr/bin/env python3
"""Reproduces the whole-run results of Eager Pruning (Zhang et al., "Eager
Pruning: Algorithm and Architecture Support for Fast Training of Deep Neural
Networks", ISCA 2019) with trainloop and writes
docs/reproductions/eager_pruning.md.

For every network of Table 5 that has a network file under workloads/, runs
`trainloop train-cost` over Table 5's iterations and batch with the shipped
`eager_pruning` profile (workloads/tools/eager_pruning_profile.py writes it
from Table 5), and once per assumption where the paper is silent with a
variant of the profile the same generator writes. Every trainloop figure in
the report is read from train-cost's JSON; the paper's are quoted with their
section or table (Table 5's numbers live in the generator, one place).

The reduced computation (RC) does not depend on the architecture or the
search (it counts effectual MACs from the densities), so the runs that only
give an RC use a small random search; the runs whose time and energy the
report shows use the full search (annealing, fewest cycles: the paper's
claims are speed-ups), and say which architecture and search they come from.
§5.4's speed-ups compare EP's run with dense training on the Cambricon-X-like
and the FlexFlow baselines (arch_specs/eager_pruning_cx_baseline.yaml,
eager_pruning_ff_baseline.yaml).

    scripts/reproduce.sh eager_pruning [--budget N] [--work DIR] [--out FILE] [--report-only]

The work is split by job in the package scripts/eager_pruning/: `paper` (the paper's figures
and the claims compared), `readings` (what the runs read where the paper is silent), `runs`
(running trainloop, storing, resuming, replaying), `measures` (arithmetic on stored runs),
one module of sections per part of the paper, and `document` (the sections in order).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reproduction_support import (  # noqa: E402
    ROOT, Search, add_search_options, check_names, network_names, report_replay,
    require_trainloop, search_from)
from eager_pruning.document import render  # noqa: E402
from eager_pruning.runs import (  # noqa: E402
    RunFailed, load_generator, load_results, replay_network, run_everything)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trainloop", default=os.path.join(ROOT, "build", "trainloop"))
    ap.add_argument("--arch", default="eager_pruning_2048",
                    help="EP's architecture (arch_specs/eager_pruning_2048.yaml)")
    ap.add_argument("--baseline", default="eager_pruning_cx_baseline",
                    help="the Cambricon-X-like baseline of §5.2")
    ap.add_argument("--flexflow", default="eager_pruning_ff_baseline",
                    help="the FlexFlow baseline of §5.2")
    add_search_options(ap)
    ap.add_argument("--only", action="append", default=[], metavar="NETWORK",
                    help="run only these networks of Table 5, the option repeated or "
                    "comma-separated (default: every one with a network file; for a quick "
                    "check, not for the document)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "reproduction_eager_pruning"))
    ap.add_argument("--report-only", action="store_true",
                    help="render the document from the runs stored in WORK/results.json")
    ap.add_argument("--resume", action="store_true",
                    help="keep the networks stored in WORK/results.json by an interrupted run "
                    "and run only the rest; refused when the search or the model (the engine, "
                    "the two specs, the networks, the profile generator) changed since")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "reproductions",
                                                  "eager_pruning.md"))
    ap.add_argument("--replay", metavar="NETWORK",
                    help="with --report-only: run every run of NETWORK again with --trainloop "
                    "(in a scratch directory) and compare it with the stored runs; exit 1 "
                    "naming each that differs (the document then no longer shows what "
                    "trainloop gives: rerun the script)")
    args = ap.parse_args()
    if args.replay and not args.report_only:
        ap.error("--replay needs --report-only")
    generator = load_generator()
    available = [n for n in generator.ORDER
                 if os.path.exists(os.path.join(ROOT, "workloads", n + ".yaml"))]
    only = network_names(ap, "--only", args.only, available) if args.only else []
    if not args.report_only:
        require_trainloop(args.trainloop)
    args.search = search_from(args)
    os.makedirs(args.work, exist_ok=True)

    networks = [n for n in available if not only or n in only]
    results_path = os.path.join(args.work, "results.json")
    if args.report_only:
        stored = load_results(results_path)
    else:
        stored = run_everything(args, generator, networks, results_path)
    networks = stored["networks"]
    args.search = Search(*stored["search"])  # the search the stored runs used
    if args.replay:
        check_names(ap, "--replay", [args.replay], networks)
        require_trainloop(args.trainloop)
        try:
            compared, changed = replay_network(args, generator, args.replay, stored)
        except RunFailed as e:  # a run the stored runs hold no longer runs at all
            compared, changed = 1, ["a run failed: %s" % e]
        report_replay(compared, changed, "runs of %s" % args.replay, args.trainloop,
                      "eager_pruning")
    render(args, stored, generator)


if __name__ == "__main__":
    main()
