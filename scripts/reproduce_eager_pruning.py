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
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reproduction_support import (  # noqa: E402
    ROOT, MACS_ONLY, Search, add_search_options, arch_with_dram_bandwidth, network_names,
    check_names, children_cpu_seconds, first_difference, git_commit, load_module,
    read_stored_runs, refuse_resume_if_model_changed, report_replay, scalars_and, TargetSummary,
    require_trainloop, search_from, ratio_text, target_verdict, TARGET_TOLERANCE, verdict_words,
    within_target, write_spec_variant, write_stored_runs)
GENERATOR = os.path.join(ROOT, "workloads", "tools", "eager_pruning_profile.py")
LABEL = {"alexnet": "AlexNet", "resnet50": "ResNet-50", "googlenet": "GoogLeNet",
         "nin": "NIN", "resnet32_cifar": "ResNet-32 (CIFAR-10)", "lenet": "LeNet",
         "caffenet": "CaffeNet (FT)", "lstm_timit": "LSTM (TIMIT)"}
NETWORK_GENERATOR = os.path.join(ROOT, "workloads", "tools", "generate_networks.py")
# The LSTM's dimensions the paper does not give (workloads/lstm_timit.yaml states the
# shipped ones): (name, arguments of generate_networks.lstm_timit, what it assumes).
LSTM_VARIANTS = [
    ("shipped", {}, "as shipped: 1 layer of 1024 cells, 153 features, 20 frames, 61 classes"),
    ("features_39", {"input_size": 39}, "39 features per frame (13 MFCC + Δ + ΔΔ)"),
    ("features_123", {"input_size": 123}, "123 features per frame (40 filter banks + energy, "
     "+ Δ + ΔΔ)"),
    ("frames_100", {"steps": 100}, "100 frames per sequence"),
    ("classes_2000", {"classes": 2000}, "2,000 output classes (tied triphone states of a "
     "hybrid Kaldi model)"),
    ("layers_2", {"layers": 2}, "2 stacked LSTM layers of 1024 cells"),
]
RC_TOLERANCE = TARGET_TOLERANCE
PAPER_OVER_CX = 1.91  # §5.4: "an average of 1.91x and 2.25x speedup over CX and FF"
PAPER_OVER_FF = 2.25

# Fig. 20 normalizes to "the ideal case of dense computation", "when all the PEs work
# without idleness" (§5.3): dense MACs over the PEs. §5.2: "all the designs use at least
# 2048 DSPs as their PEs" (eager_pruning_2048: 4 × 512; the CX baseline: 4 × 32 rows × 16).
PES = 2048
# Fig. 20(b): "our architecture for EP is the only one with > 1 speedup (1.19x CGM)".
FIG20_EP_CGM = 1.19
# Fig. 19, §5.3: "SCNN (0.88x and 1.72x on dense and sparse inference) and our design
# (0.84x and 1.86x)", each normalized to the ideal dense case as Fig. 20; inference is FP.
FIG19_EP_DENSE_CGM, FIG19_EP_SPARSE_CGM = 0.84, 1.86
# EP's SCNN baseline (§5.2; arch_specs/eager_pruning_scnn_baseline.yaml), run as its own
# Cartesian-product dataflow (`trainloop cartesian --arch`). §5.2: "we multiply the
# performance of SCNN by 2 to estimate the real speedups", the input zeros EP's model of SCNN
# left out: applied to every SCNN figure, as the paper does.
SCNN_ARCH = "eager_pruning_scnn_baseline"
SCNN_INPUT_ZEROS_FACTOR = 2
# §5.3: "SCNN (0.88x and 1.72x on dense and sparse inference)"; "the training speedup of SCNN
# and SD is dominated by KU, which is nearly 0 (0.05x and 0.03x) in Figure 21" (GoogLeNet
# trained with EP); §5.4: "If a hybrid architecture of SCNN and CX is applied to train by
# pipelining each phase, EP still wins by 1.51x."
PAPER_SCNN_DENSE_CGM, PAPER_SCNN_SPARSE_CGM = 0.88, 1.72
PAPER_SCNN_KU_GOOGLENET = 0.05
PAPER_OVER_HYBRID = 1.51
# EP's SCNN as its spec gives it and each reading where §5.2 is silent: (key, the fully
# connected layers taken as 1 × 1 convolutions, the bank-stall model, what it assumes).
SCNN_READINGS = [
    ("scnn", True, "none", "as shipped: every MAC layer, fully connected ones as 1 × 1 "
     "convolutions; bank conflicts absorbed (SCNN §IV)"),
    ("scnn_conv_only", False, "none", "conv layers only (SCNN describes convolutions)"),
    ("scnn_unbuffered", True, "unbuffered", "bank conflicts unbuffered (the upper bound)"),
]
# How CX's 128 rows take outputs, where §5.2 is open to two readings: "The 16 × 16 PE
# array in the original CX design is duplicated by 8, resulting in 128 rows of PEs. 16 PEs
# in a row serve one output." As one array (the spec's constraints: every row of a
# sub-system another output), or as 8 copies of the original 16-row CX, each with up to 16
# outputs of its own: two copies in each sub-system's 32 rows, on two samples (in wu each
# copy sums its sample's share of dw). The second is a constraints file over the same spec.
CX_UNITS = """mapping_constraints: cx_eight_units
description: the CX baseline as 8 copies of the original 16-row CX, two per sub-system (§5.2)
spatial: {y: {dims: [K, N], factors: {N: 2}}}
phases:
  bw: {spatial: {y: {dims: [C, N], factors: {N: 2}}}}
  wu: {spatial: {y: {dims: [K, R, S, N], factors: {N: 2}}}}
"""
# The prototype's off-chip memory, §5.2: the VCU118 board's "two sets of five 512MB DDR4
# SDRAM". No bandwidth is given, and the shipped specs leave DRAM unlimited. Five 16-bit
# devices make an 80-bit interface; 64 of its bits are taken as data. JEDEC DDR4 runs at
# 1,600 to 3,200 MT/s. At the prototype's 200 MHz, two 64-bit interfaces at 2,400 and 1,600
# MT/s move 192 and 128 bytes per cycle: 96 and 64 16-bit words, reads and writes together
# (a DDR interface has one data bus for both: `shared_bandwidth`).
DDR4_WORDS = [(96, "DDR4-2400"), (64, "DDR4-1600")]
# §5.4's whole runs with a limited DRAM cost as much as the rest of the document: at the
# faster rate only, the optimistic end (the slower slows both arrays further, Fig. 20's rows).
DDR4_WHOLE_RUN = DDR4_WORDS[0]
CX_UNITS_TEXT = ("8 units of 16 rows (up to 16 outputs each; two units per sub-system, on two "
                 "samples)")
# How FF ran the samples and its kernel update, where §5.2 is silent (it gives the unrolling
# of a convolution, "output feature maps and the outputs within each feature map are unrolled
# vertically ... the input feature maps and the filters ... horizontally"): the spec lets a
# row reduce over the samples in KU. The readings below hold FF to EP's dataflow instead
# (§4.4: one sample at a time through the three phases, the samples only off chip), with
# KU's unrolling read in two ways; constraints files over the same spec: (key, file, label).
FF_ONE_SAMPLE = """levels:
  Buffers: {factors: {N: 1}}
  InputPool: {factors: {N: 1}}
  WeightReg: {factors: {N: 1}}
"""
FF_READINGS = [
    ("ff_one_sample_rows", "mapping_constraints: ff_one_sample_rows\n" + FF_ONE_SAMPLE +
     "phases:\n  wu: {spatial: {x: [P, Q]}}\n",
     "one sample at a time; in KU each row one entry of dw (K, C, R, S), its PEs that entry's "
     "positions (P, Q): a fully connected layer has one position, so its row's other PEs "
     "idle; and as run the positions go across a row in whole factors (trainloop pads the "
     "sliding-window P and Q only with `--imperfect-windows`, the paragraph on positions "
     "below), so a 13 × 13 map takes 13 steps on 13 of a row's 32 PEs where a count of "
     "⌈positions / 32⌉ takes 6; FF's KU cycles in this reading are an upper bound, and the "
     "speed-up over FF with them"),
    ("ff_one_sample_maps", "mapping_constraints: ff_one_sample_maps\n" + FF_ONE_SAMPLE +
     "phases:\n  wu: {spatial: {y: [K, R, S], x: [C, P, Q]}}\n",
     "one sample at a time; in KU §5.2's words on KU's convolution: dw's output maps and "
     "their positions (K; R, S) on the rows, the input maps and the filter dy's positions "
     "(C; P, Q) across each row"),
]
# How the pruned weights fall over a layer's filters (§4.1: "the computation entailed for
# one output differs significantly from another in a sparse network"; by how much is not
# given): (name, generator options, what it assumes).
FILTER_SPREADS = [
    ("shipped", [], "uniform (every filter at the layer's density)"),
    ("filter_cv_0.3", ["--per-filter-cv", "0.3"], "per-filter density, cv 0.3"),
    ("filter_cv_0.6", ["--per-filter-cv", "0.6"], "per-filter density, cv 0.6"),
]

# Where the paper is silent: (name, generator options, what it assumes).
VARIANTS = [
    ("shipped", [], "as shipped: every pruned layer (conv; LSTM: every MAC layer) at the same "
     "density, first pruning at iteration `prune_interval`, no roll-back, CR over the pruned "
     "weights, pruned weights' gradients skipped in wu"),
    ("first_at_zero", ["--first-prune-at-zero"], "first pruning at iteration 0 "
     "(`--first-prune-at-zero`)"),
    ("one_rollback", ["--prune-num-scale", "0.5"], "every pruning at half `prune_num`, as "
     "after one roll-back (`--prune-num-scale 0.5`)"),
    ("no_mask", ["--no-gradient-mask"], "wu computes every gradient (no output mask: `dw` "
     "dense, `--no-gradient-mask`)"),
]

# Which hyperparameters make Table 5's schedule and which MACs its RC counts, where the paper
# gives two answers or none (§3.2's rule against Table 5's values; §5.1 prunes only the
# convolutions of a CNN but does not say whether the RC counts its other MACs): (name,
# generator options, RC over the pruned layers' MACs only, column, label in the summary).
RC_READINGS = [
    ("rule", ["--hyperparameter-rule"], False, "§3.2's rule",
     "prune_num and prune_interval by §3.2's rule"),
    ("pruned_macs", [], True, "pruned layers' MACs", "RC over the pruned layers' MACs"),
    ("pruned_macs_rule", ["--hyperparameter-rule"], True, "both",
     "§3.2's rule and RC over the pruned layers' MACs, together"),
]
# The most a schedule that ends at the CR removes (pruned to it at iteration 0), over every
# MAC and over the pruned layers' MACs: bounds, not readings (the same fields).
RC_BOUNDS = [
    ("at_once", ["--at-once"], False, "at most", None),
    ("pruned_macs_at_once", ["--at-once"], True, "at most, pruned layers' MACs", None),
]
# The layer types with weights (workloads/tools/count_networks.py counts these).
MAC_LAYER_TYPES = {"conv", "fc", "matmul", "clos_fc", "lstm"}


def pruned_layers_network(generator, net, work):
    """workloads/`net`.yaml without the MAC layers EP does not prune and what reads from them
    (a CNN's fully connected layers and their ReLUs), written to `work`: the run's RC is then
    over the pruned layers' MACs only. The network keeps its name, so the profile's rule for
    it still applies."""
    with open(os.path.join(ROOT, "workloads", net + ".yaml")) as f:
        spec = yaml.safe_load(f)
    pruned = {name for name, _ in generator.pruned_layers(net)}
    dropped = set()
    for layer in spec["layers"]:
        inputs = layer["inputs"] if isinstance(layer["inputs"], list) else [layer["inputs"]]
        if ((layer.get("type") in MAC_LAYER_TYPES and layer["name"] not in pruned)
                or any(i in dropped for i in inputs)):
            dropped.add(layer["name"])
    spec["layers"] = [layer for layer in spec["layers"] if layer["name"] not in dropped]
    path = os.path.join(work, "%s_pruned_layers.yaml" % net)
    with open(path, "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
    return path


def load_generator():
    return load_module("eager_pruning_profile", GENERATOR)


# The claims of the summary after the setup (TargetSummary), one name each.
CLAIM_RC = "Table 5: reduced computation (RC)"
CLAIM_OVER_CX = "§5.4: mean whole-run speed-up over CX"
CLAIM_OVER_FF = "§5.4: mean whole-run speed-up over FF"
CLAIM_FIG20 = "Fig. 20(b): EP's sparse training over the ideal dense (CGM)"
CLAIM_FIG19_SPARSE = "Fig. 19(b): EP's sparse inference over the ideal dense (CGM)"
CLAIM_FIG19_DENSE = "Fig. 19(a): EP's dense inference over the ideal dense (CGM)"
CLAIM_FIG19_SCNN_DENSE = "Fig. 19(a): SCNN's dense inference over the ideal dense (CGM)"
CLAIM_FIG19_SCNN_SPARSE = "Fig. 19(b): SCNN's sparse inference over the ideal dense (CGM)"
CLAIM_FIG21_SCNN_KU = "Fig. 21: SCNN's kernel update over the ideal dense (EP training)"
CLAIM_OVER_HYBRID = "§5.4: mean whole-run speed-up over SCNN (FP, BP) and CX (KU) in one design"


def write_profile(work, variant, options):
    path = os.path.join(work, "eager_pruning_%s.yaml" % variant)
    subprocess.run([sys.executable, GENERATOR, "-o", path] + options, check=True)
    return path


def run_json(command, log, what):
    """Runs a trainloop command that prints JSON; a failure raises RunFailed with its
    message (reported in the document, not hidden: the network's rows are left out)."""
    log.write(" ".join(command) + "\n")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        try:
            error = json.loads(done.stdout).get("error", {})
            message = error.get("message", "") if isinstance(error, dict) else str(error)
        except ValueError:
            message = ((done.stdout + done.stderr).strip().splitlines() or [""])[0]
        raise RunFailed("%s: %s" % (what, message or "exit %d" % done.returncode))
    return json.loads(done.stdout)


# Every array takes a count of samples or channels its rows or groups do not divide in
# partial steps, as hardware does (a sub-system's 32 CX rows take 48 output channels in two
# waves, the second half full): Timeloop's imperfect factors. The positions (P, Q, R, S)
# too only in run_windows' runs.
ARRAY_OPTIONS = ["--imperfect-factors"]


def train_cost(trainloop, arch, network, batch, profile, iterations, search, log, extra=()):
    command = [trainloop, "train-cost", "--arch", arch, "--workload", network, "--batch",
               str(batch), "--sparsity", profile, "--iterations", str(iterations)
               ] + search.options() + ARRAY_OPTIONS + ["--seed", "1", "--format", "json",
                                                       "--quiet"] + list(extra)
    return run_json(command, log, search)


class RunFailed(Exception):
    pass


def map_iteration(trainloop, arch, network, batch, profile, iteration, search, log, extra=()):
    """`trainloop map` of one training iteration (dense when profile is None)."""
    command = [trainloop, "map", "--arch", arch, "--workload", network, "--batch", str(batch)
               ] + list(extra)
    if profile is not None:
        command += ["--sparsity", profile, "--iteration", str(iteration)]
    command += search.options() + ARRAY_OPTIONS + ["--seed", "1", "--format", "json", "--quiet"]
    return run_json(command, log, "map, %s" % search)


def run_fig20(args, net, iterations, batch, spread_profiles, at_cr_profile, fig20, log):
    """One iteration after the last pruning, dense and under each filter spread, on both
    architectures: Fig. 20's bars; and on EP's, one iteration of the network at Table 5's CR
    (`at_cr_profile`, pruned to it at iteration 0: the same as the last iteration wherever
    the run reaches the CR), Fig. 19(b)'s other reading."""
    fig20[(net, args.arch, "at_cr")] = map_iteration(args.trainloop, args.arch, net, batch,
                                                     at_cr_profile, iterations, args.search, log)
    units = ["--constraints", args.cx_units]
    for key, arch, extra in ((args.arch, args.arch, []), (args.baseline, args.baseline, []),
                             ("cx_units", args.baseline, units)):
        fig20[(net, key, "dense")] = map_iteration(args.trainloop, arch, net, batch, None,
                                                   iterations, args.search, log, extra)
        for spread, _, _ in FILTER_SPREADS:
            fig20[(net, key, spread)] = map_iteration(args.trainloop, arch, net, batch,
                                                      spread_profiles[spread], iterations,
                                                      args.search, log, extra)


def run_fig20_windows(args, net, iterations, batch, profile, fig20, log):
    """Fig. 20's dense and uniformly pruned iteration on both architectures (CX as the spec
    gives it) with the positions in partial steps (`--imperfect-windows`, as run_windows)."""
    for arch in (args.arch, args.baseline):
        for spread, sparsity in (("dense", None), ("shipped", profile)):
            fig20[(net, arch + WINDOWS, spread)] = map_iteration(
                args.trainloop, arch, net, batch, sparsity, iterations, args.search, log,
                ["--imperfect-windows"])


def run_fig20_ddr4(args, net, iterations, batch, profile, fig20, log):
    """Fig. 20's dense and uniformly pruned iteration on both architectures (CX as the spec
    gives it) with the DRAM limited to each DDR4 bandwidth."""
    for words, _ in DDR4_WORDS:
        for arch in (args.arch, args.baseline):
            spec = ddr4_spec(arch, words, args.work)
            key = ddr4_key(arch, words)
            fig20[(net, key, "dense")] = map_iteration(args.trainloop, spec, net, batch, None,
                                                       iterations, args.search, log)
            fig20[(net, key, "shipped")] = map_iteration(args.trainloop, spec, net, batch,
                                                         profile, iterations, args.search, log)


def scnn_spec(work, bank_stalls):
    """EP's SCNN baseline spec, with `bank_stalls` ("none" as shipped): the shipped file, or a
    copy under `work` with the other model."""
    path = os.path.join(ROOT, "arch_specs", SCNN_ARCH + ".yaml")
    with open(path) as f:
        spec = f.read()
    if "bank_stalls: %s\n" % bank_stalls in spec:
        return path
    return write_spec_variant(SCNN_ARCH, spec.replace("bank_stalls: none\n", "bank_stalls: %s\n"
                                                      % bank_stalls), bank_stalls, work)


def cartesian_iteration(trainloop, spec, network, batch, profile, iteration, fc, log):
    """`trainloop cartesian --arch` of one training iteration, every phase (dense when profile
    is None): SCNN's dataflow, no search."""
    command = [trainloop, "cartesian", "--arch", spec, "--workload", network, "--batch",
               str(batch), "--phase", "all", "--format", "json"] + (["--fc"] if fc else [])
    if profile is not None:
        command += ["--sparsity", profile, "--iteration", str(iteration)]
    return run_json(command, log, "cartesian")


def run_scnn(args, net, iterations, batch, profile, fig20, log):
    """One iteration on EP's SCNN baseline after the last pruning, dense and pruned, under
    each reading of SCNN_READINGS: Fig. 19's and Fig. 21's SCNN bars and §5.4's hybrid."""
    for key, fc, stalls, _ in SCNN_READINGS:
        spec = scnn_spec(args.work, stalls)
        for spread, sparsity in (("dense", None), ("shipped", profile)):
            fig20[(net, key, spread)] = cartesian_iteration(args.trainloop, spec, net, batch,
                                                            sparsity, iterations, fc, log)


def ddr4_spec(arch, words, work):
    """arch_specs/`arch`.yaml with its DRAM at `words` words per cycle, reads and writes on one
    bus, as a DDR interface moves them."""
    return arch_with_dram_bandwidth(arch, words, work, shared=True)


def ddr4_key(arch, words):
    return "%s@dram%dshared" % (arch, words)


def over_ideal(result):
    """Speed normalized to the ideal dense case: dense MACs / PEs over the cycles taken."""
    step = result["totals"]["step"]
    return step["macs"] / PES / step["cycles"]


def pruning_bound(result):
    """The speed over the ideal dense case if every PE did only effectual MACs all the time:
    dense MACs over effectual MACs."""
    effectual = sum(entry["effectual_macs"] for layer in result["layers"]
                    for entry in layer["phases"].values())
    return result["totals"]["step"]["macs"] / effectual


def geomean(values):
    product = 1.0
    for v in values:
        product *= v
    return product ** (1.0 / len(values)) if values else float("nan")


def reading_profile(options):
    """The key (and file suffix) of the profile an RC reading runs: the shipped one, or the
    generator's options joined."""
    return "shipped" if not options else "_".join(o.strip("-").replace("-", "_")
                                                  for o in options)


def run_network(args, net, iterations, batch, profiles, runs, log):
    for variant, _, _ in VARIANTS:
        search = args.search if variant == "shipped" else MACS_ONLY
        runs[(net, variant)] = train_cost(args.trainloop, args.arch, net, batch, profiles[variant],
                                          iterations, search, log)
        print("%s %s: RC %s" % (net, variant, pct(runs[(net, variant)]["macs_removed_fraction"])),
              file=sys.stderr)
    pruned_layers = pruned_layers_network(load_generator(), net, args.work)
    for reading, options, pruned_only, _, _ in RC_READINGS + RC_BOUNDS:
        network = pruned_layers if pruned_only else net
        runs[(net, reading)] = train_cost(args.trainloop, args.arch, network, batch,
                                          profiles[reading_profile(options)], iterations,
                                          MACS_ONLY, log)
        print("%s %s: RC %s" % (net, reading, pct(runs[(net, reading)]["macs_removed_fraction"])),
              file=sys.stderr)
    runs[(net, "baseline")] = train_cost(args.trainloop, args.baseline, net, batch,
                                         profiles["shipped"], iterations, args.search, log)
    runs[(net, "baseline_units")] = train_cost(
        args.trainloop, args.baseline, net, batch, profiles["shipped"], iterations, args.search,
        log, ["--constraints", args.cx_units])
    words = DDR4_WHOLE_RUN[0]
    for arch in (args.arch, args.baseline):
        runs[(net, ddr4_key(arch, words))] = train_cost(
            args.trainloop, ddr4_spec(arch, words, args.work), net, batch,
            profiles["shipped"], iterations, args.search, log)
    # §5.4: dense training on FlexFlow (a dense design: the profile would change nothing).
    runs[(net, "flexflow")] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                         iterations, args.search, log)
    runs[(net, ddr4_key(args.flexflow, words))] = train_cost(
        args.trainloop, ddr4_spec(args.flexflow, words, args.work), net, batch,
        "dense", iterations, args.search, log)
    # §5.3: "CX works the best in KU": the dense kernel update alone on FF and on CX.
    for key, arch in (("flexflow_wu", args.flexflow), ("baseline_wu", args.baseline)):
        runs[(net, key)] = train_cost(args.trainloop, arch, net, batch, "dense", iterations,
                                      args.search, log, ["--phase", "wu"])
    # How far the search leaves the baselines: their dense training (one density state)
    # searched until converged, against the fixed budget above.
    for key, arch in (("baseline_converged", args.baseline),
                      ("flexflow_converged", args.flexflow)):
        runs[(net, key)] = train_cost(args.trainloop, arch, net, batch, "dense", iterations,
                                      args.search.until_converged(), log)
    # FF held to EP's dataflow, each reading of its KU: the whole run and its KU alone.
    for key, _, _ in FF_READINGS:
        constraints = ["--constraints", ff_reading_file(args.work, key)]
        runs[(net, key)] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                      iterations, args.search, log, constraints)
        runs[(net, key + "_wu")] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                              iterations, args.search, log,
                                              constraints + ["--phase", "wu"])
    run_windows(args, net, iterations, batch, profiles, runs, log)


# The alternative of §5.4's section on positions: every array also takes the output and
# filter positions (P, Q, R, S) in partial steps, `--imperfect-windows` (FlexFlow's cycles
# are "the fewest cycles to complete each layer", §5.2); its runs' keys end in WINDOWS.
WINDOWS = "_windows"


def run_windows(args, net, iterations, batch, profiles, runs, log):
    """§5.4's runs again with the positions in partial steps: EP's and CX's whole runs, FF's
    dense training as shipped and under each of FF_READINGS, and the kernel update alone on
    CX and under each reading."""
    windows = ["--imperfect-windows"]
    for key, arch in (("shipped", args.arch), ("baseline", args.baseline)):
        runs[(net, key + WINDOWS)] = train_cost(args.trainloop, arch, net, batch,
                                                profiles["shipped"], iterations, args.search,
                                                log, windows)
    runs[(net, "flexflow" + WINDOWS)] = train_cost(args.trainloop, args.flexflow, net, batch,
                                                   "dense", iterations, args.search, log,
                                                   windows)
    runs[(net, "baseline_wu" + WINDOWS)] = train_cost(
        args.trainloop, args.baseline, net, batch, "dense", iterations, args.search, log,
        windows + ["--phase", "wu"])
    for key, _, _ in FF_READINGS:
        constraints = ["--constraints", ff_reading_file(args.work, key)] + windows
        runs[(net, key + WINDOWS)] = train_cost(args.trainloop, args.flexflow, net, batch,
                                                "dense", iterations, args.search, log,
                                                constraints)
        runs[(net, key + "_wu" + WINDOWS)] = train_cost(
            args.trainloop, args.flexflow, net, batch, "dense", iterations, args.search, log,
            constraints + ["--phase", "wu"])


def ff_reading_file(work, key):
    """The constraints file of one of FF_READINGS in the work directory."""
    return os.path.join(work, key + ".yaml")


def run_lstm_variants(args, generator, runs, log):
    """The LSTM row again for each network shape the paper leaves open, and one step at a time.

    Every variant is a network file written by generate_networks.lstm_timit and its
    own profile (the schedule depends on the pruned weights W)."""
    networks = load_module("generate_networks", NETWORK_GENERATOR)
    iterations, batch = generator.TABLE_5["lstm_timit"][:2]
    shapes = [(v, kw) for v, kw, _ in LSTM_VARIANTS] + [("one_step", {"steps": 1})]
    for variant, kwargs in shapes:
        net_file = os.path.join(args.work, "lstm_timit_%s.yaml" % variant)
        with open(net_file, "w") as f:
            f.write(networks.lstm_timit(**kwargs).to_yaml())
        profile = os.path.join(args.work, "eager_pruning_lstm_%s.yaml" % variant)
        subprocess.run([sys.executable, GENERATOR, "-o", profile, "--only", "lstm_timit",
                        "--network", "lstm_timit=" + net_file], check=True)
        # The shipped shape and one frame at a time give the latency bracket; the rest an RC.
        search = args.search if variant in ("shipped", "one_step") else MACS_ONLY
        run = train_cost(args.trainloop, args.arch, net_file, batch, profile, iterations,
                         search, log)
        run["pruned_weights"] = sum(w for _, w in generator.pruned_layers("lstm_timit", net_file))
        runs[("lstm_timit", "shape_" + variant)] = run
        print("lstm_timit shape %s: RC %s" % (variant, pct(run["macs_removed_fraction"])),
              file=sys.stderr)


def write_lstm_section(w, runs, generator):
    rc = generator.TABLE_5["lstm_timit"][5]
    shipped = runs[("lstm_timit", "shape_shipped")]
    w("")
    w("## The LSTM: its shape where the paper is silent")
    w("")
    w("The paper gives the LSTM's 1024 memory cells, TIMIT, Kaldi, and Table 5's schedule; "
      "`workloads/lstm_timit.yaml` states the rest as assumptions (its header gives each "
      "one's source). EP prunes all its weight matrices (§5.1) to one density here, so the RC "
      "depends on the shape only through the pruned weights W: the schedule prunes `prune_num` "
      "of them per step until W·(1 − 1/CR) are gone. Each row writes the network with one "
      "dimension changed and its own profile.")
    w("")
    w("| network shape | pruned weights | RC: trainloop | ratio to the paper's %.2f %% |" % rc)
    w("|---|---:|---:|---:|")
    for variant, _, text in LSTM_VARIANTS:
        run = runs[("lstm_timit", "shape_" + variant)]
        w("| %s | %s | %s | %.2f |" % (text, "{:,}".format(run["pruned_weights"]),
                                        pct(run["macs_removed_fraction"]),
                                        run["macs_removed_fraction"] / (rc / 100)))
    one = runs[("lstm_timit", "shape_one_step")]
    frames = 20
    upper = frames * one["dense_total_cycles"]
    w("")
    w("The sequence length does not move the RC (every MAC scales with it alike); the other "
      "dimensions move it through W alone: the more weights, the later the schedule reaches "
      "its CR within the run's 400,000 iterations.")
    w("")
    ratio = upper / shipped["dense_total_cycles"]
    w("Latency: the network folds the %d frames beside the batch (engine/workload/lstm.hpp), "
      "so a mapping may run frames in parallel that the recurrence h_t ← h_{t−1} keeps "
      "sequential: with the best mapping of each, the folded network's cycles are a lower "
      "bound and the network run one frame at a time (T = 1, %d times, every layer "
      "sequential) an upper bound. Dense training over the run on `%s`: folded %s cycles, one "
      "frame at a time %s (%.2f×)." % (
          frames, frames, shipped["arch"], "{:,}".format(shipped["dense_total_cycles"]),
          "{:,}".format(upper), ratio))
    if ratio < 1:
        w("Here the order is reversed: the search (%s, budget %d per problem) found a worse "
          "mapping for the folded problems, whose mapspace is larger, than for the one-frame "
          "ones, so at this budget the two figures do not bracket the latency; both are only "
          "upper bounds on their best mappings." % (shipped["search"], shipped["budget"]))


def pct(x):
    return "%.2f %%" % (100 * x)


def pruned_weights(generator, net):
    """W: the weights of `net` EP prunes (the generator's count)."""
    return sum(weight for _, weight in generator.pruned_layers(net))


def last_pruning(generator, net):
    """The iteration of the last pruning of Table 5's schedule for `net` (the one that
    reaches its CR), as the shipped profile has it."""
    _, _, prune_num, interval, cr, _ = generator.TABLE_5[net]
    return generator.schedule(pruned_weights(generator, net), prune_num, interval, cr,
                              False)[-1][0]


def write_rc_readings(w, networks, runs, generator, targets):
    """Table 5's RC under RC_READINGS (§3.2's hyperparameter rule, the RC over the pruned
    layers' MACs, both) and RC_BOUNDS; each network's Table 5 hyperparameters against the
    rule's; the readings as alternatives in the targets' summary."""
    def rc(net, reading):
        return runs[(net, reading)]["macs_removed_fraction"]

    def ratio(net, reading):
        return rc(net, reading) / (generator.TABLE_5[net][5] / 100)

    w("")
    w("## Table 5's RC under the paper's other readings")
    w("")
    w("Two things the shipped profile reads one way have a second reading in the paper. "
      "Table 5 gives `prune_num` and `prune_interval` per network, and §3.2 gives the rule "
      "behind them: \"setting prune_interval as 1/100 of the total iterations and "
      "prune_num_max as 1/50 of the number of weights expected to be pruned\", so that "
      "pruning \"will terminate at the middle of training\" (`--hyperparameter-rule` of the "
      "profile generator; the weights expected to be pruned are W · (1 − 1/CR) of the pruned "
      "weights W). And Table 5's RC, \"the ratio of computation reduced during training\", "
      "may count every MAC of the run (as shipped) or only those of the layers EP prunes "
      "(§5.1: a CNN's convolutions, \"because more than 90% of the computation comes from "
      "these layers\"; trainloop runs the network without its other MAC layers: "
      "\"pruned layers' MACs\"). \"Both\" takes the two second readings together. The "
      "last two columns are bounds, not readings: pruned to the CR at iteration 0 "
      "(`--at-once`), no schedule that ends at the CR with every pruned layer at one density "
      "removes more.")
    w("")
    w("| network | Table 5's `prune_num` / the rule's | `prune_interval` / the rule's | RC: "
      "paper | as shipped | " + " | ".join(column for _, _, _, column, _
                                            in RC_READINGS + RC_BOUNDS) + " |")
    w("|---|---:|---:|---:|---:|" + "---:|" * len(RC_READINGS + RC_BOUNDS))
    for net in networks:
        iterations, _, prune_num, interval, cr, paper = generator.TABLE_5[net]
        rule_num, rule_interval = generator.hyperparameter_rule(
            iterations, pruned_weights(generator, net), cr)
        w("| %s | %.2f | %.2f | %.2f %% | %s | %s |" % (
            LABEL.get(net, net), prune_num / rule_num, interval / rule_interval, paper,
            pct(rc(net, "shipped")),
            " | ".join(pct(rc(net, reading)) for reading, _, _, _, _ in RC_READINGS + RC_BOUNDS)))
        for reading, _, _, _, label in RC_READINGS:
            targets.alternative(CLAIM_RC, LABEL.get(net, net), label, ratio(net, reading))
    w("")
    w("Ratios near 1 in the first two columns mean Table 5 follows the rule for that network "
      "(the rule's `prune_num` rounded up to whole weights, so that 50 prunings reach the CR).")
    for net in networks:
        iterations, _, _, _, cr, paper = generator.TABLE_5[net]
        if paper / 100 <= rc(net, "at_once"):
            continue
        unpruned_share = 1 - (runs[(net, "pruned_macs")]["total_macs"]
                              / runs[(net, "shipped")]["total_macs"])
        late = last_pruning(generator, net) >= iterations
        w("")
        w("%s: with every MAC of the run counted, Table 5's %.2f %% is out of reach of any "
          "schedule that ends at its CR (%.2f×): pruned to it at iteration 0, the run removes "
          "%s of its MACs, as %s of them are in layers EP does not prune. So Table 5's figure "
          "counts the pruned layers' MACs only (then at most %s), or EP pruned more than §5.1 "
          "says. Counted that way, Table 5's own hyperparameters give %s%s, and §3.2's rule "
          "gives %s: ratio %.2f to Table 5."
          % (LABEL.get(net, net), paper, cr, pct(rc(net, "at_once")), pct(unpruned_share),
             pct(rc(net, "pruned_macs_at_once")), pct(rc(net, "pruned_macs")),
             " (they reach the CR only after the run)" if late else "",
             pct(rc(net, "pruned_macs_rule")), ratio(net, "pruned_macs_rule")))
    counts = ["%s, %d (%s)" % (label, len(within), ", ".join(within) or "none")
              for label, within in
              [("as shipped", [LABEL.get(n, n) for n in networks
                               if within_target(ratio(n, "shipped"))])] +
              [(label, [LABEL.get(n, n) for n in networks if within_target(ratio(n, reading))])
               for reading, _, _, _, label in RC_READINGS]]
    w("")
    w("Networks within ±%d %% of Table 5 under each reading: %s." % (
        round(100 * RC_TOLERANCE), "; ".join(counts)))


def write_fig20(w, args, cnns, fig20, targets):
    """Fig. 20: one training iteration on each architecture over the ideal dense case."""
    w("## Fig. 20: one training iteration over the ideal dense case")
    w("")
    w("Paper: one iteration of training, dense (Fig. 20(a)) and sparse (Fig. 20(b)), each "
      "architecture's speed normalized to \"the ideal case of dense computation\", \"when all "
      "the PEs work without idleness\" (§5.3); \"our architecture for EP is the only one with "
      "> 1 speedup (1.19x CGM)\" in sparse training, CGM the geometric mean over the CNNs. "
      "trainloop: `trainloop map` of one iteration (fw, bw and wu of every layer) after the "
      "last pruning (`--iteration` = Table 5's iterations), the dense MACs over %d PEs (§5.2) "
      "divided by the cycles taken; dense training without `--sparsity`. The CX baseline puts "
      "one output on each of its 128 rows, 32 per sub-system (the output channels K in fw, "
      "dx's channels C in bw, dw's entries K, R, S in wu: its spec's `constraints:`, §4.1 and "
      "§5.2: \"16 PEs in a row serve one output\"), and a row's 16 PEs take its filter's "
      "nonzero weights (`line_indexing`), so a row whose filter kept fewer weights idles until "
      "the row with the most finishes. How unevenly "
      "pruning leaves a layer's filters is not given (§4.1 says only that one output's work "
      "\"differs significantly from another\"): each column pair is one assumption, the "
      "per-filter density drawn from a beta distribution with that coefficient of variation "
      "(`--per-filter-cv` of the profile generator; the layer's density is unchanged, so the "
      "RC is too)." % PES)
    w("")
    head = "| network | dense: EP | dense: CX |"
    rule = "|---|---:|---:|"
    for _, _, text in FILTER_SPREADS:
        head += " sparse, %s: EP | CX |" % text
        rule += "---:|---:|"
    w(head)
    w(rule)
    columns = [(args.arch, "dense"), (args.baseline, "dense")]
    for spread, _, _ in FILTER_SPREADS:
        columns += [(args.arch, spread), (args.baseline, spread)]
    units = [("cx_units", "dense")] + [("cx_units", spread) for spread, _, _ in FILTER_SPREADS]
    for net in cnns:
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(
            "%.2f" % over_ideal(fig20[(net, arch, kind)]) for arch, kind in columns)))
    means = {c: geomean([over_ideal(fig20[(n, c[0], c[1])]) for n in cnns])
             for c in columns + units}
    w("| **CGM** | %s |" % " | ".join("**%.2f**" % means[c] for c in columns))
    w("")
    w("The same with CX as %s:" % CX_UNITS_TEXT)
    w("")
    w("| network | dense: CX | %s |" % " | ".join("sparse, %s: CX" % text
                                               for _, _, text in FILTER_SPREADS))
    w("|---|" + "---:|" * len(units))
    for net in cnns:
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(
            "%.2f" % over_ideal(fig20[(net, key, kind)]) for key, kind in units)))
    w("| **CGM** | %s |" % " | ".join("**%.2f**" % means[c] for c in units))
    w("")
    shipped_ep = means[(args.arch, "shipped")]
    targets.add(CLAIM_FIG20, "CGM", "%.2f" % FIG20_EP_CGM, "%.2f" % shipped_ep,
                shipped_ep / FIG20_EP_CGM)
    verdicts = []
    for spread, _, text in FILTER_SPREADS:
        ep = means[(args.arch, spread)]
        for label, cx in (("CX", means[(args.baseline, spread)]),
                          ("CX as 8 units", means[("cx_units", spread)])):
            right = ep > 1 > cx
            verdicts.append("%s, %s: EP %.2f (paper 1.19, ratio %.2f), %s %.2f — %s"
                            % (text, label, ep, ep / FIG20_EP_CGM, label, cx,
                               "right (only EP above 1)" if right else
                               "**wrong** (CX above 1 too)" if cx >= 1 else
                               "**wrong** (EP below 1)"))
    w("Direction of Fig. 20(b), per assumption: " + "; ".join(verdicts) + ".")
    w("")
    ep_moves = max(abs(means[(args.arch, spread)] / means[(args.arch, "shipped")] - 1)
                   for spread, _, _ in FILTER_SPREADS)
    bound = geomean([pruning_bound(fig20[(n, args.arch, "shipped")]) for n in cnns])
    w("What moves CX and not EP: with one output per row, CX's rows hold different "
      "filters, and with an even spread over the filters (uniform) the busiest row "
      "carries little more than the mean; the more a layer's filters differ, the longer the "
      "busiest row and the rest idle. Each of the 128 rows waits on its own: a "
      "sub-system's row holds that sub-system's share of its output's input channels, and "
      "a line of `line_indexing` ends at the sub-system that feeds it (§5.2: each has its "
      "own rows). EP's DRACT lets any PE of a sub-system take any output's work "
      "(`flexible_allocation`; each sub-system has its own tree, and the four wait for the "
      "busiest): the spread moves its CGM by %.1f %% at most. In bw CX's rows "
      "are dx's channels C, each summing over all filters, so the per-filter spread averages "
      "out there. Dense training on CX is below the ideal as well (%.2f CGM): a sub-system's "
      "32 rows are left empty where a layer has fewer outputs than 32 or a count 32 does not "
      "divide, and a row's 16 PEs idle in part where a filter's taps and channels do not "
      "divide into 16 (the setup's last row: CX's indexing module would feed them the next "
      "weights, which the loop nest does not give)."
      % (100 * ep_moves, means[(args.baseline, "dense")]))
    w("")
    w("EP's own bar: the paper's EP reaches 1.19 of the ideal dense speed in sparse training; "
      "trainloop's reaches %.2f, against %.2f if every PE did only effectual MACs all the time "
      "(dense MACs over effectual MACs, CGM). Flexible allocation spreads the nonzeros of the "
      "waves a sub-system runs as one evenly over its PEs; what EP loses is what §4.4's "
      "dataflow leaves idle (the next subsection, per phase), the 32 outputs per cycle its "
      "collectors take, DRACT's pipeline fill, rounding and the layers' shapes. What else "
      "costs EP's FPGA prototype cycles (the input pool's refills, the selectors' and the fat "
      "tree's stalls, §4.2–4.3) is not given in cycles; the prototype's DDR4, whose rate §5.2 "
      "does not give, takes more once its bandwidth is limited (the subsection after next). "
      "The paper's iteration may also "
      "be one during EP training, before the last pruning, where fewer MACs are gone (the run "
      "averages after it)."
      % (means[(args.arch, "shipped")], bound))
    w("")
    return means


def run_over_ideal(run, dense=False):
    """A whole run's speed over the ideal dense case: the run's dense MACs over PES, divided
    by the cycles it took (sparse training, or dense training on the same array)."""
    return run["total_macs"] / PES / run["dense_total_cycles" if dense else "total_cycles"]


def phase_over_ideal(result, phase):
    """One phase's speed over the ideal dense case: its dense MACs over PES, divided by the
    cycles it took."""
    totals = result["totals"][phase]
    return totals["macs"] / PES / totals["cycles"]


def fw_share(result):
    """The forward pass's share of the iteration's dense MACs."""
    return result["totals"]["fw"]["macs"] / result["totals"]["step"]["macs"]


def write_at_table5_cr(w, args, cnns, fig20, shipped_fw, targets):
    """Fig. 19(b) and Fig. 20(b) with every network at Table 5's CR (the pruned model the
    table reports), where a run that ends before the CR leaves its network denser."""
    at_cr = {n: fig20[(n, args.arch, "at_cr")] for n in cnns}
    fw = geomean([phase_over_ideal(at_cr[n], "fw") for n in cnns])
    iteration = geomean([over_ideal(at_cr[n]) for n in cnns])
    moved = [n for n in cnns if abs(phase_over_ideal(at_cr[n], "fw") /
                                    phase_over_ideal(fig20[(n, args.arch, "shipped")], "fw")
                                    - 1) > 0.005]
    reading = "every network at Table 5's CR"
    targets.alternative(CLAIM_FIG19_SPARSE, "CGM", reading, fw / FIG19_EP_SPARSE_CGM)
    targets.alternative(CLAIM_FIG20, "CGM", reading, iteration / FIG20_EP_CGM)
    w("The other reading of \"sparse inference\": each network as Table 5 reports it, pruned "
      "to its CR (Table 5's CR is the compression of the model EP training yields), run with "
      "every pruned layer at the CR's density from iteration 0 (`--at-once`, the profile of "
      "the RC section's bound). Where a run reaches the CR this is its last iteration; it "
      "moves the forward pass by more than 0.5 %% on %s. Sparse forward pass, CGM: %.2f "
      "(Fig. 19(b): paper %.2f, ratio %.2f, %s; as shipped %.2f); the whole sparse "
      "iteration: %.2f (Fig. 20(b): paper %.2f, ratio %.2f, %s)."
      % (", ".join(LABEL.get(n, n) for n in moved) if moved else "no network", fw,
         FIG19_EP_SPARSE_CGM, fw / FIG19_EP_SPARSE_CGM, target_verdict(fw / FIG19_EP_SPARSE_CGM),
         shipped_fw, iteration, FIG20_EP_CGM, iteration / FIG20_EP_CGM,
         target_verdict(iteration / FIG20_EP_CGM)))
    w("")


def write_phases_over_ideal(w, args, cnns, fig20, targets):
    """Fig. 19 (inference is the forward pass) against the fw of Fig. 20's runs, and what
    the paper's own Fig. 19(b) and Fig. 20(b) together say about its BP and KU."""
    w("### Where the paper's EP loses its pruning: its own Fig. 19 and Fig. 20")
    w("")
    w("Paper, Fig. 19 (§5.3): one iteration of inference, the forward pass alone, on the "
      "same architectures and with the same normalization: EP's design \"0.84x and 1.86x\" "
      "on dense and sparse inference (CGM). The paper does not say which masks its sparse "
      "inference uses; assumed here: the networks as EP training leaves them, the masks of "
      "Fig. 20(b). trainloop: each phase of Fig. 20's runs of EP's architecture on its own "
      "(the uniform spread), its dense MACs over %d PEs divided by its cycles." % PES)
    w("")
    w("| network | fw share of the MACs | dense: fw | sparse: fw | sparse: bw | sparse: wu |")
    w("|---|---:|---:|---:|---:|---:|")
    dense = [fig20[(n, args.arch, "dense")] for n in cnns]
    sparse = [fig20[(n, args.arch, "shipped")] for n in cnns]
    for net, d, s in zip(cnns, dense, sparse):
        w("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            LABEL.get(net, net), fw_share(s), phase_over_ideal(d, "fw"),
            *(phase_over_ideal(s, ph) for ph in ("fw", "bw", "wu"))))
    share = geomean([fw_share(s) for s in sparse])
    dense_fw = geomean([phase_over_ideal(d, "fw") for d in dense])
    sparse_phase = {ph: geomean([phase_over_ideal(s, ph) for s in sparse])
                    for ph in ("fw", "bw", "wu")}
    w("| **CGM** | **%.2f** | **%.2f** | **%.2f** | **%.2f** | **%.2f** |" % (
        share, dense_fw, sparse_phase["fw"], sparse_phase["bw"], sparse_phase["wu"]))
    w("")

    targets.add(CLAIM_FIG19_SPARSE, "CGM", "%.2f" % FIG19_EP_SPARSE_CGM,
                "%.2f" % sparse_phase["fw"], sparse_phase["fw"] / FIG19_EP_SPARSE_CGM)
    targets.add(CLAIM_FIG19_DENSE, "CGM", "%.2f" % FIG19_EP_DENSE_CGM, "%.2f" % dense_fw,
                dense_fw / FIG19_EP_DENSE_CGM)

    def versus(trainloop, paper):
        ratio = trainloop / paper
        return "%.2f (paper %.2f, ratio %.2f, %s)" % (
            trainloop, paper, ratio,
            target_verdict(ratio))

    if "lenet" in cnns:
        lenet = phase_over_ideal(fig20[("lenet", args.arch, "dense")], "fw")
        w("LeNet's dense forward pass reaches %.2f of the ideal (the CGM: %.2f): its first "
          "layer has one input channel, so one of the four sub-systems works there, as §5.3 "
          "says of the paper's design (\"LN has only one input feature map so only one of the "
          "four sub-systems is busy at the first layer\"; the spec's partition, §5.2)."
          % (lenet, dense_fw))
        w("")
        others = [n for n in cnns if n != "lenet"]
        if others:
            lenet_sparse = phase_over_ideal(fig20[("lenet", args.arch, "shipped")], "fw")
            fw_without = geomean([phase_over_ideal(fig20[(n, args.arch, "shipped")], "fw")
                                  for n in others])
            iteration_without = geomean([over_ideal(fig20[(n, args.arch, "shipped")])
                                         for n in others])
            w("LeNet's sparse forward pass is %.2f× its dense one: its run ends before Table "
              "5's CR (the RC section), so its last iteration is nearly dense, where the "
              "paper's LeNet is pruned. Without LeNet the CGMs are %.2f for the sparse forward "
              "pass (Fig. 19(b): ratio %.2f, %s) and %.2f for the sparse iteration (Fig. "
              "20(b): ratio %.2f, %s): LeNet's reading of the schedule pulls the first down "
              "and the second towards the paper."
              % (lenet_sparse / lenet, fw_without, fw_without / FIG19_EP_SPARSE_CGM,
                 target_verdict(fw_without / FIG19_EP_SPARSE_CGM), iteration_without,
                 iteration_without / FIG20_EP_CGM,
                 target_verdict(iteration_without / FIG20_EP_CGM)))
            w("")
    write_at_table5_cr(w, args, cnns, fig20, sparse_phase["fw"], targets)
    # Fig. 20(b)'s iteration as FP at Fig. 19(b)'s speed and BP + KU at speed s:
    # 1 / FIG20 = f / FIG19_SPARSE + (1 - f) / s, f the forward pass's share of the MACs.
    rest = (1 - share) / (1 / FIG20_EP_CGM - share / FIG19_EP_SPARSE_CGM)
    w("Inference: sparse %s; dense %s. Training: if the paper's FP runs in training as in "
      "inference, Fig. 20(b)'s %.2f for the whole iteration leaves BP and KU together at "
      "(1 − f) / (1 / %.2f − f / %.2f) = **%.2f** of the ideal dense speed, with f = %.2f the "
      "forward pass's share of the MACs (trainloop's, CGM). Against its dense inference "
      "(%.2f), the paper's EP gains %.1f× from pruning in FP and, if its dense BP and KU run "
      "as its dense FP, about %.1f× in BP and KU together; trainloop's EP reaches %.2f of the "
      "ideal in bw and %.2f in wu. %s The spec maps each phase as §4.4 does. In KU the "
      "outputs are the kernel updates: \"the outputs within a feature map\" (dw's R and S) "
      "and Pof kernels are unrolled, the errors duplicated to them as the filters (Fig. "
      "17(b)), and the input maps stream past in time; a pruned gradient's PE idles where the "
      "waves DRACT could pack differ in the input maps streamed to the PEs "
      "(`packed_waves`, `docs/load_imbalance.md`). In BP the sparse kernels are used "
      "transposed (dx's channels with the taps within a sub-system, the error's channels "
      "across them), and the 32 collectors take at most 32 of dx's values per cycle per "
      "sub-system. In trainloop's one-iteration-space view BP's taps spread over the PEs "
      "make distinct dx positions in a cycle, where the paper's transposed convolution "
      "reduces a window of errors into one dx value, so the collectors may bind BP here more "
      "than in the paper's design (an upper estimate of their cost). The paper gives no "
      "cycles per phase for EP's architecture (Fig. 21 breaks GoogLeNet's training down in a "
      "chart only), so these per-phase figures are the "
      "model's, not a reproduction. The next subsection shows what the prototype's DDR4 "
      "bandwidth takes."
      % (versus(sparse_phase["fw"], FIG19_EP_SPARSE_CGM),
         versus(dense_fw, FIG19_EP_DENSE_CGM), FIG20_EP_CGM, FIG20_EP_CGM,
         FIG19_EP_SPARSE_CGM, rest, share, FIG19_EP_DENSE_CGM,
         FIG19_EP_SPARSE_CGM / FIG19_EP_DENSE_CGM, rest / FIG19_EP_DENSE_CGM,
         sparse_phase["bw"], sparse_phase["wu"],
         "So trainloop's EP agrees with the paper's on the forward pass, and the difference "
         "in Fig. 20(b) lies in the backward pass and the kernel update."
         if abs(sparse_phase["fw"] / FIG19_EP_SPARSE_CGM - 1) <= RC_TOLERANCE else
         "trainloop's forward pass is already outside ±20 % of the paper's inference, and "
         "the backward pass and the kernel update add to the difference."))
    w("")


def fig19_20_reading(cnns, fig20, ep_key, cx_key, what, reading, targets):
    """Fig. 20 (a), (b) and Fig. 19 from the iterations mapped under `ep_key` and `cx_key` (one
    reading of the setup, `reading` in the targets table), as a clause starting with `what`."""
    cgm = {(k, sp): geomean([over_ideal(fig20[(n, k, sp)]) for n in cnns])
           for k in (ep_key, cx_key) for sp in ("shipped", "dense")}
    fw = {sp: geomean([phase_over_ideal(fig20[(n, ep_key, sp)], "fw") for n in cnns])
          for sp in ("shipped", "dense")}
    ep, cx = cgm[(ep_key, "shipped")], cgm[(cx_key, "shipped")]
    ratio = ep / FIG20_EP_CGM
    targets.alternative(CLAIM_FIG20, "CGM", reading, ratio)
    targets.alternative(CLAIM_FIG19_SPARSE, "CGM", reading, fw["shipped"] / FIG19_EP_SPARSE_CGM)
    targets.alternative(CLAIM_FIG19_DENSE, "CGM", reading, fw["dense"] / FIG19_EP_DENSE_CGM)
    return (
        "%s, Fig. 20(b): EP %.2f (paper %.2f, ratio %.2f, %s), CX %.2f, direction %s; "
        "Fig. 20(a), dense training: EP %.2f, CX %.2f, %s; Fig. 19, the forward pass: "
        "sparse %.2f (paper %.2f, ratio %.2f, %s), dense %.2f (paper %.2f, ratio %.2f, "
        "%s)" % (
            what, ep, FIG20_EP_CGM, ratio,
            target_verdict(ratio),
            cx, "right (only EP above 1)" if ep > 1 >= cx else
            "**wrong** (CX above 1 too)" if cx > 1 else "**wrong** (EP not above 1)",
            cgm[(ep_key, "dense")], cgm[(cx_key, "dense")],
            "EP faster, as the paper's \"our design gains the highest speedup on training\""
            if cgm[(ep_key, "dense")] > cgm[(cx_key, "dense")] else
            "**CX faster** (the paper: \"our design gains the highest speedup on training\")",
            fw["shipped"], FIG19_EP_SPARSE_CGM, fw["shipped"] / FIG19_EP_SPARSE_CGM,
            target_verdict(fw["shipped"] / FIG19_EP_SPARSE_CGM),
            fw["dense"], FIG19_EP_DENSE_CGM, fw["dense"] / FIG19_EP_DENSE_CGM,
            target_verdict(fw["dense"] / FIG19_EP_DENSE_CGM)))


def write_fig20_windows(w, args, cnns, fig20, targets):
    """Fig. 19 and Fig. 20 with the positions in partial steps on both arrays."""
    w("With the positions in partial steps on both arrays (`--imperfect-windows`, §5.4's "
      "paragraph on positions; the uniform spread, CX as the spec gives it): %s." %
      fig19_20_reading(cnns, fig20, args.arch + WINDOWS, args.baseline + WINDOWS,
                       "every mapping searched again",
                       "positions in partial steps on both arrays (`--imperfect-windows`)",
                       targets))
    w("")


def write_ddr4(w, args, cnns, fig20, targets):
    """Fig. 19 and Fig. 20 with the prototype's DRAM at DDR4 bandwidths."""
    w("### The prototype's DDR4: Fig. 19 and Fig. 20 with a finite off-chip bandwidth")
    w("")
    w("Paper: the prototype is a VCU118 board with \"two sets of five 512MB DDR4 SDRAM\" at "
      "200 MHz (§5.2); no bandwidth is given, and the shipped specs leave DRAM unlimited. "
      "Five 16-bit devices make an 80-bit interface; with 64 of its bits as data and DDR4's "
      "JEDEC rates, two interfaces move %s 16-bit words per cycle at 200 MHz, reads and writes "
      "together: a DDR interface has one data bus for both (`shared_bandwidth`; this document "
      "before commit 7626ae0 gave each limit to reads and to writes alike). The same runs as "
      "above, each architecture's DRAM limited (CX as the spec gives it; the uniform spread); "
      "every mapping searched again on the limited array."
      % " and ".join("%d (%s)" % (words, rate) for words, rate in DDR4_WORDS))
    w("")
    head, rule = "| network | unlimited: EP | CX |", "|---|---:|---:|"
    for words, rate in DDR4_WORDS:
        head += " %s: EP | CX |" % rate
        rule += "---:|---:|"
    w("Sparse training (Fig. 20(b)), then dense training (Fig. 20(a)):")
    w("")
    for spread, label in (("shipped", "sparse"), ("dense", "dense")):
        w(head)
        w(rule)
        keys = [(args.arch, args.baseline)] + [
            (ddr4_key(args.arch, words), ddr4_key(args.baseline, words))
            for words, _ in DDR4_WORDS]
        for net in cnns:
            w("| %s | %s |" % (LABEL.get(net, net), " | ".join(
                "%.2f" % over_ideal(fig20[(net, k, spread)]) for pair in keys for k in pair)))
        w("| **CGM, %s** | %s |" % (label, " | ".join(
            "**%.2f**" % geomean([over_ideal(fig20[(n, k, spread)]) for n in cnns])
            for pair in keys for k in pair)))
        w("")
    w("EP's phases on the limited array (the uniform spread), CGM over the networks, as in "
      "the previous subsection's table:")
    w("")
    w("| DRAM | dense: fw | sparse: fw | sparse: bw | sparse: wu |")
    w("|---|---:|---:|---:|---:|")
    for key, text in [(args.arch, "unlimited")] + [
            (ddr4_key(args.arch, words), rate) for words, rate in DDR4_WORDS]:
        w("| %s | %.2f | %s |" % (text, geomean(
            [phase_over_ideal(fig20[(n, key, "dense")], "fw") for n in cnns]), " | ".join(
            "%.2f" % geomean([phase_over_ideal(fig20[(n, key, "shipped")], ph) for n in cnns])
            for ph in ("fw", "bw", "wu"))))
    w("")
    notes = [fig19_20_reading(cnns, fig20, ddr4_key(args.arch, words),
                              ddr4_key(args.baseline, words), "at " + rate,
                              "the prototype's DDR4 at %s" % rate, targets)
             for words, rate in DDR4_WORDS]
    w("With the board's DDR4: " + "; ".join(notes) + ".")
    w("")
    slowest = DDR4_WORDS[-1][0]
    kept = {ph: geomean([phase_over_ideal(fig20[(n, ddr4_key(args.arch, slowest), "shipped")],
                                          ph) for n in cnns]) /
            geomean([phase_over_ideal(fig20[(n, args.arch, "shipped")], ph) for n in cnns])
            for ph in ("fw", "bw", "wu")}
    most = min(kept, key=kept.get)
    w("What the limit takes: a sparse iteration moves nearly the same words off chip as a "
      "dense one (only the weights shrink) in fewer cycles, so it reaches the bandwidth "
      "first. At %s EP's sparse phases keep %s of their unlimited speed: %s loses most%s. "
      "The paper gives neither its DDR4's rate nor its off-chip traffic, so "
      "this is a candidate for the difference, not a reproduction of it: no bandwidth is "
      "chosen here to match a figure, and the shipped specs keep DRAM unlimited. §5.4's "
      "whole runs were made at %s only (under §5.4 above)." % (
          DDR4_WORDS[-1][1],
          ", ".join("%s %.0f %%" % (ph, 100 * kept[ph]) for ph in ("fw", "bw", "wu")), most,
          " — the kernel update, which reads the inputs and errors of the whole minibatch and "
          "writes every kernel update (§4.4), where the paper's own figures place EP's loss "
          "(the previous subsection)" if most == "wu" else "", DDR4_WHOLE_RUN[1]))
    w("")


def write_fig20_run_average(w, cnns, runs, targets):
    """Fig. 20(b) read as the mean over the training run's iterations (the whole-run
    train-cost figures) instead of one iteration after the last pruning."""
    rows = [("EP", "shipped"), ("CX", "baseline"), ("CX as 8 units", "baseline_units")]
    cnns = [n for n in cnns if all((n, key) in runs for _, key in rows)]
    if not cnns:
        return
    w("The other reading of \"the average speedup on one iteration of training ... with EP "
      "algorithm\" (§5.3): the average over the iterations of an EP training run, which "
      "start dense and are pruned towards Table 5's CR. trainloop: the run's dense MACs "
      "over %d PEs divided by the cycles of the whole run (`total_macs` and `total_cycles` of the "
      "whole-run `train-cost` above; dense training: `dense_total_cycles`), uniform spread "
      "over the filters (the shipped profile; the per-filter spreads were run for one "
      "iteration only)." % PES)
    w("")
    w("| network | %s |" % " | ".join("dense: %s | run average: %s" % (label, label)
                                     for label, _ in rows))
    w("|---|" + "---:|---:|" * len(rows))
    for net in cnns:
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(
            "%.2f | %.2f" % (run_over_ideal(runs[(net, key)], dense=True),
                             run_over_ideal(runs[(net, key)])) for _, key in rows)))
    means = {key: (geomean([run_over_ideal(runs[(n, key)], dense=True) for n in cnns]),
                   geomean([run_over_ideal(runs[(n, key)]) for n in cnns])) for _, key in rows}
    w("| **CGM** | %s |" % " | ".join("**%.2f** | **%.2f**" % means[key] for _, key in rows))
    w("")
    ep = means["shipped"][1]
    verdicts = []
    for label, key in rows[1:]:
        cx = means[key][1]
        verdicts.append("against %s %.2f, %s" % (
            label, cx, "right (only EP above 1)" if ep > 1 > cx else
            "**wrong** (CX above 1 too)" if cx >= 1 else "**wrong** (EP below 1)"))
    ratio = ep / FIG20_EP_CGM
    targets.alternative(CLAIM_FIG20, "CGM", "the mean over the run's iterations", ratio)
    w("Read this way, EP's own bar is %.2f (paper 1.19, ratio %.2f, %s); direction: %s. "
      "The run average counts the iterations before the last pruning, where fewer MACs are "
      "gone; which of the two readings the paper plots it does not say."
      % (ep, ratio, target_verdict(ratio),
         "; ".join(verdicts)))
    w("")


def write_ff_kernel_update(w, networks, runs):
    """§5.4 over FF with FF's dense kernel update taking at least CX's cycles, as §5.3 says
    of the paper's arrays ("CX works the best in KU"); returns the mean speed-up."""
    faster = [LABEL.get(n, n) for n in networks
              if runs[(n, "flexflow_wu")]["dense_total_cycles"] <
              runs[(n, "baseline_wu")]["dense_total_cycles"]]
    w("The paper's own word on FF's kernel update: \"We found that SCNN works the best in "
      "FP/BP and CX works the best in KU\" (§5.3, of the baselines FF, CX, SCNN and SD). "
      "trainloop's FF, whose spec lets a row's PEs reduce over the samples in KU (assumed: "
      "§5.2 gives FF's forward unrolling only), runs the dense kernel update faster than CX "
      "on %s. The bound below gives FF's kernel update at least CX's dense cycles over the "
      "run (`train-cost --phase wu`, dense, on each array) and leaves its other phases as "
      "run: FF's dense training becomes FF's total − FF's KU + max(FF's KU, CX's KU)."
      % ("every network run" if len(faster) == len(networks) else
         ", ".join(faster) if faster else "no network"))
    w("")
    w("| network | KU over the run: FF / CX | dense training on FF: as run / with the bound "
      "| speed-up over FF with the bound |")
    w("|---|---:|---:|---:|")
    speedups = []
    for net in networks:
        ff, ep = runs[(net, "flexflow")], runs[(net, "shipped")]
        ff_ku = runs[(net, "flexflow_wu")]["dense_total_cycles"]
        cx_ku = runs[(net, "baseline_wu")]["dense_total_cycles"]
        bounded = ff["dense_total_cycles"] - ff_ku + max(ff_ku, cx_ku)
        speedups.append(bounded / ep["total_cycles"])
        w("| %s | %.2f | %.2f | %.2f× |" % (LABEL.get(net, net), ff_ku / cx_ku,
                                           ff["dense_total_cycles"] / bounded, speedups[-1]))
    mean = sum(speedups) / len(speedups)
    w("")
    w("Mean with the bound: %.2f× (paper %.2f×, ratio %.2f, %s). This is a bound from the "
      "paper's sentence, not a model of FF's kernel update: how the paper's FF ran it, §5.2 "
      "does not say." % (mean, PAPER_OVER_FF, mean / PAPER_OVER_FF,
                         target_verdict(mean / PAPER_OVER_FF)))
    w("")
    return mean


def write_ff_readings(w, networks, runs):
    """§5.4 over FF with FF held to EP's dataflow, under each reading of its KU (FF_READINGS);
    returns the mean speed-up per reading."""
    w("FF held to EP's dataflow instead (§4.4: one sample at a time through the three phases, "
      "the samples only off chip; a constraints file over the same spec, "
      "`--constraints`), with the two ways §5.2's unrolling reads on KU's convolution, dw = "
      "x ⊛ dy, where §5.2 describes a forward convolution only:")
    w("")
    for number, (_, _, label) in enumerate(FF_READINGS, 1):
        w("%d. %s." % (number, label[0].upper() + label[1:]))
    w("")
    heads = ["reading %d" % n for n in range(1, len(FF_READINGS) + 1)]
    w("| network | %s | %s | %s |" % (
        " | ".join("dense training on FF, %s / as run" % h for h in heads),
        " | ".join("KU over the run, %s: FF / CX" % h for h in heads),
        " | ".join("speed-up over FF, %s" % h for h in heads)))
    w("|---|%s" % ("---:|" * 3 * len(FF_READINGS)))
    speedups = {key: [] for key, _, _ in FF_READINGS}
    slower_ku = {key: [] for key, _, _ in FF_READINGS}
    for net in networks:
        ff = runs[(net, "flexflow")]["dense_total_cycles"]
        cx_ku = runs[(net, "baseline_wu")]["dense_total_cycles"]
        dense, ku, over = [], [], []
        for key, _, _ in FF_READINGS:
            held = runs[(net, key)]["dense_total_cycles"]
            held_ku = runs[(net, key + "_wu")]["dense_total_cycles"]
            speedups[key].append(held / runs[(net, "shipped")]["total_cycles"])
            if held_ku > cx_ku:
                slower_ku[key].append(LABEL.get(net, net))
            dense.append("%.2f" % (held / ff))
            ku.append("%.2f" % (held_ku / cx_ku))
            over.append("%.2f×" % speedups[key][-1])
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(dense + ku + over)))
    means = {key: sum(values) / len(values) for key, values in speedups.items()}
    w("")
    parts = []
    for number, (key, _, _) in enumerate(FF_READINGS, 1):
        ratio = means[key] / PAPER_OVER_FF
        parts.append("reading %d %.2f× (ratio %s, %s), FF's kernel update slower than CX's, as "
                     "§5.3 says, on %s" % (number, means[key], ratio_text(ratio),
                                           target_verdict(ratio),
                                           ", ".join(slower_ku[key]) or "no network"))
    low, high = min(means.values()), max(means.values())
    w("Means: %s. The figure moves from %.2f× to %.2f× with how FF unrolled its kernel update, "
      "which §5.2 does not say; the paper's %.2f× lies %s." % (
          "; ".join(parts), low, high, PAPER_OVER_FF,
          "between" if low < PAPER_OVER_FF < high else "outside that span"))
    w("")
    return means


def write_over_flexflow(w, args, networks, runs, speedup_means, targets):
    """§5.4's second figure: EP training on EP against dense training on FlexFlow, and with
    `speedup_means` (the mean speed-up over CX per reading of CX) the two figures' order."""
    words, rate = DDR4_WHOLE_RUN
    rows = [(n, runs[(n, "flexflow")]["dense_total_cycles"] / runs[(n, "shipped")]["total_cycles"],
             runs[(n, ddr4_key(args.flexflow, words))]["dense_total_cycles"] /
             runs[(n, ddr4_key(args.arch, words))]["total_cycles"],
             runs[(n, "flexflow")]["dense_total_cycles"] /
             runs[(n, "shipped")]["dense_total_cycles"])
            for n in networks]
    w("Over FlexFlow, §5.4's other figure: \"an average of ... 2.25x speedup over ... FF\". "
      "trainloop: `dense_total_cycles` of dense training on `%s` (§5.2's FF: 64 rows × 32 "
      "PEs, each row one output, the factors per layer-phase for the fewest cycles) against the "
      "EP run above." % args.flexflow)
    w("")
    w("| network | dense on FF (s at 200 MHz) | speed-up over FF: trainloop | both DRAMs at %s | "
      "dense training: FF / EP |" % rate)
    w("|---|---:|---:|---:|---:|")
    for net, speedup, ddr4, dense in rows:
        w("| %s | %s | %.2f× | %.2f× | %.2f |" % (
            LABEL.get(net, net), "{:,.0f}".format(runs[(net, "flexflow")]["dense_total_seconds"]),
            speedup, ddr4, dense))
    mean = sum(r[1] for r in rows) / len(rows)
    ddr4_mean = sum(r[2] for r in rows) / len(rows)
    targets.add(CLAIM_OVER_FF, "mean", "%.2f×" % PAPER_OVER_FF, "%.2f×" % mean,
                mean / PAPER_OVER_FF)
    targets.alternative(CLAIM_OVER_FF, "mean", "both DRAMs at %s" % rate,
                        ddr4_mean / PAPER_OVER_FF)
    w("")
    ku_bound = write_ff_kernel_update(w, networks, runs)
    targets.alternative(CLAIM_OVER_FF, "mean", "FF's kernel update no faster than CX's (§5.3)",
                        ku_bound / PAPER_OVER_FF)
    for number, (key, mean_held) in enumerate(write_ff_readings(w, networks, runs).items(), 1):
        targets.alternative(CLAIM_OVER_FF, "mean", "FF one sample at a time, KU reading %d"
                            % number, mean_held / PAPER_OVER_FF)

    def direction(value):
        return "right (EP faster)" if value > 1 else "**wrong** (FF faster)"
    w("Mean over the networks run: %.2f× (paper %.2f×, ratio %.2f, %s), direction %s; with "
      "both DRAMs at %s %.2f× (ratio %.2f, %s), direction %s." % (
          mean, PAPER_OVER_FF, mean / PAPER_OVER_FF, target_verdict(mean / PAPER_OVER_FF),
          direction(mean), rate, ddr4_mean, ddr4_mean / PAPER_OVER_FF,
          target_verdict(ddr4_mean / PAPER_OVER_FF), direction(ddr4_mean)))
    if not within_target(ddr4_mean / PAPER_OVER_FF):
        slower = [LABEL.get(n, n) for n, _, ddr4, _ in rows if ddr4 < 1]
        w("")
        w("Why the limited DRAM takes most of the gain: a pruned iteration moves nearly the "
          "words of a dense one off chip (only the weights shrink; the DDR4 subsection under "
          "Fig. 20), so where both arrays wait for their DRAM, EP's pruned run gains little "
          "over FF's dense one%s. The paper gives no DRAM rate (§5.2), so this row is an "
          "assumption's, not a target's; the shipped specs leave DRAM unlimited."
          % ("; on %s EP's run is even the slower" % ", ".join(slower) if slower else ""))
    if not within_target(mean / PAPER_OVER_FF):
        w("")
        w("Where the model differs from the paper here: FF keeps the freedom §5.2 gives it "
          "(\"we sum up the fewest cycles to complete each layer among all the unrolling "
          "policies\"). Its spec fixes only which dimensions go on its rows and columns, so "
          "its kernel update may put samples across a row (assumed: §5.2 gives FF's forward "
          "unrolling only) and its mappings take samples and positions in any order, while "
          "EP's and CX's follow §4.4's dataflow: one sample at a time through the three "
          "phases, and at most 32 outputs per cycle per sub-system through the collectors "
          "(the setup; the subsection on Figs. 19 and 20 shows what that costs EP's kernel "
          "update). Whether the paper's FF ran its kernel update one sample at a time, and "
          "through which output port, §5.2 does not say; FF held to EP's dataflow is the "
          "alternative measured above, not the shipped reading.")
    w("")
    # Each reading of CX (the section above) with FF's run under the same DRAM.
    readings = [("CX's rows as the spec gives them", "one array", mean),
                ("CX as %s" % CX_UNITS_TEXT, "8 units", mean),
                ("CX's rows as the spec gives them, both DRAMs at %s" % rate,
                 "one array, " + rate, ddr4_mean)]
    parts, both = [], []
    for text, key, over_ff in readings:
        over_cx = speedup_means[key]
        in_order = over_ff > over_cx
        parts.append("%s, %.2f× over CX against %.2f× over FF (FF the %s)" % (
            text, over_cx, over_ff, "slower, as in the paper" if in_order else "faster"))
        if in_order and abs(over_cx / PAPER_OVER_CX - 1) <= RC_TOLERANCE and \
                abs(over_ff / PAPER_OVER_FF - 1) <= RC_TOLERANCE:
            both.append(text)
    w("The paper's two figures make FF's dense training the slower of the two baselines (2.25× "
      "over FF against 1.91× over CX). Against each reading of CX: %s. %s" % (
          "; ".join(parts),
          "Both figures within ±20 %% and in the paper's order: %s." % " or ".join(both)
          if both else "None of these readings gives both figures within ±20 % in the paper's "
          "order (with the positions in partial steps: the paragraph on positions below)."))


# §5.2, on the LSTM: "a new weight is loaded by each PE in every cycle. In this case, the
# number of PEs is determined by the bandwidth of the filter buffer, which is 128 in our
# design"; "When comparing to ESE, the other models also use 128 PEs."
LSTM_WEIGHTS_PER_CYCLE = 128


def filter_buffer_bound(run, dense):
    """A whole run's cycles on the LSTM under §5.2's filter-buffer bound: one sample at a time
    (§4.4), every MAC takes its own weight (or, in KU, makes its own weight gradient), and
    the filter buffer delivers LSTM_WEIGHTS_PER_CYCLE of them per cycle, so a run takes at
    least its performed MACs over that. `dense`: the run's dense training (every MAC), else
    the pruned run (its effectual MACs: pruned weights are neither loaded nor updated)."""
    cycles = run["dense_total_cycles"] if dense else run["total_cycles"]
    macs = run["total_macs"] if dense else run["effectual_macs"]
    return max(cycles, macs / LSTM_WEIGHTS_PER_CYCLE)


def write_lstm_filter_buffer(w, networks, runs, targets):
    """§5.4's two means with the LSTM's runs at §5.2's filter-buffer bound (an alternative:
    the shipped specs let the LSTM's weights reach the PEs from DRAM, which is unlimited)."""
    net = "lstm_timit"
    if net not in networks:
        return
    ep = runs[(net, "shipped")]
    bounded = {"EP": filter_buffer_bound(ep, False),
               "CX": filter_buffer_bound(runs[(net, "baseline")], True),
               "FF": filter_buffer_bound(runs[(net, "flexflow")], True)}
    over = {"CX": bounded["CX"] / bounded["EP"], "FF": bounded["FF"] / bounded["EP"]}
    shipped = {"CX": runs[(net, "baseline")]["dense_total_cycles"] / ep["total_cycles"],
               "FF": runs[(net, "flexflow")]["dense_total_cycles"] / ep["total_cycles"]}
    ratios = [bounded["EP"] / ep["total_cycles"],
              bounded["CX"] / runs[(net, "baseline")]["dense_total_cycles"],
              bounded["FF"] / runs[(net, "flexflow")]["dense_total_cycles"]]
    means = {}
    for arch, baseline in (("CX", "baseline"), ("FF", "flexflow")):
        speedups = [over[arch] if n == net else
                    runs[(n, baseline)]["dense_total_cycles"] / runs[(n, "shipped")]["total_cycles"]
                    for n in networks]
        means[arch] = sum(speedups) / len(speedups)
    reading = "the LSTM at §5.2's filter-buffer bound (128 weights per cycle)"
    targets.alternative(CLAIM_OVER_CX, "mean", reading, means["CX"] / PAPER_OVER_CX)
    targets.alternative(CLAIM_OVER_FF, "mean", reading, means["FF"] / PAPER_OVER_FF)
    w("The LSTM and the filter buffer. §5.2: on the LSTM \"a new weight is loaded by each PE in "
      "every cycle. In this case, the number of PEs is determined by the bandwidth of the "
      "filter buffer, which is %d in our design\", and the other designs \"also use 128 PEs\". "
      "The shipped specs pool the three buffers' bandwidth and let weights reach the PEs "
      "from DRAM, which they leave unlimited, so the runs above are not held to it. Under the "
      "bound, one sample at a time (§4.4), each MAC takes its own weight (in KU makes its own "
      "weight gradient), so a run takes at least as many cycles as its MACs over %d: EP's "
      "effectual MACs (pruned weights are neither loaded nor updated), dense training's "
      "every MAC. Whole run in cycles, as run and at the bound: EP %s and %s, dense on CX %s "
      "and %s, dense on FF %s and %s (the bound is %.0f–%.0f× the runs: it sets the time). "
      "EP's speed-up on the LSTM: over CX %.2f× as run, %.2f× at the bound; over FF %.2f× and "
      "%.2f×. The means of §5.4 with the LSTM at the bound: over CX %.2f× (ratio %s, %s), "
      "over FF %.2f× (ratio %s, %s). A bound on every array alike leaves EP only what it "
      "skips, so the LSTM's speed-ups come to its dense MACs over its effectual ones, %.2f×."
      % (LSTM_WEIGHTS_PER_CYCLE, LSTM_WEIGHTS_PER_CYCLE,
         "{:,.0f}".format(ep["total_cycles"]), "{:,.0f}".format(bounded["EP"]),
         "{:,.0f}".format(runs[(net, "baseline")]["dense_total_cycles"]),
         "{:,.0f}".format(bounded["CX"]),
         "{:,.0f}".format(runs[(net, "flexflow")]["dense_total_cycles"]),
         "{:,.0f}".format(bounded["FF"]), min(ratios), max(ratios),
         shipped["CX"], over["CX"], shipped["FF"], over["FF"],
         means["CX"], ratio_text(means["CX"] / PAPER_OVER_CX),
         target_verdict(means["CX"] / PAPER_OVER_CX), means["FF"],
         ratio_text(means["FF"] / PAPER_OVER_FF), target_verdict(means["FF"] / PAPER_OVER_FF),
         ep["total_macs"] / ep["effectual_macs"]))
    w("")


def write_search_reach(w, args, networks, runs):
    """How far the fixed budget leaves the baselines' dense training from the same search run
    until converged, and the two §5.4 means with the converged baselines."""
    pairs = [("CX", "baseline", "baseline_converged"), ("FF", "flexflow", "flexflow_converged")]
    w("How far this search leaves the baselines: dense training on each, one density state per "
      "network, searched again until converged (%s), against the runs above (cycles of the "
      "runs above over the converged ones):" % args.search.until_converged())
    w("")
    w("| network | %s |" % " | ".join("dense training on %s" % name for name, _, _ in pairs))
    w("|---|%s" % ("---:|" * len(pairs)))
    for net in networks:
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(
            "%.3f" % (runs[(net, run)]["dense_total_cycles"] /
                      runs[(net, converged)]["dense_total_cycles"])
            for _, run, converged in pairs)))
    w("")
    parts = []
    for (name, _, converged), paper in zip(pairs, (PAPER_OVER_CX, PAPER_OVER_FF)):
        mean = sum(runs[(n, converged)]["dense_total_cycles"] /
                   runs[(n, "shipped")]["total_cycles"] for n in networks) / len(networks)
        parts.append("over %s %.2f× (paper %.2f×, ratio %s, %s)" % (
            name, mean, paper, ratio_text(mean / paper), target_verdict(mean / paper)))
    w("With the converged baselines and EP's run as above: mean %s. EP's run (a density state "
      "per sample of its schedule: many more searches) stays at the fixed budget; where that "
      "leaves EP's mappings short of converged, these means understate the speed-up by as "
      "much." % "; ".join(parts))
    w("")


def write_windows(w, args, networks, runs, targets):
    """§5.4's two means with every array taking the positions in partial steps (run_windows):
    the readings of FF's kernel update again, and what the option moves per array."""
    def mean_over(baseline_key, ep_key):
        """The mean speed-up of EP's run `ep_key` over the baseline's dense training."""
        return sum(runs[(n, baseline_key)]["dense_total_cycles"] /
                   runs[(n, ep_key)]["total_cycles"] for n in networks) / len(networks)
    w("Positions in partial steps: as run, every array takes the output and filter positions "
      "(P, Q, R, S) in whole factors, because trainloop pads them only when asked "
      "(`engine/nest/padding.hpp`). §5.2's FF counts \"the fewest cycles to complete each "
      "layer\", and a row of 32 PEs over a 13 × 13 map needs ⌈169 / 32⌉ = 6 steps where whole "
      "factors take 13. The same runs with `--imperfect-windows` on every array: trainloop "
      "then pads P and Q each (13 × 13 as 13 × 14 in 7 steps, so still above ⌈positions / "
      "32⌉), and counts the inputs a padded window reaches past the plane's edge as moved "
      "(DRAM is unlimited here, so that changes energy, not cycles). Cycles with the option "
      "over cycles as run, then the speed-ups with it:")
    w("")
    heads = ["reading %d" % n for n in range(1, len(FF_READINGS) + 1)]
    w("| network | EP's run | CX's run | dense on FF | over CX | over FF | %s | %s |" % (
        " | ".join("over FF, %s" % h for h in heads),
        " | ".join("KU, FF / CX: %s" % h for h in heads)))
    w("|---|%s" % ("---:|" * (5 + 2 * len(FF_READINGS))))
    slower = []  # "array on network (ratio)" where the option raised the cycles
    for net in networks:
        ep = runs[(net, "shipped" + WINDOWS)]["total_cycles"]
        cx_ku = runs[(net, "baseline_wu" + WINDOWS)]["dense_total_cycles"]
        moved = [("EP", ep / runs[(net, "shipped")]["total_cycles"]),
                 ("CX", runs[(net, "baseline" + WINDOWS)]["total_cycles"] /
                  runs[(net, "baseline")]["total_cycles"]),
                 ("FF", runs[(net, "flexflow" + WINDOWS)]["dense_total_cycles"] /
                  runs[(net, "flexflow")]["dense_total_cycles"])]
        slower += ["%s on %s (%.3f)" % (array, LABEL.get(net, net), value)
                   for array, value in moved if value > 1]
        cells = ["%.3f" % value for _, value in moved]
        cells += ["%.2f×" % (runs[(net, "baseline" + WINDOWS)]["dense_total_cycles"] / ep),
                  "%.2f×" % (runs[(net, "flexflow" + WINDOWS)]["dense_total_cycles"] / ep)]
        cells += ["%.2f×" % (runs[(net, key + WINDOWS)]["dense_total_cycles"] / ep)
                  for key, _, _ in FF_READINGS]
        cells += ["%.2f" % (runs[(net, key + "_wu" + WINDOWS)]["dense_total_cycles"] / cx_ku)
                  for key, _, _ in FF_READINGS]
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(cells)))
    if slower:
        w("")
        w("Slower with the option: %s. It only adds mappings, so this is the fixed budget's "
          "doing: the same %s evaluations per distinct problem search a larger mapspace (the "
          "search paragraph above)." % ("; ".join(slower), "{:,}".format(args.search.budget)))
    over_cx = mean_over("baseline" + WINDOWS, "shipped" + WINDOWS)
    variants = [("FF as shipped", "flexflow", "FF as shipped")]
    variants += [("FF one sample at a time, KU reading %d" % number, key, "reading %d" % number)
                 for number, (key, _, _) in enumerate(FF_READINGS, 1)]
    label = "positions in partial steps on every array (`--imperfect-windows`)"
    targets.alternative(CLAIM_OVER_CX, "mean", label, over_cx / PAPER_OVER_CX)
    parts, away, toward, spans, both = [], [], [], [], []
    for text, key, short in variants:
        before = mean_over(key, "shipped") / PAPER_OVER_FF
        after = mean_over(key + WINDOWS, "shipped" + WINDOWS) / PAPER_OVER_FF
        if after * PAPER_OVER_FF > over_cx and within_target(after) and \
                within_target(over_cx / PAPER_OVER_CX):
            both.append("%s (%.2f× over CX, %.2f× over FF)" % (
                text, over_cx, after * PAPER_OVER_FF))
        targets.alternative(CLAIM_OVER_FF, "mean", "%s, %s" % (label, text), after)
        parts.append("%s %.2f× (ratio %s, %s; as run %.2f×)" % (
            text, after * PAPER_OVER_FF, ratio_text(after), verdict_words(after),
            before * PAPER_OVER_FF))
        (away if abs(after - 1) > abs(before - 1) else toward).append(short)
        spans.append(after * PAPER_OVER_FF)
    ep_gain = sum(runs[(n, "shipped")]["total_cycles"] / runs[(n, "shipped" + WINDOWS)]
                  ["total_cycles"] for n in networks) / len(networks)
    ff_gain = sum(runs[(n, "flexflow")]["dense_total_cycles"] /
                  runs[(n, "flexflow" + WINDOWS)]["dense_total_cycles"]
                  for n in networks) / len(networks)
    w("")
    w("Means with the option: over CX %.2f× (paper %.2f×, ratio %s, %s; as run %.2f×); over FF "
      "(paper %.2f×): %s. On average the option makes EP's run %.2f× and FF's dense training "
      "%.2f× as fast as run. Further from the paper's figure over FF with it: %s; closer: %s. "
      "The readings of FF then span %.2f× to %.2f×: the paper's %.2f× lies %s."
      % (over_cx, PAPER_OVER_CX, ratio_text(over_cx / PAPER_OVER_CX),
         verdict_words(over_cx / PAPER_OVER_CX), mean_over("baseline", "shipped"),
         PAPER_OVER_FF, "; ".join(parts), ep_gain, ff_gain, ", ".join(away) or "none",
         ", ".join(toward) or "none", min(spans), max(spans), PAPER_OVER_FF,
         "between" if min(spans) < PAPER_OVER_FF < max(spans) else
         "above them all" if PAPER_OVER_FF > max(spans) else "below them all"))
    w("")
    w("The paper's two figures make FF the slower baseline. With the option, both figures "
      "within ±20 %% and in the paper's order: %s." % " or ".join(both) if both else
      "With the option no reading of FF gives both figures within ±20 % in the paper's order.")
    w("")


def scnn_over_ideal(run, dense, phase):
    """A phase's speed on EP's SCNN normalized to the ideal dense case, times the paper's
    factor for the input zeros (SCNN_INPUT_ZEROS_FACTOR): its dense MACs over PES, over the
    cycles taken (`cartesian --arch` totals: on dense operands the used products are the
    MACs)."""
    return (SCNN_INPUT_ZEROS_FACTOR * dense["totals"][phase]["used_products"] / PES /
            run["totals"][phase]["cycles"])


def eq7_utilization(result, phase):
    """EP §4.1, Eq. 7: SCNN's utilization, the MACs the outputs need over the MACs it performs
    (every Cartesian product), in one `cartesian` result's phase."""
    totals = result["totals"][phase]
    return totals["used_products"] / totals["issued_products"]


def phase_cycles(result, phases):
    """The cycles of `phases` in one iteration's result (`map` or `cartesian` totals)."""
    return sum(result["totals"][ph]["cycles"] for ph in phases)


def hybrid_parts(run, runs, net, iterations):
    """Seconds of dense training over the run on §5.4's hybrid, by array: FP and BP on EP's
    SCNN (one iteration's cycles, `run`, at the paper's factor, times the iterations) and KU
    on CX (its dense kernel update over the run), at the clock of CX's run."""
    cx = runs[(net, "baseline_wu")]
    clock_hz = cx["dense_total_cycles"] / cx["dense_total_seconds"]
    scnn = iterations * phase_cycles(run, ("fw", "bw")) / SCNN_INPUT_ZEROS_FACTOR / clock_hz
    return scnn, cx["dense_total_seconds"]


def hybrid_seconds(run, runs, net, iterations, two_arrays):
    """The hybrid's time (hybrid_parts). In one design of §5.2's resources, its parts add: run
    in turn on one array of 2,048 multipliers, or pipelined on the 2,048 split between them
    (at a split f, max(S / f, C / (1 − f)) is least, S + C, at f = S / (S + C), where work
    scales with the multipliers). With two_arrays, each part has a whole array of its own
    and they work at once: the longer part sets the time."""
    scnn, cx = hybrid_parts(run, runs, net, iterations)
    return max(scnn, cx) if two_arrays else scnn + cx


def write_scnn(w, args, cnns, fig20, runs, generator, targets):
    """EP's SCNN baseline (§5.2): Fig. 19's dense and sparse inference, Fig. 21's kernel update
    on GoogLeNet, and §5.4's hybrid of SCNN and CX."""
    w("## EP's SCNN baseline: Fig. 19, Fig. 21 and §5.4's hybrid")
    w("")
    w("Paper (§5.2): \"SCNN is made up of 128 tiles, each unrolling 4 non-zero inputs and 4 "
      "non-zero filter weights ... the tiles are divided into 32 groups and those within each "
      "group share the weights spatially\"; \"the input sparsity is not considered in EP but "
      "SCNN is outstanding for its ability to skip zeros in both weights and inputs. Therefore, "
      "we multiply the performance of SCNN by %d\". trainloop: `%s` (every key cites §5.2 or "
      "SCNN), run as SCNN's own dataflow, `trainloop cartesian --arch` "
      "(docs/cartesian_product.md): each PE multiplies 4 nonzero weights by 4 inputs, all 16 "
      "pairs, unused ones included; a group's 4 PEs split the input plane (SCNN's planar "
      "tiling) and share the group's ⌈filters / 32⌉ filters; the slowest PE sets the pace. "
      "Inputs dense and the pruned weights skipped, as EP's model of SCNN; every figure below "
      "times the paper's %d. The normalization is Fig. 20's: the dense MACs over 2,048 PEs "
      "divided by the cycles taken, one iteration after the last pruning (the masks of Fig. "
      "20(b)), at Table 5's minibatch."
      % (SCNN_INPUT_ZEROS_FACTOR, SCNN_ARCH, SCNN_INPUT_ZEROS_FACTOR))
    w("")
    shipped = SCNN_READINGS[0][0]
    w("| network | dense: FP | sparse: FP | sparse: BP | sparse: KU | "
      + " | ".join("%s: FP dense | FP sparse" % text.split(" (")[0]
                   for _, _, _, text in SCNN_READINGS[1:]) + " |")
    w("|---|" + "---:|" * (4 + 2 * (len(SCNN_READINGS) - 1)))
    over = {}  # (reading, spread, phase) -> [per network]
    for net in cnns:
        cells = []
        for key, _, _, _ in SCNN_READINGS:
            dense = fig20[(net, key, "dense")]
            phases = ("fw", "bw", "wu") if key == shipped else ("fw",)
            for spread in ("dense", "shipped"):
                for ph in phases if spread == "shipped" else ("fw",):
                    value = scnn_over_ideal(fig20[(net, key, spread)], dense, ph)
                    over.setdefault((key, spread, ph), []).append(value)
                    cells.append("%.2f" % value)
        w("| %s | %s |" % (LABEL.get(net, net), " | ".join(cells)))
    cgm = {k: geomean(v) for k, v in over.items()}
    cells = []
    for key, _, _, _ in SCNN_READINGS:
        for spread in ("dense", "shipped"):
            for ph in ("fw", "bw", "wu") if key == shipped and spread == "shipped" else ("fw",):
                cells.append("**%.2f**" % cgm[(key, spread, ph)])
    w("| **CGM** | %s |" % " | ".join(cells))
    w("")
    dense_fw, sparse_fw = cgm[(shipped, "dense", "fw")], cgm[(shipped, "shipped", "fw")]
    targets.add(CLAIM_FIG19_SCNN_DENSE, "CGM", "%.2f" % PAPER_SCNN_DENSE_CGM, "%.2f" % dense_fw,
                dense_fw / PAPER_SCNN_DENSE_CGM)
    targets.add(CLAIM_FIG19_SCNN_SPARSE, "CGM", "%.2f" % PAPER_SCNN_SPARSE_CGM,
                "%.2f" % sparse_fw, sparse_fw / PAPER_SCNN_SPARSE_CGM)
    for key, _, _, text in SCNN_READINGS[1:]:
        targets.alternative(CLAIM_FIG19_SCNN_DENSE, "CGM", text,
                            cgm[(key, "dense", "fw")] / PAPER_SCNN_DENSE_CGM)
        targets.alternative(CLAIM_FIG19_SCNN_SPARSE, "CGM", text,
                            cgm[(key, "shipped", "fw")] / PAPER_SCNN_SPARSE_CGM)
    lowest = sorted(cnns, key=lambda n: over[(shipped, "dense", "fw")][cnns.index(n)])[:3]
    weakest = (" The paper's explanation of SCNN's weakest networks, \"AN, NIN and R32 ... "
               "contain more layers where inputs are significantly larger than outputs\": "
               "trainloop's three lowest in dense inference are %s."
               % ", ".join(LABEL.get(n, n) for n in lowest)) if len(cnns) > 3 else ""
    w("Fig. 19, as shipped: dense inference %.2f (paper %.2f, ratio %s, %s), sparse %.2f "
      "(paper %.2f, ratio %s, %s); direction %s. The paper puts SCNN's and EP's design "
      "close on both (\"the best and similar average performance\"); trainloop's EP gives "
      "%.2f and %.2f (the subsection on Figs. 19 and 20 above). Under the other readings: "
      "%s.%s Where SCNN loses most: a strided convolution's Cartesian products mostly land "
      "between its outputs and are thrown away (a stride of u keeps one in u² on a dense "
      "plane), and a fully connected layer, a 1 × 1 plane, keeps one of a group's 4 PEs "
      "busy."
      % (dense_fw, PAPER_SCNN_DENSE_CGM, ratio_text(dense_fw / PAPER_SCNN_DENSE_CGM),
         target_verdict(dense_fw / PAPER_SCNN_DENSE_CGM), sparse_fw, PAPER_SCNN_SPARSE_CGM,
         ratio_text(sparse_fw / PAPER_SCNN_SPARSE_CGM),
         target_verdict(sparse_fw / PAPER_SCNN_SPARSE_CGM),
         "right (below the ideal dense, above it once pruned)" if dense_fw < 1 < sparse_fw
         else "**wrong**",
         geomean([phase_over_ideal(fig20[(n, args.arch, "dense")], "fw") for n in cnns]),
         geomean([phase_over_ideal(fig20[(n, args.arch, "shipped")], "fw") for n in cnns]),
         "; ".join("%s: dense %.2f (ratio %s), sparse %.2f (ratio %s)" % (
             text, cgm[(key, "dense", "fw")],
             ratio_text(cgm[(key, "dense", "fw")] / PAPER_SCNN_DENSE_CGM),
             cgm[(key, "shipped", "fw")],
             ratio_text(cgm[(key, "shipped", "fw")] / PAPER_SCNN_SPARSE_CGM))
             for key, _, _, text in SCNN_READINGS[1:]), weakest))
    w("")
    if "googlenet" in cnns:
        ku = over[(shipped, "shipped", "wu")][cnns.index("googlenet")]
        fw_googlenet = over[(shipped, "shipped", "fw")][cnns.index("googlenet")]
        targets.add(CLAIM_FIG21_SCNN_KU, "GoogLeNet", "%.2f" % PAPER_SCNN_KU_GOOGLENET,
                    "%.3f" % ku, ku / PAPER_SCNN_KU_GOOGLENET)
        for key, _, _, text in SCNN_READINGS[1:]:
            if key != "scnn_conv_only":  # the kernel update of every layer is the claim's
                value = scnn_over_ideal(fig20[("googlenet", key, "shipped")],
                                        fig20[("googlenet", key, "dense")], "wu")
                targets.alternative(CLAIM_FIG21_SCNN_KU, "GoogLeNet", text,
                                    value / PAPER_SCNN_KU_GOOGLENET)
        w("Fig. 21 (§5.3): SCNN's kernel update when training GoogLeNet with EP is \"nearly 0 "
          "(0.05x)\", because of \"the great gap between the size of inputs and outputs\" "
          "(§4.1). trainloop: %.3f (ratio %s, %s); direction %s: %.1f %% of SCNN's speed in "
          "the forward pass of the same iteration. In KU the kernel gradient is the output: "
          "the Cartesian products of an input plane with an error plane of nearly its size "
          "mostly fall outside the small kernel and are thrown away (the ReSprop thesis's "
          "Table 6.1 measures the same loss; docs/reproductions/resprop.md). EP's pruning "
          "does not help SCNN here: its products follow its operands, the inputs and the "
          "errors, which EP does not prune, so a pruned weight's gradient is computed and "
          "dropped."
          % (ku, ratio_text(ku / PAPER_SCNN_KU_GOOGLENET),
             target_verdict(ku / PAPER_SCNN_KU_GOOGLENET),
             "right (nearly 0)" if ku < 0.1 * fw_googlenet else "**wrong** (not nearly 0)",
             100 * ku / fw_googlenet))
        w("")
        # §4.1, Eq. 7: SCNN's utilization is output size over input size, the MACs needed
        # over the MACs performed: a product count that bounds the bar, whatever the array.
        utilization = eq7_utilization(fig20[("googlenet", shipped, "dense")], "wu")
        bound = SCNN_INPUT_ZEROS_FACTOR * utilization
        w("The paper's own bound: §4.1's Eq. 7 puts SCNN's utilization at output size over "
          "input size, the MACs an output needs over those SCNN performs. On GoogLeNet's "
          "kernel update that is trainloop's used over issued products, %.2f %% (dense, the "
          "same iteration), so with every multiplier busy all the time SCNN reaches %.4f of "
          "the ideal dense at most (the paper's factor of %d included). trainloop's %.3f is "
          "%.0f %% of that bound: what it loses is idle PEs, not a product count of its own. "
          "The paper's %.2f is %.1f× the bound, so its bar did not come from Eq. 7 with these "
          "layers; the paper does not say how SCNN ran KU beyond §4.1 (which only names the "
          "gap), and no reading here reaches it."
          % (100 * utilization, bound, SCNN_INPUT_ZEROS_FACTOR, ku, 100 * ku / bound,
             PAPER_SCNN_KU_GOOGLENET, PAPER_SCNN_KU_GOOGLENET / bound))
        w("")
    w("§5.4's hybrid: \"If a hybrid architecture of SCNN and CX is applied to train by "
      "pipelining each phase, EP still wins by 1.51x.\" trainloop: dense training over the "
      "run with FP and BP on EP's SCNN (one iteration's cycles above, dense, times Table 5's "
      "iterations) and KU on CX (its dense kernel update over the run, the runs of §5.4's "
      "section on FF's kernel update), against EP's run. §5.2 gives every design the same "
      "resources: \"all the designs use at least 2048 DSPs as their PEs and the same data "
      "buffers as in our design\" (SCNN's 128 tiles of 16 multipliers, CX's 128 rows of 16). "
      "A hybrid of those resources either runs each phase in turn on one array that works as "
      "SCNN or as CX, or pipelines the phases (each sample goes through the three phases, "
      "§4.4, so one sample's KU can overlap the next one's FP and BP) on the 2,048 "
      "multipliers split between an SCNN part and a CX part. Either way its time is the sum "
      "of the two parts' times on a whole array: the split that balances the two stages, "
      "f = S / (S + C), takes max(S / f, C / (1 − f)) = S + C where a part's time scales "
      "inversely with its multipliers (a smaller array usually idles less, which would make "
      "the pipelined hybrid somewhat faster and EP's speed-up over it somewhat smaller). The "
      "other reading gives the hybrid two whole arrays, 4,096 multipliers reading the "
      "buffers at once, twice what §5.2 gives any design: the two parts work at once and the "
      "longer sets the time. The LSTM is left out: the Cartesian-product dataflow convolves "
      "planes, and an LSTM cell is neither a convolution nor a fully connected layer.")
    w("")
    w("| network | EP run (s) | SCNN's FP and BP (s) | CX's KU (s) | over the hybrid, "
      "2,048 multipliers | two whole arrays at once | 2,048, bank conflicts unbuffered |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    speedups = {"shared": [], "two_arrays": [], "unbuffered": []}
    scnn_longer = 0
    for net in cnns:
        iterations = generator.TABLE_5[net][0]
        ep = runs[(net, "shipped")]
        scnn, cx = hybrid_parts(fig20[(net, shipped, "dense")], runs, net, iterations)
        scnn_longer += scnn > cx
        for name, key, two_arrays in (("shared", shipped, False),
                                      ("two_arrays", shipped, True),
                                      ("unbuffered", "scnn_unbuffered", False)):
            speedups[name].append(hybrid_seconds(fig20[(net, key, "dense")], runs, net,
                                                 iterations, two_arrays) / ep["total_seconds"])
        w("| %s | %s | %s | %s | %.2f× | %.2f× | %.2f× |"
          % (LABEL.get(net, net), "{:,.0f}".format(ep["total_seconds"]),
             "{:,.0f}".format(scnn), "{:,.0f}".format(cx),
             speedups["shared"][-1], speedups["two_arrays"][-1],
             speedups["unbuffered"][-1]))
    means = {k: sum(v) / len(v) for k, v in speedups.items()}
    targets.add(CLAIM_OVER_HYBRID, "mean", "%.2f×" % PAPER_OVER_HYBRID,
                "%.2f×" % means["shared"], means["shared"] / PAPER_OVER_HYBRID)
    targets.alternative(CLAIM_OVER_HYBRID, "mean", "two whole arrays at once (4,096 "
                        "multipliers)", means["two_arrays"] / PAPER_OVER_HYBRID)
    targets.alternative(CLAIM_OVER_HYBRID, "mean", "bank conflicts unbuffered (the upper bound)",
                        means["unbuffered"] / PAPER_OVER_HYBRID)
    w("")
    w("Mean over the CNNs run: on §5.2's 2,048 multipliers %.2f× (paper 1.51× over its eight "
      "networks; ratio %s, %s; direction %s), with two whole arrays at once %.2f× (ratio %s; "
      "direction %s), on 2,048 with bank conflicts unbuffered %.2f× (ratio %s). The paper's "
      "§5.3 finds \"SCNN works the best in FP/BP and CX works the best in KU\"; here SCNN's FP "
      "and BP take longer than CX's KU on %s of the %d CNNs, so SCNN's part sets the time of "
      "two arrays at once there."
      % (means["shared"], ratio_text(means["shared"] / PAPER_OVER_HYBRID),
         target_verdict(means["shared"] / PAPER_OVER_HYBRID),
         "right (EP faster)" if means["shared"] > 1 else "**wrong**", means["two_arrays"],
         ratio_text(means["two_arrays"] / PAPER_OVER_HYBRID),
         "right (EP faster)" if means["two_arrays"] > 1 else "**wrong**", means["unbuffered"],
         ratio_text(means["unbuffered"] / PAPER_OVER_HYBRID), scnn_longer, len(cnns)))
    w("")
    # §5.3's comparison of the baselines, phase by phase: one dense iteration on EP's SCNN (at
    # the paper's factor) against the same on CX.
    factor = SCNN_INPUT_ZEROS_FACTOR
    fp_bp = sum(1 for n in cnns
                if phase_cycles(fig20[(n, shipped, "dense")], ("fw", "bw")) / factor
                < phase_cycles(fig20[(n, args.baseline, "dense")], ("fw", "bw")))
    ku = sum(1 for n in cnns
             if phase_cycles(fig20[(n, args.baseline, "dense")], ("wu",))
             < phase_cycles(fig20[(n, shipped, "dense")], ("wu",)) / factor)
    w("§5.3's ranking of the baselines by phase, one dense iteration: SCNN's FP and BP take "
      "fewer cycles than CX's on %d of the %d CNNs, and CX's KU fewer than SCNN's on %d (the "
      "paper: SCNN the best in FP and BP, CX in KU)." % (fp_bp, len(cnns), ku))
    w("")


def write_both_claims(w, args, fig20_means, speedup_means):
    """Which reading of CX's rows reproduces which of the two claims about CX."""
    words, rate = DDR4_WHOLE_RUN
    readings = (("one array, every row another output (the spec)", "one array",
                 args.arch, args.baseline),
                ("8 units of 16 rows", "8 units", args.arch, "cx_units"),
                ("one array, both arrays' DRAM at %s" % rate, "one array, " + rate,
                 ddr4_key(args.arch, words), ddr4_key(args.baseline, words)))
    lines = []
    average_ok, direction_ok = [], []
    for text, key, ep_key, cx_key in readings:
        ratio = speedup_means[key] / PAPER_OVER_CX
        within = abs(ratio - 1) <= RC_TOLERANCE
        right = [label for spread, _, label in FILTER_SPREADS
                 if (cx_key, spread) in fig20_means
                 and fig20_means[(ep_key, spread)] > 1 > fig20_means[(cx_key, spread)]]
        if within:
            average_ok.append(key)
        if right:
            direction_ok.append(key)
        lines.append("%s: §5.4's mean %.2f× (ratio %.2f, %s); Fig. 20(b)'s direction %s"
                     % (text, speedup_means[key], ratio,
                        target_verdict(ratio),
                        "right with " + " and ".join(right) if right else "**wrong** under every "
                        "spread tried"))
    both = [key for key in average_ok if key in direction_ok]
    if both:
        verdict = "Both claims hold together with CX as %s." % " or ".join(both)
    elif average_ok and direction_ok:
        verdict = ("The two claims ask for different readings of CX's rows: Fig. 20(b)'s CX "
                   "below the ideal needs rows that each hold another filter and filters that "
                   "kept different shares of their weights (§4.1), while §5.4's 1.91× average, "
                   "over networks with as few as 16 output channels, needs a CX that does not "
                   "leave most of a sub-system's 32 rows empty on them. The paper gives CX's "
                   "per-network cycles for neither, so which reading it simulated cannot be told "
                   "from it.")
    else:
        verdict = "No reading tried reproduces %s." % (
            "either claim" if not (average_ok or direction_ok) else
            "Fig. 20(b)'s direction" if not direction_ok else "§5.4's average")
    w("Both claims about CX at once. " + "; ".join(lines) + ". " + verdict)
    w("")


def write_run_inputs(args):
    """Writes what the runs read into args.work: the profiles (returned: by variant, and by
    filter spread), CX's eight-unit constraints (args.cx_units) and FF's readings."""
    profiles = {v: write_profile(args.work, v, opts) for v, opts, _ in VARIANTS}
    for _, options, _, _, _ in RC_READINGS + RC_BOUNDS:
        key = reading_profile(options)
        if key not in profiles:
            profiles[key] = write_profile(args.work, key, options)
    spread_profiles = {v: (profiles["shipped"] if v == "shipped" else
                           write_profile(args.work, v, opts))
                       for v, opts, _ in FILTER_SPREADS}
    args.cx_units = os.path.join(args.work, "cx_eight_units.yaml")
    with open(args.cx_units, "w") as f:
        f.write(CX_UNITS)
    for key, text, _ in FF_READINGS:
        with open(ff_reading_file(args.work, key), "w") as f:
            f.write(text)
    return profiles, spread_profiles


def run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log):
    """Every run of network `net` (the LSTM's shape variants aside): its whole runs into
    `runs` and, for a CNN, Fig. 20's iterations into `fig20`."""
    iterations, batch = generator.TABLE_5[net][0], generator.TABLE_5[net][1]
    run_network(args, net, iterations, batch, profiles, runs, log)
    if net != "lstm_timit":  # Fig. 20 shows the CNNs
        run_fig20(args, net, iterations, batch, spread_profiles,
                  profiles[reading_profile(["--at-once"])], fig20, log)
        run_fig20_ddr4(args, net, iterations, batch, profiles["shipped"], fig20, log)
        run_fig20_windows(args, net, iterations, batch, profiles["shipped"], fig20, log)
        run_scnn(args, net, iterations, batch, profiles["shipped"], fig20, log)


def replay_network(args, generator, net, stored):
    """Runs every run of `net` again with args.trainloop, in a scratch directory, and returns
    how many it compared and, for each that differs from `stored`, "key: first difference"
    (reproduction_support.first_difference)."""
    runs, fig20 = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        args = argparse.Namespace(**vars(args))  # the caller's args keep their work directory
        args.work = scratch
        profiles, spread_profiles = write_run_inputs(args)
        with open(os.devnull, "w") as log:
            run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log)
    changed, compared = [], 0
    for name, replayed in (("runs", runs), ("fig20", fig20)):
        for key, run in replayed.items():
            compared += 1
            if key not in stored[name]:
                changed.append("%s: not stored" % "|".join(key))
                continue
            difference = first_difference(stored[name][key], slim(run))
            if difference:
                changed.append("%s: %s" % ("|".join(key), difference))
    return compared, changed


def run_everything(args, generator, networks, results_path):
    """Every run the document reads; returns them with the networks that ran, the failures,
    and the wall and CPU seconds. Saves them to `results_path` after each network, so an
    interrupted run keeps what it ran; with --resume, the networks stored there are not run
    again."""
    started = time.time()
    stored = {"networks": [], "failed": {}, "runs": {}, "fig20": {}, "done": [],
              "wall": 0.0, "cpu_seconds": 0.0, "commit": git_commit(),
              "search": args.search.stored(),
              "commands": os.path.relpath(os.path.join(args.work, "commands.txt"), ROOT)}
    if args.resume and os.path.exists(results_path):
        stored = load_results(results_path)
        check_resumable(stored, args, results_path)
    earlier_wall, earlier_cpu = stored["wall"], stored["cpu_seconds"]
    done = stored.setdefault("done", list(stored["networks"]) + list(stored["failed"]))
    runs, fig20, failed = stored["runs"], stored["fig20"], stored["failed"]

    def save():
        stored["networks"] = [n for n in networks if n in done and n not in failed]
        stored["wall"] = earlier_wall + time.time() - started
        stored["cpu_seconds"] = earlier_cpu + children_cpu_seconds()
        stored["date"] = datetime.date.today().isoformat()
        save_results(results_path, stored)

    profiles, spread_profiles = write_run_inputs(args)
    with open(os.path.join(args.work, "commands.txt"), "a" if args.resume else "w") as log:
        for net in networks:
            if net in done:
                continue
            try:
                run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log)
            except RunFailed as e:
                failed[net] = str(e)
                print("%s: %s" % (net, e), file=sys.stderr)
            done.append(net)
            save()
        if "lstm_timit" in networks and "lstm_timit" not in failed and \
                ("lstm_timit", "shape_one_step") not in runs:
            run_lstm_variants(args, generator, runs, log)
    save()
    return stored


def check_resumable(stored, args, results_path):
    """Refuses to resume runs made with another search or another model (exit 2)."""
    search = args.search.stored()
    if stored.get("search") != search:
        print("error: %s: the stored runs searched with %s, this run with %s; run without "
              "--resume, or with the stored search" % (results_path, stored.get("search"),
                                                        search), file=sys.stderr)
        sys.exit(2)
    inputs = ["arch_specs/%s.yaml" % a
              for a in (args.arch, args.baseline, args.flexflow, SCNN_ARCH)] + [
        "workloads", os.path.relpath(GENERATOR, ROOT)]
    refuse_resume_if_model_changed(results_path, stored.get("commit", "unknown"), inputs)


def slim(result):
    """What the document reads of one run's JSON: its scalars, a map's per-phase `totals`
    and, of a sparse map, each layer-phase's effectual MACs (pruning_bound). The per-sample
    tables and the mappings are left out: a network's runs would take megabytes, and
    tests/golden keeps every network's."""
    kept = scalars_and(result, ("totals",))
    layers = result.get("layers", [])
    if any("effectual_macs" in entry for layer in layers
           for entry in layer.get("phases", {}).values()):
        kept["layers"] = [{"phases": {phase: {"effectual_macs": entry["effectual_macs"]}
                                      for phase, entry in layer["phases"].items()}}
                          for layer in layers]
    return kept


def save_results(path, stored):
    """The runs as JSON (tuple keys joined by `|`, each run `slim`), so --report-only
    renders without running."""
    flat = dict(stored)
    for name in ("runs", "fig20"):
        flat[name] = {"|".join(key): slim(value) for key, value in stored[name].items()}
    write_stored_runs(path, flat)


def load_results(path):
    stored = read_stored_runs(path, "run without --report-only first")
    for name in ("runs", "fig20"):
        stored[name] = {tuple(key.split("|")): value for key, value in stored[name].items()}
    return stored


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
    networks, failed = stored["networks"], stored["failed"]
    runs, fig20 = stored["runs"], stored["fig20"]
    wall, cpu_seconds = stored["wall"], stored["cpu_seconds"]
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

    out = []
    w = out.append
    targets = TargetSummary()
    w("# Reproducing Eager Pruning (Zhang et al., ISCA 2019)")
    w("")
    w("Generated by `scripts/reproduce.sh eager_pruning%s` (trainloop commit %s, %s): "
      "do not edit by hand. %.0f s wall, %.0f s CPU on this machine. Every trainloop figure "
      "below is `trainloop train-cost --format json` output, one iteration's `trainloop map`, or, "
      "for the SCNN baseline, `trainloop cartesian` (the commands are in `%s`); the "
      "paper's figures are quoted with their section or table."
      % (args.search.command_suffix(), stored.get("commit", git_commit()),
         stored.get("date", datetime.date.today().isoformat()), wall,
         cpu_seconds,
         # Where the runs logged them, not where they are read from (tests/golden).
         stored.get("commands",
                    os.path.relpath(os.path.join(args.work, "commands.txt"), ROOT))))
    # Runs added to stored ones later, each by its own run of the same code (the golden's
    # README says how).
    for added in stored.get("additions", []):
        out[-1] += (" %s%s were added at trainloop commit %s, %s (the commands are in `%s`)."
                    % (added["what"][0].upper(), added["what"][1:], added["commit"],
                       added["date"], added["commands"]))
    w("")
    w("## Setup")
    w("")
    w("| | paper | trainloop | where |")
    w("|---|---|---|---|")
    w("| pruning schedule | every `prune_interval` iterations the `prune_num` smallest kernel "
      "weights are pruned; pruned weights stay pruned (mask bit) | "
      "`workloads/sparsity/eager_pruning.yaml`, step schedules written by "
      "`workloads/tools/eager_pruning_profile.py` from Table 5 | §3.1, §4.3, Table 5 |")
    w("| where it prunes | convolution layers of CNNs; \"all the weight matrices\" of the LSTM "
      "| the conv layers of each network file; every MAC layer of `lstm_timit` (`w` in fw and "
      "bw) | §5.1 |")
    w("| pruned weights' gradients | not computed (\"the output of KU is sparse\") | `dw` in wu "
      "has the same schedule, a known-zero output mask (`docs/sparse_evaluation.md`) | "
      "§2.2 eq. (1), §4.4 |")
    w("| run length, batch | Table 5 per network | `--iterations`, `--batch` from Table 5 | "
      "Table 5 |")
    w("| when pruning stops | when the smoothed loss says over-pruned (roll-back halves "
      "`prune_num`) | when Table 5's CR is reached (trainloop has no loss) | §3.1 eqs. (4)–(5) |")
    w("| RC | \"the ratio of computation reduced during training\" | `macs_removed_fraction`: "
      "1 − Σ weight × effectual MACs / all MACs of the run, fw + bw + wu of every MAC layer "
      "(`docs/training_run.md`) | Table 5 |")
    w("| architecture | 4 sub-systems × 512 16-bit PEs, DRACT, 4 × 1.5 MB buffers each, 200 MHz "
      "(FPGA prototype) | `arch_specs/%s.yaml` (every key cites §4–5) | §4, §5.2 |" % args.arch)
    w("| baseline | Cambricon-X-like: 128 rows × 16 PEs, 16 PEs per output, the same buffers, "
      "\"unrolling policy and dataflow ... similar as our design\" | `arch_specs/%s.yaml`: EP's "
      "buffers, collectors and dataflow, each sub-system's 512 PEs as 32 rows of 16 on the "
      "phase's outputs, a row's PEs fed its filter's nonzero weights (`line_indexing` along "
      "the rows) | §4.1, §5.2 |" % args.baseline)
    w("| second baseline | FlexFlow: 64 rows × 32 PEs, outputs unrolled on the rows, input "
      "maps and filters across each row, unrolling factors 1–64, same buffers, dense | "
      "`arch_specs/%s.yaml` (the rows and columns as spatial constraints; BP's and KU's "
      "unrolling, which §5.2 does not give, assumed alike: the phase's outputs on the rows) | "
      "§5.2 |" % args.flexflow)
    w("| energy | not given per action (FPGA power, §5.5) | `default_45nm` library (Horowitz "
      "45 nm; int16 MAC scaled from its 32-bit figures) | — |")
    w("| mapping | \"each layer ... mapped to the prototype architectures individually\"; for "
      "FlexFlow \"we sum up the fewest cycles to complete each layer\" | %s; the runs that "
      "only give an RC (assumption rows, LSTM shapes): %s (the RC does not depend on the "
      "mapping); the baselines' dense training once more until converged, to show how far "
      "the budget leaves them (§5.4's section); a count of samples or channels (N, K, C, G) "
      "the array's rows or groups do not divide is taken in partial steps "
      "(`--imperfect-factors`), the positions (P, Q, R, S) in whole factors, and in partial "
      "steps as well in §5.4's paragraph on positions (`--imperfect-windows`) | §5.2 |"
      % (args.search, MACS_ONLY))
    w("| sub-systems | \"the resources are evenly partitioned into four sub-systems to "
      "calculate four groups of input feature maps\" | the spec's `constraints:` put the "
      "phase's input channels across the four sub-systems, side by side (C in FP and KU, the "
      "error's K in BP) | §5.2, §5.3 |")
    w("| dataflow | FP and BP: \"the filters are always completely unrolled\", Pin input and "
      "Pof output maps, \"only one output of a feature map is generated each cycle\"; KU: "
      "\"the outputs within a feature map\" unrolled, the errors duplicated to them; \"each "
      "sample goes through the three phases\" | the spec's `constraints:` per phase: within "
      "a sub-system R, S, C and K (FP, BP), dw's R, S and K with the errors' P and Q (KU); "
      "the samples only off chip; the phase's output kept in the output buffer, its input in "
      "the input pool; CX the same | §4.4, Fig. 17 |")
    w("| output collectors | 32 per sub-system; the outputs made at once are at most the "
      "collectors | the `dract` network delivers 32 words per cycle per sub-system (both "
      "arrays) | §4.3, §4.4 eq. (10), §5.2 |")
    w("| third baseline | SCNN: 128 tiles of 4 × 4 multipliers in 32 groups that share weights; "
      "input zeros not modelled, its performance doubled instead | `arch_specs/%s.yaml` "
      "run as SCNN's Cartesian-product dataflow (`trainloop cartesian --arch`, "
      "`docs/cartesian_product.md`): a group's 4 PEs split the input plane, the groups the "
      "filters; every SCNN figure times %d | §5.2 |" % (SCNN_ARCH, SCNN_INPUT_ZEROS_FACTOR))
    w("| what a loop nest cannot give | DRACT loads any filters' nonzero weights into "
      "consecutive PEs; CX's indexing module feeds a row \"the next\" 16 weights of its "
      "filter | in sparse layers the balancing schemes spread the nonzeros of the waves a "
      "sub-system (EP) or a row (CX) runs as one over the PEs the mapping uses; dense layers, "
      "and PEs a mapping leaves idle, are the loop nest's: a filter whose taps and channels "
      "do not divide into a row's 16 PEs leaves some idle (LeNet's 5 × 5 single-channel "
      "filters use 5 of 16), where CX would feed them the next weights | §4.1–4.2 |")
    w("")
    summary_at = len(out)  # the summary of the targets goes here, once every section is done
    w("## Targets: Table 5's reduced computation (RC)")
    w("")
    w("| network | iterations | batch | CR | RC: paper | trainloop | ratio | target | met |")
    w("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for net in networks:
        iterations, batch, _, _, cr, rc = generator.TABLE_5[net]
        ours = runs[(net, "shipped")]["macs_removed_fraction"]
        ratio = ours / (rc / 100)
        targets.add(CLAIM_RC, LABEL.get(net, net), "%.2f %%" % rc, pct(ours), ratio)
        met = abs(ratio - 1) <= RC_TOLERANCE
        w("| %s | %s | %d | %.2f× | %.2f %% | %s | %.2f | ±%d %% | %s |"
          % (LABEL.get(net, net), "{:,}".format(iterations), batch, cr, rc, pct(ours), ratio,
             100 * RC_TOLERANCE, "yes" if met else "**no**"))
    late = []
    for net in networks:
        iterations, _, prune_num, interval, _, _ = generator.TABLE_5[net]
        last = last_pruning(generator, net)
        if last >= iterations:
            late.append("%s: Table 5's CR needs pruning until iteration %s, after the run's %s "
                        "iterations end (prune_num %d every %d iterations over %s pruned weights), "
                        "so the run ends far denser than CR" % (
                            LABEL.get(net, net), "{:,}".format(last), "{:,}".format(iterations),
                            prune_num, interval, "{:,}".format(pruned_weights(generator, net))))
    # Runs stored before the readings were added render without them.
    readings = all((n, r[0]) in runs for n in networks for r in RC_READINGS + RC_BOUNDS)
    if late:
        w("")
        w("Where a target is missed: " + "; ".join(late) + ". " +
          ("The next section measures the paper's other readings of its schedule and its RC."
           if readings else "EP probably prunes more than the conv layers there, or by more "
           "per step; the paper does not say."))
    if readings:
        write_rc_readings(w, networks, runs, generator, targets)
    missing = [n for n in generator.ORDER if n not in networks and n not in failed]
    if missing:
        w("")
        w("Not run (no network file yet): %s." % ", ".join(missing))
    w("")
    w("## Assumptions where the paper is silent, and how far they move the RC")
    w("")
    w("Each row regenerates the profile with one option of the generator and reruns every "
      "network.")
    w("")
    w("| assumption | " + " | ".join(LABEL.get(n, n) for n in networks) + " |")
    w("|---|" + "---:|" * len(networks))
    for variant, _, text in VARIANTS:
        w("| %s | %s |" % (text, " | ".join(pct(runs[(n, variant)]["macs_removed_fraction"])
                                            for n in networks)))
    w("")
    mask_share = ", ".join(
        "%s %.1f of %.1f points" % (LABEL.get(n, n),
                                    100 * (runs[(n, "shipped")]["macs_removed_fraction"] -
                                           runs[(n, "no_mask")]["macs_removed_fraction"]),
                                    100 * runs[(n, "shipped")]["macs_removed_fraction"])
        for n in networks)
    w("The last row is what a model without the weight-update mask gives: skipping the "
      "pruned weights' gradients is " + mask_share + " of the RC. The denominator is every "
      "MAC of the run, fully connected layers included (EP prunes only convolutions in CNNs, §5.1; "
      "the paper does not say which MACs its RC counts). The roll-backs EP makes when its loss "
      "says it over-pruned (§3.1) are not modelled — trainloop has no loss — and they are the "
      "largest uncertainty: each halves `prune_num` from then on, and the paper does not say "
      "how many happened.")
    if ("lstm_timit", "shape_shipped") in runs:
        write_lstm_section(w, runs, generator)
    w("")
    w("## §5.4: whole-run speed-up over the Cambricon-X-like and FlexFlow baselines")
    w("")
    w("Paper: \"an average of 1.91x ... speedup over CX\" — EP training on EP's architecture "
      "against dense training on CX, end to end (§5.4, Fig. 22; the average is over its eight "
      "networks). trainloop: `total_cycles` of the EP run on `%s` against "
      "`dense_total_cycles` of the same run on `%s` (dense training there), both over Table "
      "5's iterations. CX's rows as the spec gives them (every row another output) "
      "and, the other reading of §5.2, as %s (`--constraints`, the file in the work "
      "directory)." % (args.arch, args.baseline, CX_UNITS_TEXT))
    w("")
    w("| network | EP run (s at 200 MHz) | dense on CX (s) | speed-up: trainloop | speed-up, CX "
      "as 8 units | sparse vs dense on EP | sparse vs dense on CX | dense training: CX / EP | "
      "CX as 8 units / EP |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    speedups = []
    unit_speedups = []
    for net in networks:
        ep, cx = runs[(net, "shipped")], runs[(net, "baseline")]
        units = runs[(net, "baseline_units")]
        speedup = cx["dense_total_cycles"] / ep["total_cycles"]
        speedups.append(speedup)
        unit_speedups.append(units["dense_total_cycles"] / ep["total_cycles"])
        w("| %s | %s | %s | %.2f× | %.2f× | %.2f× | %.2f× | %.2f | %.2f |"
          % (LABEL.get(net, net), "{:,.0f}".format(ep["total_seconds"]),
             "{:,.0f}".format(cx["dense_total_seconds"]), speedup, unit_speedups[-1],
             ep["speedup"], cx["speedup"], cx["dense_total_cycles"] / ep["dense_total_cycles"],
             units["dense_total_cycles"] / ep["dense_total_cycles"]))
    mean = sum(speedups) / len(speedups)
    unit_mean = sum(unit_speedups) / len(unit_speedups)
    w("")
    w("Mean over the networks run: %.2f× with CX's rows as the spec gives them (paper 1.91× "
      "over eight networks; ratio %.2f), %.2f× with CX as %s (ratio %.2f). Direction: %s. "
      "Where every row of a sub-system must hold another output, a layer with fewer than 32 "
      "(LeNet's conv1 with 20 filters; ResNet-32's first stage, 16) leaves rows empty in dense "
      "training; as two 16-row units per sub-system on two samples, each unit needs only 16. "
      "Over the whole run, "
      "pruned training gains %s on EP and %s on CX against dense training on the same array "
      "(the shipped, uniform profile; Fig. 20 below shows one iteration and how the spread "
      "of the pruning over the filters moves CX). Energy is not compared: these runs map for "
      "the fewest cycles, and at those mappings energy is whatever the fastest mapping found "
      "costs (the `latency` objective keeps the cheapest only among mappings that tie on "
      "cycles, which dense training's mappings often do and sparse training's, whose cycles "
      "the load imbalance sets, rarely; README, \"Sparse training\"), while the paper's "
      "energy figures (§5.5) are against GPUs, which trainloop does not model."
      % (mean, mean / PAPER_OVER_CX, unit_mean, CX_UNITS_TEXT, unit_mean / PAPER_OVER_CX,
         "right (EP faster)" if min(mean, unit_mean) > 1 else "**wrong**",
         ", ".join("%.2f×" % runs[(n, "shipped")]["speedup"] for n in networks),
         ", ".join("%.2f×" % runs[(n, "baseline")]["speedup"] for n in networks)))
    w("")
    words, rate = DDR4_WHOLE_RUN
    ddr4_speedups = [runs[(n, ddr4_key(args.baseline, words))]["dense_total_cycles"] /
                     runs[(n, ddr4_key(args.arch, words))]["total_cycles"] for n in networks]
    ddr4_mean = sum(ddr4_speedups) / len(ddr4_speedups)
    w("With both arrays' DRAM at %s (the prototype's DDR4, the subsection of that name under "
      "Fig. 20; the faster of its two rates, the optimistic end — whole runs at the slower "
      "were not made), CX's rows as the spec gives them: %s; mean %.2f× (paper 1.91×, ratio "
      "%.2f, %s): a limited DRAM slows dense training on CX as well as EP's pruned run."
      % (rate, ", ".join("%s %.2f×" % (LABEL.get(n, n), v)
                         for n, v in zip(networks, ddr4_speedups)),
         ddr4_mean, ddr4_mean / PAPER_OVER_CX, target_verdict(ddr4_mean / PAPER_OVER_CX)))
    w("")
    targets.add(CLAIM_OVER_CX, "mean", "%.2f×" % PAPER_OVER_CX, "%.2f×" % mean,
                mean / PAPER_OVER_CX)
    targets.alternative(CLAIM_OVER_CX, "mean", "CX as %s" % CX_UNITS_TEXT,
                        unit_mean / PAPER_OVER_CX)
    targets.alternative(CLAIM_OVER_CX, "mean", "both DRAMs at %s" % rate,
                        ddr4_mean / PAPER_OVER_CX)
    # The mean speed-up over CX per reading of CX's rows (the two sections below read it).
    speedup_means = {"one array": mean, "8 units": unit_mean, "one array, " + rate: ddr4_mean}
    write_over_flexflow(w, args, networks, runs, speedup_means, targets)
    w("")
    write_lstm_filter_buffer(w, networks, runs, targets)
    w("What separates the two architectures here is what §4.1 says: CX's fixed 16 PEs per "
      "output idle when a filter has fewer nonzeros (`line_indexing`: a row's PEs take its "
      "own filter's nonzeros, and the rows wait for the busiest), EP's ungrouped "
      "PEs do not (`flexible_allocation`), at the price of DRACT's pipeline fill (⌈log2 PEs⌉ "
      "cycles per layer-phase) and its path gates' area (2,044 adders, a lower bound). The "
      "FPGA's real clock-for-clock overheads (selector delays, routing) are not published. "
      "Dense training on the two arrays (the column \"dense training: CX / EP\") differs "
      "only by how EP's 512 PEs per sub-system and CX's 32 rows of 16 take each layer's "
      "mapping: both have 2,048 PEs, the same buffers, collectors and dataflow (§5.2). "
      "Each mapping is the fewest-cycles one the search (%s) "
      "finds; a search that stops far from it makes the two arrays differ by the search's "
      "luck, not by their design: this document as of commit 9786ffb, made with a random "
      "search of 200 evaluations per problem and EDP as the objective, shows how far apart "
      "that left the two arrays' dense training and the mean speed-up." % args.search)
    w("")
    write_search_reach(w, args, networks, runs)
    write_windows(w, args, networks, runs, targets)
    cnns = [n for n in networks if (n, args.arch, "dense") in fig20]
    if cnns:
        means = write_fig20(w, args, cnns, fig20, targets)
        write_phases_over_ideal(w, args, cnns, fig20, targets)
        write_ddr4(w, args, cnns, fig20, targets)
        write_fig20_windows(w, args, cnns, fig20, targets)
        write_fig20_run_average(w, cnns, runs, targets)
        for arch in (args.arch, args.baseline):
            key = ddr4_key(arch, DDR4_WHOLE_RUN[0])
            means[(key, "shipped")] = geomean([over_ideal(fig20[(n, key, "shipped")])
                                               for n in cnns])
        write_both_claims(w, args, means, speedup_means)
        if all((n, SCNN_READINGS[0][0], "dense") in fig20 for n in cnns):
            write_scnn(w, args, cnns, fig20, runs, generator, targets)
    w("## Not reproduced yet")
    w("")
    for net, error in failed.items():
        w("- %s: train-cost fails on `%s` or `%s` (to fix in the engine): `%s`"
          % (LABEL.get(net, net), args.arch, args.baseline, error))
    w("- The other accelerators of Figs. 19–22 (ScaleDeep, ESE; §5.2): EP's design and the "
      "CX, FlexFlow and SCNN baselines are the shipped specs; FlexFlow only in §5.4's whole "
      "runs, not in Figs. 19–20; the LSTM not on SCNN (the hybrid's mean is over the CNNs).")
    w("- Energy efficiency (§5.5, Fig. 23: 1.46× over CX, 3.10× to 9.66× over GPUs) and "
      "Fig. 24's latency under power budgets: measured FPGA and GPU power (WattsUp); "
      "trainloop models no GPU, and the paper gives no energy per action of its FPGA.")
    w("- Fig. 21's per-phase breakdown of GoogLeNet's training, apart from SCNN's kernel "
      "update: a chart without figures in the text (the subsection on Figs. 19 and 20 above "
      "infers what EP's BP and KU must cost from the figures the text gives).")
    w("- Accuracy (Table 5's validation accuracies) and the loss-driven roll-backs of §3.1: "
      "trainloop models cost, not convergence.")
    out[summary_at:summary_at] = [
        "## Targets at a glance", "",
        "Each figure of the paper this document compares, as shipped (the setup above), and "
        "the ratio it takes under each sourced alternative a section below states and measures "
        "(an assumption where the paper is silent, with its source there). The sections give "
        "each figure's direction and what is left unexplained.", ""] + \
        targets.lines("the sections below") + [""]
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote %s" % os.path.relpath(args.out, ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
