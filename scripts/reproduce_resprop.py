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
     from `trainloop cartesian --format json` (engine/eval/cartesian_product.hpp).
  5. §6.5 and §7.5.4 (Fig. 7.4): GSCN's predictor makes the weight-gradient
     convolution about 2x faster; §8: GSCN is 6x and 5.5x faster than SCNN on
     ResNet-18 and ResNet-34 back-propagation, at the thesis's sizes (GSCN 4 tiles
     of 64 PEs, SCNN 64 PEs: `cartesian --tiles`) and on arrays of equal size. Also
     from `trainloop cartesian`, which also gives Table 7.8's ratio for GSCN as a
     Cartesian-product array.

Every assumption where the thesis is silent is one option of the profile
generator (workloads/tools/resprop_profile.py) and gets its own rows.

    scripts/reproduce.sh resprop [--budget N] [--work DIR] [--out FILE]
"""

import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reproduction_support import (  # noqa: E402
    ROOT, MACS_ONLY, Search, add_search_options, arch_with_dram_bandwidth, network_names,
    children_cpu_seconds, first_difference, git_commit, load_module, read_stored_runs,
    report_replay, require_trainloop, ratio_text, scalars_and, search_from, shipped_networks,
    TargetSummary, target_verdict, TARGET_TOLERANCE, within_target, write_spec_variant,
    write_stored_runs)
GENERATOR = os.path.join(ROOT, "workloads", "tools", "resprop_profile.py")
sys.path.insert(0, os.path.join(ROOT, "workloads", "tools"))
import count_networks  # noqa: E402

LABEL = {"resnet18": "ResNet-18", "resnet34": "ResNet-34", "vgg16": "VGG-16",
         "wrn_50_2": "WRN-50-2"}
# Table 7.8 (ImageNet, 90 % reuse-sparsity): theoretical, GSCN+Baseline, GSCN+ReSprop;
# the last two are speed-ups over a GTX 1080 Ti GPU on the back-propagation convolutions.
TABLE_7_8 = {"resnet18": (9.83, 1.32, 8.6), "resnet34": (9.68, 1.81, 8.01),
             "vgg16": (9.34, 1.27, 7.21)}
NETWORKS = ["resnet18", "resnet34", "vgg16", "wrn_50_2"]
# A public measurement of the GTX 1080 Ti Table 7.8 compares with: the whole backward pass
# at minibatch 16, cuDNN 5.1.10, Torch (github.com/jcjohnson/cnn-benchmarks, README: the
# "Backward (ms)" column of each network's GTX 1080 Ti row), in ms.
GPU_BACKWARD_MS = {"resnet18": 22.34, "resnet34": 34.60, "vgg16": 86.91}
GPU_BENCHMARK_BATCH = 16
# Table 6.1: unused Cartesian products (all 4 x 4 products unused) of SCNN's weight-gradient
# convolution, 64 PEs, F = I = 4 (§6.3.1).
TABLE_6_1 = {"resnet18": 64.91, "resnet34": 69.6}
SCNN_PES, SCNN_VECTORS, SCNN_BANKS = "8x8", "4x4", 32  # §6.3.1 (64 PEs, 4x4); SCNN A = 2.F.I
# §6.5 and §7.5.4 (Fig. 7.4): "adding predictor has made gradient of weight calculation about
# 2x faster"; §8: GSCN over SCNN on back-propagation with ReSprop.
PREDICTOR_SPEEDUP = 2.0
GSCN_OVER_SCNN = {"resnet18": 6.0, "resnet34": 5.5}
# §8, the sentence after: "It also achieves 8.7x and 7.1x speedup compared to the GTX 1080 Ti
# GPU" (ResNet-18, ResNet-34; with ReSprop, Fig. 7.4), the GPU of Table 7.8's rows.
GSCN_OVER_GPU_S8 = {"resnet18": 8.7, "resnet34": 7.1}
# Table 7.9: GSCN repeats its 8x8 PEs in 4 tiles, each with different samples (§6.5); the
# thesis's SCNN has "in total 64 PEs" (§6.3.1), as SCNN's own design (Parashar et al. 2017).
GSCN_TILES, SCNN_TILES = 4, 1
WHOLE_RUN = (2.5, 3.0, 2.7)  # §7.5.3: 2.5x to 3.0x, on average 2.7x (ImageNet, 90 % RS)
TOLERANCE = TARGET_TOLERANCE
GSCN_BATCH = 64              # §7.2: GSCN computes back-propagation for a mini-batch of 64
TRAIN_BATCH = 256            # §7.2: ImageNet, total mini-batch 256
DATAFLOW = "KQ,N"            # filters and input positions across a tile, samples across tiles
# How far the mapping moves the GSCN figures: filters alone across a tile, and the mapper's choice.
OTHER_DATAFLOWS = ["K,N", "any"]

# How dense SpHG is in the authors' released implementation (github.com/negargoli/ReSprop,
# main.py and models/ReSprop_conv.py): `--sparsity` (default 10, "Percentage of reuse-sparsity")
# plus a 5 % margin is the percentage of SpHG's elements each layer's threshold steers to be
# nonzero, so the default aims at 15 % nonzeros; the thesis states 90 % reuse-sparsity.
RELEASED_CODE_DENSITY = 0.15

# Profiles: (name, generator options, what it assumes).
PROFILES = {
    "steady": (["--warmup-epochs", "0"], "90 % reuse-sparsity from the first iteration"),
    "shipped": ([], "as shipped: W-ReSprop, 5 warm-up epochs"),
    "warmup8": (["--warmup-epochs", "8"], "8 warm-up epochs (§7.2: 5 to 8)"),
    "steady_fc": (["--warmup-epochs", "0", "--include-fc"],
                  "90 % RS in the fully connected layers too"),
    "steady_x50": (["--warmup-epochs", "0", "--activation-density", "0.5"],
                   "90 % RS, input activations at density 0.5"),
    "standard_x50": (["--reuse-sparsity", "0", "--activation-density", "0.5"],
                     "standard training, input activations at density 0.5"),
    "standard_x50_relu": (["--reuse-sparsity", "0", "--activation-density", "0.5",
                           "--relu-masked-dy"],
                          "standard training, activations at 0.5, dy ReLU-masked where no "
                          "batch normalization"),
    "steady_cv05": (["--warmup-epochs", "0", "--dy-cluster-cv", "0.5"],
                    "90 % RS, SpHG's density per output channel with cv 0.5"),
    "steady_cv10": (["--warmup-epochs", "0", "--dy-cluster-cv", "1.0"],
                    "90 % RS, SpHG's density per output channel with cv 1.0"),
    "steady_code": (["--warmup-epochs", "0",
                     "--reuse-sparsity", "%g" % (1 - RELEASED_CODE_DENSITY)],
                    "SpHG as dense as the released implementation's default aims"),
}
# GSCN's DRAM bandwidth, which the thesis does not give (the shipped spec: unlimited), in 16-bit
# words per cycle, each way (False) or reads and writes on one bus (True): at SCNN's 1 GHz, 128,
# 64 and 32 GB/s each way; and the DRAM of DNNsim's OnChipCycles task for SCNN (8 Nov to
# 14 Dec 2019; from 13 Nov DRAMSim2 with 2 channels of 64 bits, double data rate, ticked once
# per accelerator cycle, so 2 · 64 · 2 = 256 bits = 16 words per cycle shared;
# github.com/isakedo/DNNsim 7d44be5..3f329c3, main.cpp and DRAMSim2/system.ini).
DNNSIM_DRAM = (16, True)
DRAM_BANDWIDTHS = [(64, False), (32, False), (16, False), DNNSIM_DRAM]
# Where SpHG's nonzeros lie (the thesis gives no distribution): cv of the per-channel density.
CLUSTER_CVS = [("steady_cv05", 0.5), ("steady_cv10", 1.0)]


# The claims of the summary after the setup (TargetSummary), one name each.
CLAIM_THEORY = "Table 7.8: theoretical back-propagation speed-up"
CLAIM_GSCN = "Table 7.8: GSCN+ReSprop over GSCN+Baseline"
CLAIM_WHOLE = "§7.5.3: whole-training speed-up (mean 2.7×)"
CLAIM_UNUSED = "Table 6.1: all-unused Cartesian products"
CLAIM_PREDICTOR = "§6.5, §7.5.4: the predictor's weight-gradient speed-up"
CLAIM_SCNN = "§8: GSCN over SCNN"


def scnn_variant(gscn_spec, sample_tiles, work):
    """SCNN's array (planar tiling, no predictor, thesis §6.3) in a copy of the GSCN spec
    file `gscn_spec` (its DRAM, buffers and components), with `sample_tiles` grids of 64 PEs
    (the PE array's rows follow, as the parser requires); written under `work`."""
    with open(gscn_spec) as f:
        spec = f.read()
    for old, new in (("  tiling: split_filters", "  tiling: planar"),
                     ("  predictor: true", "  predictor: false"),
                     ("  sample_tiles: %d" % GSCN_TILES, "  sample_tiles: %d" % sample_tiles),
                     ("  rows: %d " % GSCN_TILES, "  rows: %d " % sample_tiles)):
        assert old in spec, "%s: no `%s` to change" % (gscn_spec, old)
        spec = spec.replace(old, new, 1)
    name = os.path.splitext(os.path.basename(gscn_spec))[0]
    path = os.path.join(work, "%s_scnn%d.yaml" % (name, sample_tiles))
    with open(path, "w") as f:
        f.write(spec)
    return path


def dram_label(bandwidth):
    """A DRAM_BANDWIDTHS entry as a column heading."""
    words, shared = bandwidth
    return ("%d words per cycle, reads and writes together (DNNsim)" % words if shared
            else "%d words per cycle" % words)


def load_generator():
    return load_module("resprop_profile", GENERATOR)


# What a run stores in WORK/results.json besides its runs' JSON, and --report-only reads.
STORED_KEYS = ("commit", "date", "wall_seconds", "cpu_seconds", "search", "networks",
               "commands", "runs")


class Runner:
    """Runs trainloop subcommands and keeps each one's JSON (`recorded`, by `key`), so
    the document can be rendered again from them; or, given `stored` runs, returns those
    instead of running anything (--report-only)."""

    def __init__(self, trainloop, search, log, work, stored=None, replay=None):
        self.trainloop, self.search, self.log, self.work = trainloop, search, log, work
        self.stored = stored
        self.recorded = {}
        # --replay: the stored runs whose key this pattern finds are run again and compared.
        self.replay = replay
        self.replayed, self.changed = 0, []  # [(key, first difference)]

    def key(self, command):
        """The command without the binary, its paths relative to WORK and the checkout: the
        same run has the same key wherever the work directory and the checkout are."""
        def relative(argument):
            for prefix, name in ((self.work, "WORK"), (ROOT, "ROOT")):
                if argument.startswith(prefix + os.sep):
                    return name + argument[len(prefix):]
            return argument
        return " ".join(relative(a) for a in command[1:])

    def train_cost(self, arch, network, batch, profile, iterations, phase, dataflow=DATAFLOW,
                   search=None, evaluator=None):
        """evaluator "cartesian": GSCN's own dataflow from the spec's cartesian_product
        section (docs/cartesian_product.md), no search; None: loop-nest mappings searched."""
        command = [self.trainloop, "train-cost", "--arch", arch, "--workload", network,
                   "--batch", str(batch), "--phase", phase, "--sparsity", profile,
                   "--iterations", str(iterations)]
        if evaluator:
            command += ["--evaluator", evaluator]
        else:
            command += ["--dataflow", dataflow] + (search or self.search).options() + [
                "--seed", "1"]
        return self.run(command + ["--format", "json", "--quiet"])


    def cartesian(self, network, rule, pes=SCNN_PES, vectors=SCNN_VECTORS):
        # Batch 1: every count scales with the batch, the shares do not.
        command = [self.trainloop, "cartesian", "--workload", network, "--batch", "1",
                   "--phase", "wu", "--pes", pes, "--vectors", vectors, "--banks",
                   str(SCNN_BANKS), "--unused-rule", rule, "--format", "json"]
        return self.run(command)


    def cartesian_cycles(self, network, tiling, predictor, profile, batch=1, tiles=1,
                         zeros="expected"):
        """Every phase's Cartesian-product cycles (`totals`) on GSCN's or SCNN's array
        (Table 7.9: 64 PEs a tile, 4x4, 32 banks) with `tiles` tiles taking different
        samples; profile None: dense operands; `zeros`: `cartesian --zeros`."""
        command = [self.trainloop, "cartesian", "--workload", network, "--batch", str(batch),
                   "--pes", SCNN_PES, "--tiles", str(tiles), "--vectors", SCNN_VECTORS,
                   "--banks", str(SCNN_BANKS), "--tiling", tiling, "--format", "json"]
        command += ["--predictor"] if predictor else []
        command += ["--sparsity", profile] if profile else []
        command += ["--zeros", zeros] if zeros != "expected" else []
        return self.run(command)["totals"]

    def cartesian_on(self, arch, network, profile, batch):
        """Every phase's priced totals (`cycles`, energy) of `cartesian --arch`: the array
        and its pricing from the spec file `arch`'s `cartesian_product:` section."""
        return self.run([self.trainloop, "cartesian", "--workload", network, "--batch",
                         str(batch), "--arch", arch, "--sparsity", profile, "--format",
                         "json"])["totals"]

    def run(self, command):
        """Logs `command` (a trainloop subcommand printing JSON), runs it and returns its
        JSON; a failure ends the script with its output. With stored runs: their JSON for
        this command; a command they lack ends the script (exit 2) naming it."""
        key = self.key(command)
        if self.stored is not None:
            if key not in self.stored:
                print("error: the stored runs lack `trainloop %s`; run the script without "
                      "--report-only" % key, file=sys.stderr)
                sys.exit(2)
            if self.replay and self.replay.search(key):
                self.replay_one(key, command)
            return self.stored[key]
        self.log.write(" ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c
                                for c in command) + "\n")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("%s failed (%d): %s\n%s" % (command[1], done.returncode, " ".join(command),
                                                 done.stdout + done.stderr))
        result = json.loads(done.stdout)
        self.recorded[key] = scalars_and(result, ("totals",))
        return result

    def replay_one(self, key, command):
        """Runs the stored run `key` again with this binary and notes where it differs."""
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            difference = "exit %d: %s" % (done.returncode, (done.stdout + done.stderr).strip())
        else:
            difference = first_difference(self.stored[key],
                                          scalars_and(json.loads(done.stdout), ("totals",)))
        self.replayed += 1
        if difference:
            self.changed.append((key, difference))


def write_scnn_per_convolution(w, networks, cp_cycles):
    """§8's GSCN over SCNN per back-propagation convolution (equal arrays, with ReSprop), and
    the share of SCNN's cycles in the weight gradient at which those two speed-ups would give
    the thesis's figure (a speed-up over bw + wu is the cycle-weighted harmonic mean of the
    two: 1/total = (1 − f)/bw + f/wu, f the weight gradient's share of SCNN's cycles)."""
    cells, between = [], []
    for net in networks:
        scnn, gscn = cp_cycles[(net, "scnn", "steady")], cp_cycles[(net, "gscn", "steady")]
        bw = backprop_cycles(scnn, ("bw",)) / backprop_cycles(gscn, ("bw",))
        wu = backprop_cycles(scnn, ("wu",)) / backprop_cycles(gscn, ("wu",))
        share = backprop_cycles(scnn, ("wu",)) / backprop_cycles(scnn)
        text = ("%s: input gradient %.2f×, weight gradient %.2f×, the weight gradient %.1f %% "
                "of SCNN's cycles" % (LABEL[net], bw, wu, 100 * share))
        paper = GSCN_OVER_SCNN.get(net)
        if paper and min(bw, wu) < paper < max(bw, wu):
            between.append(net)
            needed = (1 / paper - 1 / bw) / (1 / wu - 1 / bw)
            text += " (the thesis's %g× would need %.1f %%)" % (paper, 100 * needed)
        cells.append(text)
    w("Per convolution, with arrays of equal size and ReSprop: %s.%s The thesis's text states "
      "neither the split nor the per-convolution speed-ups over SCNN (Fig. 7.4 plots its "
      "speed-ups; their values are not given)." % (
          "; ".join(cells),
          " At equal size the thesis's figures lie between the two convolutions' speed-ups "
          "for %s, so how its SCNN's cycles split between them would set the figure as much "
          "as either speed-up does." % and_list([LABEL[n] for n in between])
          if between else ""))
    w("")


def model_ratio(cp_cycles, net, gscn="gscn_tiles", scnn="scnn_64", name="steady"):
    """Standard training on GSCN over SCNN with ReSprop (profile `name`), bw + wu cycles, the
    Cartesian-product evaluator: at the thesis's sizes unless the designs are given."""
    return (backprop_cycles(cp_cycles[(net, gscn, "dense")]) /
            backprop_cycles(cp_cycles[(net, scnn, name)]))


def model_gain(cp_cycles, net, name="steady"):
    """ReSprop's gain on GSCN at the thesis's size (profile `name`): standard training's bw +
    wu cycles over ReSprop's, the Cartesian-product evaluator."""
    return (backprop_cycles(cp_cycles[(net, "gscn_tiles", "dense")]) /
            backprop_cycles(cp_cycles[(net, "gscn_tiles", name)]))


def thesis_sizes_agree(cp_cycles, net):
    """Whether model_ratio at the thesis's sizes is within the target of the thesis's."""
    return net in GSCN_OVER_SCNN and within_target(model_ratio(cp_cycles, net) /
                                                   thesis_ratio_of(net))


def only_random_zeros_keep_the_ratio(cp_cycles, net):
    """Whether, at the thesis's sizes, the ratio agrees with the thesis's as shipped and with
    random zeros, and not with SpHG as dense as the authors' code aims: §8's figures then ask
    for a loss that only GSCN with ReSprop bears (write_gap_candidates_at_sizes)."""
    def agrees(name):
        return within_target(model_ratio(cp_cycles, net, name=name) / thesis_ratio_of(net))
    return net in GSCN_OVER_SCNN and agrees("steady") and agrees("steady_random") and \
        not agrees("steady_code")


def write_scnn_reading_check(w, networks, cp_cycles):
    """Which array size §8's SCNN had, from the thesis's own figures: §8 (GSCN with ReSprop over
    SCNN and over the GPU) and Table 7.8 (standard training on GSCN over the same GPU) fix how
    long standard training on GSCN took against SCNN with ReSprop, without any model; trainloop
    gives that ratio at either size. Returns the networks for which the thesis's sizes agree,
    and writes how §8's gap there splits into ReSprop's gain on GSCN and that ratio."""
    nets = [n for n in networks if n in GSCN_OVER_SCNN and n in TABLE_7_8]

    rows, agree = [], []
    for net in nets:
        thesis = thesis_ratio_of(net)
        equal, sized = model_ratio(cp_cycles, net, "gscn", "scnn"), model_ratio(cp_cycles, net)
        if thesis_sizes_agree(cp_cycles, net):
            agree.append(net)
        rows.append("| %s | %.2f | %.2f | %.2f | %s | %.2f | %s |" % (
            LABEL[net], thesis, thesis_ratio_of(net, TABLE_7_8[net][2]), equal,
            ratio_text(equal / thesis), sized, ratio_text(sized / thesis)))
    w("What the thesis's own figures say about the size. §8 gives GSCN with ReSprop against "
      "SCNN (%s) and against the GPU (%s), and Table 7.8 gives standard training on GSCN "
      "against the same GPU (%s). Together, without any model, they fix how long standard "
      "training on GSCN took against SCNN with ReSprop: (GSCN over the GPU / GSCN over SCNN) / "
      "GSCN+Baseline. Table 7.8's GSCN+ReSprop row gives a second value: it differs from §8's "
      "GPU figure for ResNet-34 (8.01× against 7.1×). trainloop's value is bw + wu cycles, "
      "expected zeros, at equal arrays and at the thesis's sizes:" % (
          ", ".join("%s %g×" % (LABEL[n], GSCN_OVER_SCNN[n]) for n in nets),
          and_list(["%g×" % GSCN_OVER_GPU_S8[n] for n in nets]),
          and_list(["%g×" % TABLE_7_8[n][1] for n in nets])))
    w("")
    w("| network | thesis (§8's GPU figure) | thesis (Table 7.8's) | trainloop: equal arrays | "
      "ratio to the thesis | trainloop: the thesis's sizes | ratio to the thesis |")
    w("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        w(row)
    w("")
    parts = []
    for net in agree:
        gain, thesis_gain = model_gain(cp_cycles, net), thesis_gain_of(net)
        sized = model_ratio(cp_cycles, net)
        parts.append(
            "%s: trainloop's %.2f× is %.2f of the thesis's %g×, the product of ReSprop's gain "
            "on GSCN (trainloop %.2f×, the thesis %g / %g = %.2f×: %.2f) and the reciprocal of "
            "the ratio above (%.2f)" % (
                LABEL[net], gain / sized, gain / sized / GSCN_OVER_SCNN[net],
                GSCN_OVER_SCNN[net], gain, GSCN_OVER_GPU_S8[net], TABLE_7_8[net][1],
                thesis_gain, gain / thesis_gain,
                thesis_ratio_of(net) / sized))
    w("%s%s The check has a limit: in this model both standard training on GSCN and SCNN with "
      "ReSprop spend most of their cycles on the weight gradient's unused products, which the "
      "thesis's GSCN cannot have issued as this dataflow does (the table of GSCN's own "
      "dataflow under Table 7.8). So the agreement is of ratios, from a model whose absolute "
      "times are not the thesis's." % (
          "The thesis's sizes agree with the thesis's figures for %s and equal arrays do not, "
          "so the thesis's figures point to the thesis's sizes. At them, §8's gap splits in "
          "two. %s. So the gap is ReSprop's gain on GSCN, the gap of Table 7.8 (its \"Not "
          "explained\" and the candidates there), not the comparison with SCNN." % (
              and_list([LABEL[n] for n in agree]), "; ".join(parts))
          if agree else "Neither size agrees with the thesis's figures.",
          " For %s neither size agrees: the thesis's standard-training row departs from the "
          "layer shapes there (\"Table 7.8's two GSCN rows, each on its own\")." % and_list(
              [LABEL[n] for n in nets if n not in agree])
          if [n for n in nets if n not in agree] else ""))
    w("")
    write_gap_candidates_at_sizes(w, nets, agree, cp_cycles)
    return agree


# Table 7.8's candidates measured against §8's check at the thesis's sizes: (label, the
# cp_cycles name of the ReSprop runs, the section that states the assumption).
SIZED_CANDIDATES = [("as shipped", "steady", None),
                    ("random zeros", "steady_random", "the table of random zeros under "
                     "Table 7.8"),
                    ("SpHG at %g" % RELEASED_CODE_DENSITY, "steady_code",
                     "\"Assumption: how dense SpHG is\"")]


def write_gap_candidates_at_sizes(w, nets, agree, cp_cycles):
    """At the thesis's sizes §8 is ReSprop's gain on GSCN over the check's ratio; each of
    Table 7.8's candidates moves the two, and the thesis's figures fix both."""
    def ratio(net, name):
        return model_ratio(cp_cycles, net, name=name)

    def gain(net, name):
        return model_gain(cp_cycles, net, name)
    w("Table 7.8's candidates against the same figures, at the thesis's sizes. §8 there is "
      "ReSprop's gain on GSCN over the ratio above, and the thesis gives both (its gain: "
      "GSCN over the GPU / GSCN+Baseline, from §8's GPU figure); a candidate for Table 7.8's "
      "gap that the thesis's simulator had would bring all three columns to it. Each cell is "
      "trainloop's figure and its ratio to the thesis's:")
    w("")
    w("| network | candidate | ReSprop's gain on GSCN | standard training on GSCN / SCNN with "
      "ReSprop | §8: GSCN over SCNN |")
    w("|---|---|---:|---:|---:|")
    for net in nets:
        for label, name, _ in SIZED_CANDIDATES:
            g, r = gain(net, name), ratio(net, name)
            w("| %s | %s | %.2f× (%s) | %.2f (%s) | %.2f× (%s) |" % (
                LABEL[net], label, g, ratio_text(g / thesis_gain_of(net)), r,
                ratio_text(r / thesis_ratio_of(net)), g / r,
                ratio_text(g / r / GSCN_OVER_SCNN[net])))
    w("")
    reconciled = ["%s under %s" % (LABEL[n], label) for n in nets
                  for label, name, _ in SIZED_CANDIDATES
                  if within_target(gain(n, name) / thesis_gain_of(n)) and
                  within_target(ratio(n, name) / thesis_ratio_of(n)) and
                  within_target(gain(n, name) / ratio(n, name) / GSCN_OVER_SCNN[n])]
    w("All three columns within ±20 %%: %s." % (
        " and ".join(reconciled) if reconciled else "under no candidate, for no network"))
    code = SIZED_CANDIDATES[2]
    for n in [n for n in agree if only_random_zeros_keep_the_ratio(cp_cycles, n)]:
        w("")
        w("For %s, whose ratio agrees as shipped: random zeros (%s) slow only GSCN with "
          "ReSprop, because SCNN's PEs split the dense input plane, so the ratio stays (%s) "
          "and the gain falls from %s to %s of the thesis's. %s (%s), slows SCNN with ReSprop "
          "too: the gain comes to %s of the thesis's, but the ratio leaves it (%s) and §8 "
          "stays (%s). So the thesis's figures ask for a loss that only GSCN with ReSprop "
          "bears, %.2f×, of which random zeros' per-step wait gives %.2f×." % (
              LABEL[n], SIZED_CANDIDATES[1][2],
              ratio_text(ratio(n, "steady_random") / thesis_ratio_of(n)),
              ratio_text(gain(n, "steady") / thesis_gain_of(n)),
              ratio_text(gain(n, "steady_random") / thesis_gain_of(n)),
              "A denser SpHG, at %g" % RELEASED_CODE_DENSITY, code[2],
              ratio_text(gain(n, code[1]) / thesis_gain_of(n)),
              ratio_text(ratio(n, code[1]) / thesis_ratio_of(n)),
              ratio_text(gain(n, code[1]) / ratio(n, code[1]) / GSCN_OVER_SCNN[n]),
              gain(n, "steady") / thesis_gain_of(n),
              gain(n, "steady") / gain(n, "steady_random")))
    w("")


def thesis_gain_of(net):
    """ReSprop's gain on the thesis's GSCN: §8's GPU figure over Table 7.8's GSCN+Baseline."""
    return GSCN_OVER_GPU_S8[net] / TABLE_7_8[net][1]


def thesis_ratio_of(net, gscn_over_gpu=None):
    """Standard training on the thesis's GSCN over SCNN with ReSprop, in time: GSCN with
    ReSprop over the GPU (§8's figure unless given: Table 7.8's is another), over GSCN over
    SCNN (§8), over GSCN+Baseline (Table 7.8)."""
    over_gpu = GSCN_OVER_GPU_S8[net] if gscn_over_gpu is None else gscn_over_gpu
    return over_gpu / GSCN_OVER_SCNN[net] / TABLE_7_8[net][1]


def backprop_cycles(totals, phases=("bw", "wu"), key="slowest_pe_cycles"):
    """The slowest PE's cycles summed over the back-propagation convolutions; key
    "cycles": the layer-phases' priced cycles (`cartesian --arch`, the memory's bound too)."""
    return sum(totals[ph][key] for ph in phases)


def overhead_ops(network):
    """Per sample, the element-wise work ReSprop adds to back-propagation
    (§5.1 eq. 5.1, Alg. 2 lines 3, 5, 7): SpHG = Th(dy_i - dy_{i-1}) is a
    subtraction and a comparison per output-gradient element of every conv
    layer, and the two results add the pre-computed part: one addition per
    input-gradient element (every conv layer but the image-fed one) and per
    weight-gradient element (once per minibatch)."""
    with open(os.path.join(ROOT, "workloads", network + ".yaml")) as f:
        spec = yaml.safe_load(f)
    _, _, _, _, shape, per_layer = count_networks.count(spec)
    layers = {l["name"]: l for l in spec["layers"]}
    inputs = {i["name"]: (i["channels"], i.get("height", 1), i.get("width", 1))
              for i in spec["inputs"]}
    shape = dict(shape, **inputs)
    per_sample, per_batch = 0, 0
    for name, weights, _ in per_layer:
        if layers[name]["type"] != "conv":
            continue
        k, p, q = shape[name]
        per_sample += 2 * k * p * q
        source = layers[name]["inputs"][0]
        if source not in inputs:
            c, h, w = shape[source]
            per_sample += c * h * w
        per_batch += weights
    return per_sample, per_batch


def and_list(items):
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def phase_runs(runner, arch, network, profile, batch, iterations=1, **options):
    return {ph: runner.train_cost(arch, network, batch, profile, iterations, ph, **options)
            for ph in ("fw", "bw", "wu")}


def backprop_runs(runner, arch, network, profile, batch, **options):
    """One train-cost run per back-propagation phase (bw, wu) of one iteration."""
    return {ph: runner.train_cost(arch, network, batch, profile, 1, ph, **options)
            for ph in ("bw", "wu")}


def backprop_speedup(runs):
    """Back-propagation cycles of standard (dense) training over those of the profile's."""
    return cycles(runs, ("bw", "wu"), "dense_total_cycles") / cycles(runs, ("bw", "wu"),
                                                                     "total_cycles")


def backprop_energy_ratio(runs):
    """Back-propagation energy of the profile's training over that of standard training."""
    return (cycles(runs, ("bw", "wu"), "total_energy_pj") /
            cycles(runs, ("bw", "wu"), "dense_total_energy_pj"))


def write_own_dataflow(w, networks, own, steady, cp_cycles):
    """Table 7.8's ratio from GSCN's own dataflow over the whole network: train-cost
    --evaluator cartesian on the spec's cartesian_product section, minibatch 64; and what
    standard training costs there, against the GPU benchmark of write_gpu_rows."""
    w("The same ratio from GSCN's own dataflow over the whole network: `train-cost "
      "--evaluator cartesian` on `%s`'s `cartesian_product:` section (docs/cartesian_product.md, "
      "\"A whole training run\"), which runs the last column's model at minibatch %d on GSCN's "
      "%d tiles (the slowest PE runs a quarter of the samples), adds the fully connected "
      "layers as 1 × 1 convolutions (ReSprop leaves their output gradient dense), and prices "
      "each layer-phase with the spec's components (multiplies issued, operand reads, "
      "accumulator updates, compulsory DRAM traffic, the words on its networks, leakage). "
      "Expected zeros, as the last column. "
      "\"wu's share\" is the weight gradient's share of standard training's bw and wu cycles; "
      "\"over the GPU\" is standard training's bw and wu against the GPU benchmark of the "
      "subsection \"Table 7.8's two GSCN rows, each on its own\" below (thesis: Table 7.8's "
      "GSCN+Baseline)." % ("gscn_4x64", GSCN_BATCH, GSCN_TILES))
    w("")
    w("| network | bw + wu speed-up | paper | ratio | target | met | energy: ReSprop / "
      "standard | wu's share | standard training over the GPU | thesis |")
    w("|---|---:|---:|---:|---|---|---:|---:|---:|---:|")
    over_gpu = {}
    for net in networks:
        runs = own[net]
        ours = backprop_speedup(runs)
        energy = backprop_energy_ratio(runs)
        wu_share = runs["wu"]["dense_total_cycles"] / cycles(runs, ("bw", "wu"),
                                                            "dense_total_cycles")
        if net in GPU_BACKWARD_MS:
            gpu, standard, _ = backprop_milliseconds(net, runs)
            over_gpu[net] = gpu / standard
        gpu_text = "%.2g×" % over_gpu[net] if net in over_gpu else "—"
        if net in TABLE_7_8:
            paper = paper_ratio(net)
            w("| %s | %.2f× | %.2f× | %.2f | ±%d %% | %s | %.2f | %.1f %% | %s | %.2f× |" % (
                LABEL[net], ours, paper, ours / paper, 100 * TOLERANCE,
                target_verdict(ours / paper), energy, 100 * wu_share, gpu_text,
                TABLE_7_8[net][1]))
        else:
            w("| %s | %.2f× | — | — | — | — | %.2f | %.1f %% | %s | — |" % (
                LABEL[net], ours, energy, 100 * wu_share, gpu_text))
    w("")
    kept = [backprop_speedup(own[n]) / mac_ratio(steady[n]) for n in networks]
    kept_loop_nest = [backprop_speedup(steady[n]) / mac_ratio(steady[n]) for n in networks]
    kept_paper = [paper_ratio(n) / TABLE_7_8[n][0] for n in TABLE_7_8]
    # Of the products the weight gradient issues with dense operands (predictor on).
    wu_unused = [cp_cycles[(n, "gscn", "dense")]["wu"]["unused_pct"] for n in networks]
    w("GSCN's own dataflow keeps %.0f–%.0f %% of the back-propagation MAC ratio (the first "
      "table), the searched loop nest %.0f–%.0f %%, the thesis's GSCN %.0f–%.0f %% of its own. "
      "Its cycles do not follow the MACs: in the weight gradient the output gradient is the "
      "filter (§6.2, Fig. 6.1c), as large as the input plane, so every input position meets "
      "every output-gradient position and nearly all those products fall outside the small "
      "kernel the weight gradient is: %.1f–%.1f %% of the products issued are unused, after "
      "the predictor has skipped those with a negative coordinate (§6.5; the last column's "
      "runs, dense operands). Standard training's weight gradient then takes most of the back-"
      "propagation cycles (\"wu's share\"), and SpHG, the filter operand there, cuts exactly "
      "those tenfold. The same count makes standard training on this GSCN far slower than the "
      "GPU (%s), where the thesis's is faster: so the thesis's simulated GSCN cannot have "
      "issued the weight gradient's products this way, and the thesis does not say how it "
      "avoids them (it expects \"about 60%% of products are not useful\" there, §6.5). So "
      "this table shows GSCN's dataflow as the thesis describes it, not the thesis's measured "
      "GSCN."
      % (100 * min(kept), 100 * max(kept), 100 * min(kept_loop_nest),
         100 * max(kept_loop_nest), 100 * min(kept_paper), 100 * max(kept_paper),
         min(wu_unused), max(wu_unused),
         and_list(["%s %.2g× against %.2f×" % (LABEL[n], over_gpu[n], TABLE_7_8[n][1])
                   for n in networks if n in over_gpu and n in TABLE_7_8])))
    w("")


def write_code_density(w, networks, steady, gscn, code_density, targets):
    """The section on SpHG's density in the authors' released implementation: the MAC and
    GSCN ratios at RELEASED_CODE_DENSITY next to the shipped 0.1 and the thesis's."""
    w("Assumption: how dense SpHG is. The thesis states 90 %% reuse-sparsity (§7.5), and its "
      "theoretical row is that density's MAC ratio (the first table). The authors' released "
      "implementation (github.com/negargoli/ReSprop, `main.py` and `models/ReSprop_conv.py`) "
      "sets each layer's threshold by feedback: after every iteration it halves the threshold "
      "when fewer than `--sparsity` + 5 per cent of SpHG's elements are nonzero and doubles it "
      "when more (\"Add 5%% for the margin\"); `--sparsity`, \"Percentage of reuse-sparsity\", "
      "defaults to 10. As the code uses it, the default aims at %.0f %% nonzeros, not 10 %%; and "
      "a threshold that only doubles or halves alternates between two values around the "
      "target, so what one iteration holds is not known either. The thesis does not say which "
      "setting made the tensors it simulated (§7.2, §7.5.4). SpHG at density %g throughout "
      "(`resprop_profile.py --reuse-sparsity %g`), both trainings mapped again:"
      % (100 * RELEASED_CODE_DENSITY, RELEASED_CODE_DENSITY, 1 - RELEASED_CODE_DENSITY))
    w("")
    w("| network | MACs at 0.1 | MACs at %g | theoretical (paper) | GSCN at 0.1 (as shipped) "
      "| GSCN at %g | GSCN (paper) | ratio at %g | target | met |"
      % ((RELEASED_CODE_DENSITY,) * 3))
    w("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    within, outside, mac_ratios = [], [], []
    for net in networks:
        macs = mac_ratio(code_density[net])
        mac_ratios.append(macs)
        at_code = backprop_speedup(code_density[net])
        cells = ["%.2f×" % mac_ratio(steady[net]), "%.2f×" % macs]
        if net in TABLE_7_8:
            ratio = at_code / paper_ratio(net)
            targets.alternative(CLAIM_GSCN, LABEL[net], "SpHG at %g (the authors' code)"
                                % RELEASED_CODE_DENSITY, ratio)
            met = abs(ratio - 1) <= TOLERANCE
            (within if met else outside).append("%s (%.2f)" % (LABEL[net], ratio))
            tail = ["%.2f×" % paper_ratio(net), "%.2f" % ratio, "±20 %",
                    "yes" if met else "**no**"]
            cells.insert(2, "%.2f×" % TABLE_7_8[net][0])
        else:
            tail = ["—"] * 4
            cells.insert(2, "—")
        w("| %s | %s | %.2f× | %.2f× | %s |" % (LABEL[net], " | ".join(cells), gscn[net], at_code,
                                              " | ".join(tail)))
    w("")
    w("At SpHG density %g trainloop's GSCN gain is within ±20 %% of the thesis's for %s%s. The "
      "same density puts the MAC ratio at %.2f–%.2f×, far below the theoretical row's "
      "%.2f–%.2f×, so this reading holds only if that row was computed from the stated 90 %% "
      "rather than counted on the simulated tensors; the thesis (\"comparing the number of "
      "floating-point operations with and without ReSprop\", §7.5.3) does not say which. It is "
      "a candidate for the gap, taken from the authors' code, not a reproduction of it: the "
      "shipped profile keeps the thesis's stated 90 %%."
      % (RELEASED_CODE_DENSITY, and_list(within) if within else "no network",
         ("; outside for %s" % and_list(outside)) if outside else "",
         min(mac_ratios), max(mac_ratios),
         min(t[0] for t in TABLE_7_8.values()), max(t[0] for t in TABLE_7_8.values())))
    w("")


def backprop_milliseconds(net, runs):
    """The GPU benchmark's backward pass scaled to GSCN's minibatch, and GSCN's bw and wu in
    standard training and with ReSprop (`runs`: one iteration per phase at GSCN_BATCH), in
    ms at the spec's clock."""
    seconds_per_cycle = runs["bw"]["total_seconds"] / runs["bw"]["total_cycles"]
    gpu = GPU_BACKWARD_MS[net] * GSCN_BATCH / GPU_BENCHMARK_BATCH
    standard = 1e3 * seconds_per_cycle * cycles(runs, ("bw", "wu"), "dense_total_cycles")
    resprop = 1e3 * seconds_per_cycle * cycles(runs, ("bw", "wu"), "total_cycles")
    return gpu, standard, resprop


def write_gpu_rows(w, networks, steady):
    """Table 7.8's second and third rows each on its own: trainloop's GSCN against a
    published GTX 1080 Ti measurement, next to the thesis's speed-ups over that GPU."""
    nets = [n for n in networks if n in GPU_BACKWARD_MS and n in TABLE_7_8]
    if not nets:
        return
    w("Table 7.8's two GSCN rows, each on its own. The thesis gives GSCN's speed-ups over a "
      "GTX 1080 Ti, not its times, so only their ratio is compared above. A public benchmark "
      "measured that GPU's whole backward pass (github.com/jcjohnson/cnn-benchmarks: cuDNN "
      "5.1.10, Torch, minibatch %d): %s. At GSCN's minibatch of %d, %d times that (assumed "
      "linear in the minibatch); GSCN's bw and wu at its spec's clock (`clock_ghz`, SCNN's "
      "1 GHz: Table 7.9 gives none):"
      % (GPU_BENCHMARK_BATCH, and_list(["%s %.2f ms" % (LABEL[n], GPU_BACKWARD_MS[n])
                                        for n in nets]),
         GSCN_BATCH, GSCN_BATCH // GPU_BENCHMARK_BATCH))
    w("")
    w("| network | GPU, minibatch %d (ms) | standard training on GSCN (ms) | over the GPU: "
      "trainloop | thesis | ratio | ReSprop on GSCN (ms) | over the GPU: trainloop | thesis "
      "| ratio |" % GSCN_BATCH)
    w("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios = {}
    for n in nets:
        gpu, standard, resprop = backprop_milliseconds(n, steady[n])
        _, row2, row3 = TABLE_7_8[n]
        ratios[n] = (gpu / standard / row2, gpu / resprop / row3)
        w("| %s | %.1f | %.1f | %.2f× | %.2f× | %.2f | %.1f | %.2f× | %.2f× | %.2f |" % (
            LABEL[n], gpu, standard, gpu / standard, row2, ratios[n][0], resprop,
            gpu / resprop, row3, ratios[n][1]))
    w("")
    w("The thesis timed only the two back-propagation convolutions on the GPU (§7.5.4), the "
      "benchmark its whole backward pass (batch normalization, activations and the fully "
      "connected layer too), so the GPU times here are longer and trainloop's speed-ups "
      "larger than like for like, by the same factor in both rows of a network: how a "
      "network's gap divides between its two rows depends on that factor, which the "
      "benchmark does not give, and their quotient (the ratio compared above) does not. Row "
      "by row, trainloop over the thesis: %s."
      % "; ".join("%s standard training %.2f (%s), ReSprop %.2f (%s)" % (
          LABEL[n], ratios[n][0], target_verdict(ratios[n][0]), ratios[n][1],
          target_verdict(ratios[n][1])) for n in nets))
    if "resnet18" in nets and "resnet34" in nets:
        write_resnet34_rows(w, steady)
    if "vgg16" in nets and abs(math.log(ratios["vgg16"][0])) > abs(math.log(ratios["vgg16"][1])):
        w("")
        w("VGG-16's gap lies in its standard-training row (%.2f; ReSprop %.2f): in the "
          "thesis's real tensors standard training's output gradients carry the ReLU's zeros, "
          "as VGG-16 has no batch normalization between convolution and ReLU (the ReLU-masked "
          "column of the table on the zeros of standard training, above); the shipped "
          "profile keeps them dense." % ratios["vgg16"])
    w("")


def write_resnet34_rows(w, steady):
    """ResNet-34 against ResNet-18, row by row: the time ratio each of the thesis's rows
    implies at two GPU ratios (the benchmark's, and the MAC ratio) next to trainloop's."""
    def from_resnet18(key):
        return (cycles(steady["resnet34"], ("bw", "wu"), key) /
                cycles(steady["resnet18"], ("bw", "wu"), key))
    r18, r34 = TABLE_7_8["resnet18"], TABLE_7_8["resnet34"]
    standard_quotient, resprop_quotient = r18[1] / r34[1], r18[2] / r34[2]
    macs = bw_macs(steady["resnet34"]) / bw_macs(steady["resnet18"])
    # (the GPU's ResNet-34 time over ResNet-18's, the thesis's GSCN time ratios it implies)
    implied = [(g, g * standard_quotient, g * resprop_quotient)
               for g in (GPU_BACKWARD_MS["resnet34"] / GPU_BACKWARD_MS["resnet18"], macs)]
    standard, resprop = from_resnet18("dense_total_cycles"), from_resnet18("total_cycles")
    if all(within_target(rs / resprop) and not within_target(st / standard)
           for _, st, rs in implied):
        lows = sorted(st for _, st, _ in implied)
        verdict = ("At either GPU figure the thesis's ReSprop row comes within a fifth of "
                   "trainloop's scaling and its standard-training row does not: a standard "
                   "training that takes %.2f–%.2f times as long for %.2f times the work in the "
                   "same layer shapes is what makes the thesis's ResNet-34 ratio low, and those "
                   "shapes do not explain it." % (lows[0], lows[-1], macs))
    else:
        verdict = ("The two GPU figures do not single out one of the thesis's rows, so where "
                   "its ResNet-34 ratio departs is not read from them.")
    (gpu, gpu_standard, gpu_resprop), (_, mac_standard, mac_resprop) = implied
    w("")
    w("ResNet-34 is built of ResNet-18's layer shapes, more of them (%.2f times the "
      "back-propagation MACs). Whatever the GPU takes on ResNet-34 relative to ResNet-18, "
      "one figure, the thesis's two rows put GSCN's ResNet-34 at that figure times %.2f "
      "of ResNet-18's time in standard training (%.2f / %.2f) and times %.2f with "
      "ReSprop (%.2f / %.2f). At the benchmark's %.2f that is %.2f and %.2f; at %.2f (a "
      "GPU as efficient on the extra blocks as on the rest: the MAC ratio), %.2f and "
      "%.2f. trainloop's GSCN takes %.2f and %.2f times as long. %s"
      % (macs, standard_quotient, r18[1], r34[1], resprop_quotient, r18[2], r34[2],
         gpu, gpu_standard, gpu_resprop, macs, mac_standard, mac_resprop, standard, resprop,
         verdict))


def paper_ratio(net):
    """Table 7.8: GSCN+ReSprop over GSCN+Baseline, ReSprop's gain on GSCN itself."""
    return TABLE_7_8[net][2] / TABLE_7_8[net][1]


def bw_macs(runs):
    return sum(runs[p]["total_macs"] for p in ("bw", "wu"))


def mac_ratio(runs):
    """All MACs of bw and wu over their effectual ones: the theoretical speed-up."""
    return bw_macs(runs) / bw_effectual(runs)


def bw_effectual(runs):
    return sum(runs[p]["effectual_macs"] for p in ("bw", "wu"))


def cycles(runs, phases, key):
    return sum(runs[p][key] for p in phases)


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
    search = search_from(args)
    # The same search with four times the budget: how far the cycle columns still move.
    larger = Search(search.strategy, 4 * search.budget, search.objective)
    # The energy column's runs: the fastest mapping (the latency objective) is
    # often far costlier than one a fraction of a per cent slower, so energy is
    # compared at the mappings with the lowest energy-delay product.
    lowest_edp = Search(search.strategy, search.budget, "edp")
    networks = stored["networks"] if stored else args.networks.split(",")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    generator = load_generator()
    profiles = {}
    for name, (options, _) in PROFILES.items():
        path = os.path.join(work, "resprop_%s.yaml" % name)
        subprocess.run([sys.executable, GENERATOR, "-o", path] + options, check=True,
                       stdout=subprocess.DEVNULL)
        profiles[name] = path
    run_iterations = generator.RUN_ITERATIONS

    steady, x50, standard_x50, dense_array, whole, whole8, pre = {}, {}, {}, {}, {}, {}, {}
    with_fc, other_dataflows, standard_relu, larger_budget, at_edp = {}, {}, {}, {}, {}
    cartesian, clustered, code_density = {}, {}, {}
    # GSCN's own dataflow over the whole network (train-cost --evaluator cartesian).
    own, own_whole, own_pre = {}, {}, {}
    # (network, design, profile) -> `trainloop cartesian` totals; designs: GSCN with and
    # without its predictor (split filters, §6.4-6.5), SCNN (planar tiling, §6.3).
    cp_designs = {"gscn": ("split-filters", True), "gscn_no_predictor": ("split-filters", False),
                  "scnn": ("planar", False)}
    # The same two arrays at the thesis's sizes: GSCN 4 tiles of 64 PEs, SCNN 64 PEs, at
    # GSCN's minibatch of 64 (§7.2).
    sized_designs = {"gscn_tiles": ("split-filters", True, GSCN_TILES),
                     "scnn_64": ("planar", False, SCNN_TILES)}
    cp_cycles = {}
    priced_cp = {}
    with open(os.path.join(ROOT, "arch_specs", args.arch + ".yaml")) as f:
        gscn_file = write_spec_variant(args.arch, f.read(), "copy", work)
    dram_limited = {}
    dram_specs = {bw: arch_with_dram_bandwidth(args.arch, bw[0], work, shared=bw[1])
                  for bw in DRAM_BANDWIDTHS}
    with open(os.devnull if stored else os.path.join(work, "commands.txt"), "w") as log:
        r = Runner(args.trainloop, search, log, work, stored["runs"] if stored else None,
                   replay)
        for net in TABLE_6_1:
            for rule in ("negative-only", "outside-output"):
                for pes in (SCNN_PES, "1x1"):
                    cartesian[(net, rule, pes)] = r.cartesian(net, rule, pes)
            cartesian[(net, "negative-only", "2x2vec")] = r.cartesian(net, "negative-only",
                                                                      vectors="2x2")
        for net in networks:
            for design, (tiling, predictor) in cp_designs.items():
                for name in ("dense", "steady"):
                    cp_cycles[(net, design, name)] = r.cartesian_cycles(
                        net, tiling, predictor, profiles[name] if name == "steady" else None)
                # Random zeros move only sparse operands (docs/cartesian_product.md).
                cp_cycles[(net, design, "steady_random")] = r.cartesian_cycles(
                    net, tiling, predictor, profiles["steady"], zeros="random")
            # §8 with DNNsim's DRAM on both arrays, from spec files (cartesian --arch prices
            # the off-chip words' bandwidth bound), without and with the limit.
            for limit, gscn_spec in (("unlimited", gscn_file),
                                     ("dnnsim", dram_specs[DNNSIM_DRAM])):
                for design, spec in (("gscn", gscn_spec),
                                     ("scnn_equal", scnn_variant(gscn_spec, GSCN_TILES, work)),
                                     ("scnn_64", scnn_variant(gscn_spec, SCNN_TILES, work))):
                    priced_cp[(net, design, limit)] = r.cartesian_on(
                        spec, net, profiles["steady"], GSCN_BATCH)
            for design, (tiling, predictor, tiles) in sized_designs.items():
                for zeros in ("expected", "random"):
                    name = "steady" if zeros == "expected" else "steady_random"
                    cp_cycles[(net, design, name)] = r.cartesian_cycles(
                        net, tiling, predictor, profiles["steady"], GSCN_BATCH, tiles, zeros)
            # Standard training on GSCN at its size: what the thesis's GPU figures compare
            # SCNN with (write_scnn_reading_check); and both arrays with SpHG as dense as the
            # authors' code aims (write_gap_candidates_at_sizes).
            cp_cycles[(net, "gscn_tiles", "dense")] = r.cartesian_cycles(
                net, "split-filters", True, None, GSCN_BATCH, GSCN_TILES)
            for design, (tiling, predictor, tiles) in sized_designs.items():
                cp_cycles[(net, design, "steady_code")] = r.cartesian_cycles(
                    net, tiling, predictor, profiles["steady_code"], GSCN_BATCH, tiles)
        for net in networks:
            print("%s ..." % net, file=sys.stderr)
            steady[net] = phase_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH)
            with_fc[net] = backprop_runs(r, args.arch, net, profiles["steady_fc"], GSCN_BATCH,
                                         search=MACS_ONLY)
            larger_budget[net] = backprop_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                               search=larger)
            at_edp[net] = backprop_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                        search=lowest_edp)
            for dataflow in OTHER_DATAFLOWS:
                other_dataflows[(net, dataflow)] = backprop_runs(
                    r, args.arch, net, profiles["steady"], GSCN_BATCH, dataflow=dataflow)
            x50[net] = phase_runs(r, args.arch, net, profiles["steady_x50"], GSCN_BATCH)
            standard_x50[net] = phase_runs(r, args.arch, net, profiles["standard_x50"], GSCN_BATCH)
            standard_relu[net] = backprop_runs(r, args.arch, net, profiles["standard_x50_relu"],
                                               GSCN_BATCH)
            for name, _ in CLUSTER_CVS:
                clustered[(net, name)] = backprop_runs(r, args.arch, net, profiles[name],
                                                       GSCN_BATCH)
            code_density[net] = backprop_runs(r, args.arch, net, profiles["steady_code"],
                                              GSCN_BATCH)
            for bw, spec in dram_specs.items():
                dram_limited[(net, bw)] = backprop_runs(r, spec, net, profiles["steady"],
                                                           GSCN_BATCH)
            dense_array[net] = phase_runs(r, args.dense_arch, net, "dense", GSCN_BATCH)
            whole[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["shipped"],
                                      run_iterations, "all")
            whole8[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["warmup8"],
                                       run_iterations, "all")
            # Alg. 1 lines 4-5 (stochastic mode, eq. 5.4): pre-ReSprop convolves one
            # sample's previous output gradient with w and with the averaged input: one
            # sample's dense bw and wu per iteration.
            pre[net] = {ph: r.train_cost(args.arch, net, 1, "dense", run_iterations, ph)
                        for ph in ("bw", "wu")}
            own[net] = phase_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                  evaluator="cartesian")
            own_whole[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["shipped"],
                                          run_iterations, "all", evaluator="cartesian")
            own_pre[net] = {ph: r.train_cost(args.arch, net, 1, "dense", run_iterations, ph,
                                             evaluator="cartesian")
                            for ph in ("bw", "wu")}
    if replay:
        if not r.replayed:
            print("error: --replay %s finds no stored run" % args.replay, file=sys.stderr)
            sys.exit(2)
        report_replay(r.replayed, ["trainloop %s\n  %s" % change for change in r.changed],
                      "stored runs", args.trainloop, "resprop")
    if stored:
        run = stored
    else:
        run = {"commit": git_commit(), "date": datetime.date.today().isoformat(),
               "wall_seconds": time.time() - started, "cpu_seconds": children_cpu_seconds(),
               "search": search.stored(), "networks": networks,
               "commands": os.path.relpath(os.path.join(work, "commands.txt"), ROOT),
               "runs": r.recorded}
        assert set(run) == set(STORED_KEYS)
        write_stored_runs(stored_path, run)
    wall, cpu_seconds = run["wall_seconds"], run["cpu_seconds"]

    out = []
    w = out.append
    targets = TargetSummary()
    w("# Reproducing ReSprop and GSCN (Goli, UBC thesis 2020)")
    w("")
    w("Generated by `scripts/reproduce.sh resprop%s` (trainloop commit %s, %s): do not "
      "edit by hand. %.0f s wall, %.0f s CPU on this machine. Every trainloop figure below is "
      "`trainloop train-cost --format json` output, Table 6.1's `trainloop cartesian --format "
      "json` (the commands are in `%s`); the thesis's "
      "figures are quoted with their section or table."
      % (search.command_suffix(), run["commit"], run["date"], wall, cpu_seconds,
         run["commands"]))
    w("")
    w("## Setup")
    w("")
    w("| | thesis | trainloop | where |")
    w("|---|---|---|---|")
    w("| reuse-sparsity | both back-propagation convolutions read SpHG, the output gradient's "
      "changed components, 90 % zero | `dy` at density 0.1 in bw and wu of every conv layer "
      "(`workloads/sparsity/resprop.yaml`, written by `workloads/tools/resprop_profile.py`) | "
      "§5.1 eqs. 5.1–5.3, Alg. 2, §7.5 |")
    w("| which layers | \"the l-th convolutional layer\"; fully connected layers are future work "
      "| FC layers keep a dense `dy` | Alg. 1–2, §8.0.2 |")
    w("| warm-up (W-ReSprop) | RS rises linearly over the first 5–8 of 90 epochs | linear "
      "schedule over 5 epochs (5,005 iterations each at batch 256) | §5.1.2, §7.2 |")
    w("| pre-ReSprop | one random sample's previous output gradient convolved with w and with "
      "the averaged input, per iteration | one sample's dense bw and wu per iteration, added "
      "to the run (`--batch 1`) | Alg. 1, eq. 5.4, §7.5.2 |")
    w("| networks | ResNet-18, ResNet-34, VGG-16, WRN-50-2 (ImageNet) | `resnet18`, `resnet34`, "
      "`vgg16`, `wrn_50_2` (torchvision layouts) | Tables 7.3, 7.8 |")
    w("| GSCN | 4 tiles × 64 PEs × 4×4 Cartesian multipliers, 2 KB filter / 10 KB input / 10 KB "
      "output buffers, 32 accumulator banks, predictor | `arch_specs/%s.yaml` (each key cites "
      "the thesis; the header lists what is approximated) | ch. 6, §7.5.4, Table 7.9 |"
      % args.arch)
    w("| dense array | GTX 1080 Ti GPU; SCNN | `arch_specs/%s.yaml`: GSCN's array without sparse "
      "features (trainloop models neither a GPU nor SCNN's Cartesian-product losses) | "
      "§7.5.4 |" % args.dense_arch)
    w("| mapping | DNNsim runs GSCN's fixed dataflow (Alg. 4) | %s, dataflow `%s` (filters and "
      "input positions across a tile, samples across the tiles); MAC-only runs: %s | §6.4, "
      "§7.2 |" % (search, DATAFLOW, MACS_ONLY))
    w("| minibatch | 64 on GSCN; 256 for ImageNet training | `--batch 64` for Table 7.8, "
      "`--batch 256` for the whole run | §7.2 |")
    w("")
    summary_at = len(out)  # the summary of the targets goes here, once every section is done

    # ---- 1. Theoretical back-propagation speed-up.
    w("## Table 7.8, first row: theoretical back-propagation speed-up at 90 % reuse-sparsity")
    w("")
    w("Paper: \"comparing the number of floating-point operations with and without ReSprop\" "
      "for the backward pass (§7.5.3). trainloop: all MACs of bw and wu over their effectual "
      "MACs (`total_macs` / `effectual_macs` of `train-cost --phase bw` and `--phase wu` with "
      "90 % reuse-sparsity from the first iteration).")
    w("")
    w("| network | paper | trainloop | ratio | target | met | with ReSprop's element-wise "
      "work | FC layers sparse too |")
    w("|---|---:|---:|---:|---|---|---:|---:|")
    fc_share = {}
    for net in networks:
        runs = steady[net]
        ours = mac_ratio(runs)
        per_sample, per_batch = overhead_ops(net)
        extra = per_sample * GSCN_BATCH + per_batch
        with_overhead = bw_macs(runs) / (bw_effectual(runs) + extra)
        all_sparse = mac_ratio(with_fc[net])
        # The share of bw and wu MACs the shipped profile leaves dense (the FC layers'):
        # effectual = 0.1 (all - dense) + dense.
        fc_share[net] = (bw_effectual(runs) / bw_macs(runs) - 0.1) / 0.9
        if net in TABLE_7_8:
            paper = TABLE_7_8[net][0]
            ratio = ours / paper
            targets.add(CLAIM_THEORY, LABEL[net], "%.2f×" % paper, "%.2f×" % ours, ratio)
            w("| %s | %.2f× | %.2f× | %.3f | ±%d %% | %s | %.2f× | %.2f× |"
              % (LABEL[net], paper, ours, ratio, 100 * TOLERANCE,
                 "yes" if abs(ratio - 1) <= TOLERANCE else "**no**", with_overhead, all_sparse))
        else:
            w("| %s | — | %.2f× | — | — | — | %.2f× | %.2f× |"
              % (LABEL[net], ours, with_overhead, all_sparse))
    w("")
    w("Direction: right (every network well above 1, below the ideal 10×, VGG-16 lowest). The "
      "share of bw and wu MACs in fully connected layers, which ReSprop leaves dense, sets the "
      "order: %s. Two columns show assumptions the thesis does not spell out: \"with ReSprop's "
      "element-wise work\" counts, as one MAC each, the subtraction and threshold comparison per "
      "output-gradient element that form SpHG and the addition of the pre-computed part per "
      "input- and weight-gradient element (Alg. 2 lines 3, 5, 7; minibatch %d); \"FC layers "
      "sparse too\" gives the fully connected layers the same reuse-sparsity."
      % (", ".join("%s %.2f %%" % (LABEL[n], 100 * fc_share[n]) for n in networks),
         GSCN_BATCH))
    w("")

    # ---- 2. GSCN, ReSprop against standard training.
    w("## Table 7.8, second and third rows: GSCN with ReSprop against standard training")
    w("")
    w("Paper: speed-up of the back-propagation convolutions over a GTX 1080 Ti GPU, standard "
      "training on GSCN (\"GSCN+Baseline\") and ReSprop on GSCN (\"GSCN+ReSprop\"). trainloop "
      "has no GPU model, so the figure compared is their ratio, ReSprop against standard "
      "training on the same GSCN: the bw and wu cycles of dense training (`dense_total_cycles`) "
      "over those with 90 % reuse-sparsity (`total_cycles`), minibatch 64 (§7.2). Standard "
      "training is the dense evaluation, without the compressed encoding's metadata (on dense "
      "data it only costs); the activation-density columns further down run both trainings "
      "through the sparse evaluation.")
    w("")
    w("| network | GSCN+Baseline (paper) | GSCN+ReSprop (paper) | ratio: paper | trainloop | "
      "ratio | target | met | energy: ReSprop / standard (lowest-EDP mappings) | "
      "dense array / GSCN standard | GSCN as a Cartesian-product array |")
    w("|---|---:|---:|---:|---:|---:|---|---|---:|---:|---:|")
    cp_ratio = {net: backprop_cycles(cp_cycles[(net, "gscn", "dense")]) /
                backprop_cycles(cp_cycles[(net, "gscn", "steady")]) for net in networks}
    # The conv layers' MAC ratio (`cartesian` evaluates convolutions only): used products.
    cp_macs = {net: sum(cp_cycles[(net, "gscn", "dense")][ph]["used_products"] /
                        cp_cycles[(net, "gscn", "steady")][ph]["used_products"] / 2
                        for ph in ("bw", "wu")) for net in networks}
    gscn = {}
    for net in networks:
        runs = steady[net]
        ours = backprop_speedup(runs)
        gscn[net] = ours
        energy = backprop_energy_ratio(at_edp[net])
        dense_vs = (cycles(dense_array[net], ("bw", "wu"), "total_cycles") /
                    cycles(runs, ("bw", "wu"), "dense_total_cycles"))
        if net in TABLE_7_8:
            _, base, resprop = TABLE_7_8[net]
            paper = resprop / base
            ratio = ours / paper
            targets.add(CLAIM_GSCN, LABEL[net], "%.2f×" % paper, "%.2f×" % ours, ratio)
            w("| %s | %.2f× | %.2f× | %.2f× | %.2f× | %.2f | ±%d %% | %s | %.2f | %.3f | %.2f× |"
              % (LABEL[net], base, resprop, paper, ours, ratio, 100 * TOLERANCE,
                 "yes" if abs(ratio - 1) <= TOLERANCE else "**no**", energy, dense_vs,
                 cp_ratio[net]))
        else:
            w("| %s | — | — | — | %.2f× | — | — | — | %.2f | %.3f | %.2f× |"
              % (LABEL[net], ours, energy, dense_vs, cp_ratio[net]))
    w("")
    w("Direction: right when ReSprop is faster on GSCN (%s), and slower than the theoretical "
      "MAC ratio above: what GSCN loses is load imbalance (each PE's filters are fixed, Alg. 4: "
      "the PE with the most nonzeros sets the pace) and the data that moves whatever the "
      "density. \"dense array / GSCN standard\" checks that standard training on GSCN costs what "
      "it costs on the same array without sparse features (`%s`; 1.000 when both searches find "
      "the same mappings). The energy column maps both trainings for the lowest energy-delay "
      "product instead of the fewest cycles: the fastest mapping found can cost many times the "
      "energy of one a little slower (ReSprop's bw on %s: %.1f× the energy at %.1f %% fewer "
      "cycles), so energy at the fastest mappings says more about the search than about "
      "ReSprop; the thesis makes no energy claim." % (
          ", ".join("%s %.2f×" % (LABEL[n], gscn[n]) for n in networks), args.dense_arch,
          LABEL[networks[0]],
          (steady[networks[0]]["bw"]["total_energy_pj"] /
           at_edp[networks[0]]["bw"]["total_energy_pj"]),
          100 * (1 - steady[networks[0]]["bw"]["total_cycles"] /
                 at_edp[networks[0]]["bw"]["total_cycles"])))
    w("")
    w("The last column is a second model of GSCN: `trainloop cartesian --tiling split-filters "
      "--predictor` (docs/cartesian_product.md), GSCN's own dataflow rather than a searched "
      "loop nest — every PE the whole input plane and its share of the filters (§6.4, Alg. 4), "
      "4 × 4 Cartesian products that issue unused products as well as used ones, the predictor "
      "skipping what it can (§6.5), the slowest of 64 PEs setting the pace, bank stalls alike "
      "in both trainings. The bw and wu cycles with dense operands over those with SpHG at "
      "density 0.1 (batch 1: every count scales with it). It agrees with the loop nest: %s."
      % ", ".join("%s %.2f×" % (LABEL[n], cp_ratio[n]) for n in networks))
    w("")
    write_own_dataflow(w, networks, own, steady, cp_cycles)
    cp_random_ratio = {net: backprop_cycles(cp_cycles[(net, "gscn", "dense")]) /
                       backprop_cycles(cp_cycles[(net, "gscn", "steady_random")])
                       for net in networks}
    w("Assumption: where the zeros fall. The last column gives every PE the expected number "
      "of its share's nonzeros. The thesis's simulator is driven by real tensors (§7.5.4), and "
      "DNNsim, which it extends for GSCN, waits for the slowest PE at every (sample, input "
      "channel) step of the Cartesian-product dataflow (its `core/src/SCNN.cpp`, "
      "`computeSCNNTile`: each step adds the largest of the PEs' cycles for that step's actual "
      "nonzeros). With zeros that fall independently (`cartesian --zeros random`, "
      "docs/cartesian_product.md) GSCN's PEs, which split SpHG by filter in the weight "
      "gradient, each draw their own count, and every step waits for the one that drew the "
      "most; standard training's dense operands do not vary. The bw and wu cycles as in the "
      "last column:")
    w("")
    w("| network | expected zeros (last column) | random zeros | paper | ratio (random zeros) |")
    w("|---|---:|---:|---:|---:|")
    for net in networks:
        paper = paper_ratio(net) if net in TABLE_7_8 else None
        if paper:
            targets.alternative(CLAIM_GSCN, LABEL[net], "GSCN's own dataflow, random zeros "
                                "(DNNsim's per-step wait)", cp_random_ratio[net] / paper)
        w("| %s | %.2f× | %.2f× | %s | %s |" % (
            LABEL[net], cp_ratio[net], cp_random_ratio[net],
            "%.2f×" % paper if paper else "—",
            "%.2f" % (cp_random_ratio[net] / paper) if paper else "—"))
    w("")
    w("Random zeros keep %.0f–%.0f %% of the conv layers' MAC ratio (expected zeros: %.0f–%.0f "
      "%%): the wait at each step is a sourced part of what the thesis's GSCN loses, not all "
      "of it. Not modelled: DNNsim's filter groups (its accumulator bounds the filters a step "
      "holds, so a layer takes more steps, each with its own wait), which Table 7.9's "
      "accumulator (32 banks of 32 entries) would set if the thesis's GSCN kept them."
      % (100 * min(cp_random_ratio[n] / cp_macs[n] for n in networks),
         100 * max(cp_random_ratio[n] / cp_macs[n] for n in networks),
         100 * min(cp_ratio[n] / cp_macs[n] for n in networks),
         100 * max(cp_ratio[n] / cp_macs[n] for n in networks)))
    w("")
    w("Assumption: the zeros of standard training. The thesis drives its simulator with the "
      "real tensors of training (§7.2: \"sparse input activation and weights extracted from "
      "the PyTorch framework\") and does not report their density; the shipped profile keeps "
      "activations dense, and standard training's output gradients dense. Post-ReLU activations "
      "are about half zero (Procrustes' profile uses 0.5); where a convolution feeds a ReLU "
      "directly — VGG-16, which has no batch normalization (Simonyan & Zisserman 2015, "
      "configuration D) — its output gradient in standard training is zero wherever the ReLU "
      "was off, so GSCN already skips about half of standard training's back-propagation "
      "products there; ResNets pass dy through batch normalization, which makes it dense. "
      "ReSprop's SpHG is 10 % dense either way (its threshold sets it). Each column gives both "
      "trainings the same activations:")
    w("")
    w("| network | x dense (as shipped) | x at 0.5 | x at 0.5, dy ReLU-masked in standard "
      "training | paper | ratio (last column) |")
    w("|---|---:|---:|---:|---:|---:|")
    relu_ratio = {}
    for net in networks:
        ratio50 = (cycles(standard_x50[net], ("bw", "wu"), "total_cycles") /
                   cycles(x50[net], ("bw", "wu"), "total_cycles"))
        relu_ratio[net] = (cycles(standard_relu[net], ("bw", "wu"), "total_cycles") /
                           cycles(x50[net], ("bw", "wu"), "total_cycles"))
        if net in TABLE_7_8:
            paper = paper_ratio(net)
            tail = "%.2f× | %.2f" % (paper, relu_ratio[net] / paper)
            if net == "vgg16":  # no batch normalization between its convolutions and ReLUs
                targets.alternative(CLAIM_GSCN, LABEL[net], "dy ReLU-masked in standard "
                                    "training (no batch normalization)", relu_ratio[net] / paper)
        else:
            tail = "— | —"
        w("| %s | %.2f× | %.2f× | %.2f× | %s |" % (LABEL[net], gscn[net], ratio50,
                                                  relu_ratio[net], tail))
    w("")
    missed = [n for n in networks if n in TABLE_7_8 and
              abs(gscn[n] / paper_ratio(n) - 1) > TOLERANCE]
    if missed:
        notes = {n: [] for n in missed}
        for n in missed:
            bigger = backprop_speedup(larger_budget[n])
            notes[n].append("with a search four times larger (budget %d) %.2f×, %.2f of the "
                            "thesis's figure (the mapping table below)"
                            % (larger.budget, bigger,
                               bigger / paper_ratio(n)))
        if "vgg16" in missed:
            notes["vgg16"].append(
                "with ReLU-masked output gradients in standard training (the last column) "
                "trainloop gives %.2f×, %.2f of the thesis's 5.68×; the shipped profile's dense "
                "standard training overstates ReSprop's gain on a network without batch "
                "normalization" % (relu_ratio["vgg16"], relu_ratio["vgg16"] / 5.68))
        if "resnet34" in missed:
            notes["resnet34"].append(
                "the thesis's ratio (4.43×) is two thirds of its ResNet-18 one (6.52×) although "
                "ResNet-34 is built of the same layer shapes (He et al. 2016, Table 1: the same "
                "3×3 convolutions at the same four resolutions, only more blocks); trainloop's "
                "per-layer costs are the same for both networks, so its two ratios are close "
                "(%.2f× and %.2f×). What makes the thesis's ResNet-34 gain less it does not "
                "say; of its two rows, the standard-training one is what departs from the "
                "layer shapes (\"Table 7.8's two GSCN rows, each on its own\", below)"
                % (gscn.get("resnet18", float("nan")), gscn["resnet34"]))
        w("Where a target is missed: " + "; ".join(
            "%s: %s" % (LABEL[n], "; ".join(notes[n])) for n in missed) + ".")
        w("")
        mac_share = {n: backprop_speedup(steady[n]) / mac_ratio(steady[n])
                     for n in networks}
        w("Not explained: trainloop's GSCN keeps %.0f–%.0f %% of the MAC ratio (the first "
          "table), the thesis's GSCN %.0f–%.0f %% of its own (Table 7.8: GSCN+ReSprop over "
          "GSCN+Baseline against the theoretical row). trainloop evaluates GSCN as a loop nest "
          "that issues only effectual MACs, with the load imbalance of its fixed filter "
          "assignment (`arch_specs/%s.yaml`: a Cartesian-product PE with a perfect predictor of "
          "unused products), and as its own Cartesian-product dataflow with the products its "
          "predictor does not skip (§6.5) and accumulator-bank stalls (the last column: %.0f–%.0f "
          "%% of the conv layers' MAC ratio, %.0f×; `cartesian` evaluates convolutions only). "
          "Both lose little to ReSprop's sparse operands, because what they add is proportional "
          "to the products issued, which SpHG cuts tenfold in both convolutions. The thesis's "
          "cycle-level simulator (DNNsim, §7.5.4) does not break its cycles down, so what costs "
          "ReSprop's sparse operands more there than standard training's dense ones cannot be "
          "read from it. The remaining candidate is memory stalls, which do not shrink with the "
          "products; the thesis describes no memory system for GSCN beyond Table 7.9's buffers, "
          "which it sized to be \"sufficient for all forward and backward pass convolutions\" "
          "(§7.5.4), and the last table of this section shows how far a DRAM bandwidth moves "
          "the ratio, DNNsim's own included; but DNNsim's cycle count for SCNN, the one the thesis "
          "extends, has no memory in it (that table's text), and if the thesis's figures are "
          "that count, memory stalls are not the cause either. "
          "The candidates trainloop can vary do not close the "
          "gap: the search has converged (budget %d gives the same figure), SpHG's nonzeros "
          "gathered in some output channels move it little (the table after the next), and "
          "GSCN's own dataflow gives the same (the last column, and over the whole network "
          "with the fully connected layers, the table after it, whose weight gradient also "
          "shows that the thesis's GSCN did not run that convolution as the dataflow the "
          "thesis describes would); with the zeros falling at "
          "random, as in the thesis's real tensors, its per-step wait takes a part of it (the "
          "table under the last column). One candidate lies outside the evaluators: how dense "
          "SpHG was in the tensors the thesis simulated, which the authors' released code sets "
          "above 10 %% (\"Assumption: how dense SpHG is\", below).%s"
          % (100 * min(mac_share.values()), 100 * max(mac_share.values()),
             100 * min(paper_ratio(n) / TABLE_7_8[n][0] for n in TABLE_7_8),
             100 * max(paper_ratio(n) / TABLE_7_8[n][0] for n in TABLE_7_8),
             args.arch,
             100 * min(cp_ratio[n] / cp_macs[n] for n in networks),
             100 * max(cp_ratio[n] / cp_macs[n] for n in networks),
             sum(cp_macs.values()) / len(cp_macs),
             larger.budget,
             " §8's figures, read with this table's through their common GPU, tell these "
             "candidates apart for %s: they ask for a loss that only GSCN with ReSprop bears, as "
             "the per-step wait of random zeros is and a denser SpHG is not (the section on §8, "
             "\"Table 7.8's candidates against the same figures\")." % and_list(
                 [LABEL[n] for n in networks if only_random_zeros_keep_the_ratio(cp_cycles, n)])
             if any(only_random_zeros_keep_the_ratio(cp_cycles, n) for n in networks) else ""))
        w("")

    # ---- 3. Whole training.
    w("Assumption: the mapping. DNNsim runs GSCN's own dataflow; trainloop searches a "
      "loop-nest mapspace (%s). The same ratio with a search four times larger, which shows "
      "whether the search has converged, and with other dataflows (each training gets its own "
      "best mapping found). This document as of commit 9850196 searched at random with 200 "
      "evaluations per problem for the lowest energy-delay product: that left standard "
      "training's mappings far from their fewest cycles and gave ratios that looked close "
      "to the thesis for the wrong reason:" % search)
    w("")
    w("| network | `%s` (as shipped) | `%s`, budget %d | %s |"
      % (DATAFLOW, DATAFLOW, larger.budget, " | ".join("`%s`" % d for d in OTHER_DATAFLOWS)))
    w("|---|---:|---:|" + "---:|" * len(OTHER_DATAFLOWS))
    for net in networks:
        cells = ["%.2f×" % backprop_speedup(larger_budget[net])]
        cells += ["%.2f×" % backprop_speedup(other_dataflows[(net, dataflow)])
                  for dataflow in OTHER_DATAFLOWS]
        w("| %s | %.2f× | %s |" % (LABEL[net], gscn[net], " | ".join(cells)))
    w("")
    w("Assumption: where SpHG's nonzeros lie. The thesis keeps the components of the output "
      "gradient that changed most (eq. 5.3) and gives no distribution; the shipped profile "
      "spreads them uniformly. If they gather in some output channels, the PEs holding those "
      "channels' filters (Alg. 4) get more work. Each column draws every output channel's "
      "density from a beta distribution with mean 0.1 and the coefficient of variation shown "
      "(`resprop_profile.py --dy-cluster-cv`):")
    w("")
    w("| network | uniform (as shipped) | %s | paper |"
      % " | ".join("per channel, cv %g" % cv for _, cv in CLUSTER_CVS))
    w("|---|---:|" + "---:|" * len(CLUSTER_CVS) + "---:|")
    for net in networks:
        cells = ["%.2f×" % backprop_speedup(clustered[(net, name)]) for name, _ in CLUSTER_CVS]
        paper = ("%.2f×" % paper_ratio(net)) if net in TABLE_7_8 else "—"
        w("| %s | %.2f× | %s | %s |" % (LABEL[net], gscn[net], " | ".join(cells), paper))
    w("")
    w("Assumption: GSCN's DRAM bandwidth. The thesis gives none (Table 7.9 lists only each "
      "PE's buffers, sized to be \"sufficient for all forward and backward pass "
      "convolutions\", §7.5.4: it expects no operand to be read from DRAM twice), and "
      "`arch_specs/%s.yaml` leaves the DRAM unlimited. DNNsim, the "
      "simulator the thesis extends (§7.5.4), has two tasks for SCNN (github.com/isakedo/"
      "DNNsim): `Cycles`, which counts the PEs' cycles with no memory at all, in every version; "
      "and, in the versions of 8 November to 14 December 2019 only (from commit 8105a32; "
      "removed in 266b329), `OnChipCycles`, which also waits for a DRAMSim2 memory ticked once "
      "per accelerator cycle: from 13 November (7d44be5) two 64-bit DDR channels, 2 · 64 · 2 = "
      "256 bits, 16 16-bit words per cycle that reads and writes share (before, one channel, "
      "half of it; `main.cpp`, `DRAMSim2/system.ini`). The thesis (June 2020) does not say "
      "which it ran. Each column limits GSCN's DRAM to the 16-bit words per cycle shown, each "
      "way (at SCNN's 1 GHz, 64 words are 128 GB/s), or, in the last column, DNNsim's: 16 "
      "words per cycle on one bus for reads and writes together (`shared_bandwidth`); both trainings are mapped again on "
      "it:" % args.arch)
    w("")
    w("| network | unlimited (as shipped) | %s | paper |"
      % " | ".join(dram_label(bw) for bw in DRAM_BANDWIDTHS))
    w("|---|---:|" + "---:|" * len(DRAM_BANDWIDTHS) + "---:|")
    bracketed = []
    for net in networks:
        limited = [backprop_speedup(dram_limited[(net, bw)]) for bw in DRAM_BANDWIDTHS]
        paper = ("%.2f×" % paper_ratio(net)) if net in TABLE_7_8 else "—"
        w("| %s | %.2f× | %s | %s |" % (LABEL[net], gscn[net],
                                        " | ".join("%.2f×" % v for v in limited), paper))
        if net in TABLE_7_8 and min(limited + [gscn[net]]) <= paper_ratio(net) <= max(
                limited + [gscn[net]]):
            bracketed.append(net)
    w("")
    w("A slower DRAM takes more from ReSprop's training than from standard training: the "
      "words of the dense operand (x in wu, w in bw) and of the results move whatever SpHG's "
      "density, while the products fall tenfold, so ReSprop's phases become memory-bound "
      "first. %s The thesis does not give its bandwidth, so this is a candidate for the gap, "
      "not a reproduction of it; no bandwidth is chosen here to match a figure." % (
          ("The thesis's ratios for %s lie within the range these bandwidths span."
           % and_list([LABEL[n] for n in bracketed])) if bracketed else
          "None of the thesis's ratios lies within the range these bandwidths span."))
    w("")
    dnnsim_cells = []
    dnnsim_within = []
    dnnsim_below = []  # below the target's band: the memory takes more than the gap
    for net in networks:
        if net not in TABLE_7_8:
            continue
        value = backprop_speedup(dram_limited[(net, DNNSIM_DRAM)])
        ratio = value / paper_ratio(net)
        targets.alternative(CLAIM_GSCN, LABEL[net], "DNNsim's OnChipCycles DRAM", ratio)
        if within_target(ratio):
            dnnsim_within.append(LABEL[net])
        elif ratio < 1:
            dnnsim_below.append(LABEL[net])
        dnnsim_cells.append("%s %.2f× (thesis %.2f×, ratio %.2f, %s)" % (
            LABEL[net], value, paper_ratio(net), ratio,
            target_verdict(ratio)))
    w("With DNNsim's `OnChipCycles` DRAM (the last column): %s. %s%s If the thesis's figures "
      "are `Cycles`, they hold no memory stall, and its gap stays as \"Not explained\" above "
      "says."
      % ("; ".join(dnnsim_cells),
         ("If the thesis's figures are that task's, its memory gives %s within ±20 %%." %
          and_list(dnnsim_within)) if dnnsim_within else
         "Even that memory leaves every network outside ±20 % of the thesis.",
         (" For %s it takes more than the gap (more than 20 %% below the thesis's ratio), so a "
          "memory that slow does not explain %s either." % (
              and_list(dnnsim_below), "them" if len(dnnsim_below) > 1 else "it"))
         if dnnsim_below else ""))
    if "resnet18" in networks and "resnet34" in networks:
        order = [backprop_speedup(dram_limited[("resnet34", bw)]) >
                 backprop_speedup(dram_limited[("resnet18", bw)]) for bw in DRAM_BANDWIDTHS]
        if all(order):
            w("")
            w("At every bandwidth trainloop's ResNet-34 gains more than its ResNet-18, as without "
              "a limit; the thesis's gains less (4.43× against 6.52×), so a bandwidth alone does "
              "not give the thesis's order of the two networks.")
    w("")
    write_code_density(w, networks, steady, gscn, code_density, targets)
    write_gpu_rows(w, networks, steady)
    w("## §7.5.3: whole-training speed-up")
    w("")
    w("Paper: \"at 90 %% reuse-sparsity, ImageNet can be trained 2.5× to 3.0× (on average 2.7×) "
      "faster using ReSprop\" (§7.5.3, Fig. 7.3, with the pre-ReSprop and thresholding "
      "overheads). trainloop, two ways: from the MACs of one iteration at 90 %% RS and minibatch "
      "%d, with one sample's bw and wu added for pre-ReSprop; and on GSCN over the whole run "
      "(%s iterations of %d, 90 epochs, W-ReSprop), cycles of dense training on GSCN over those "
      "of ReSprop plus pre-ReSprop." % (TRAIN_BATCH, "{:,}".format(run_iterations), TRAIN_BATCH))
    w("")
    w("| network | MACs: trainloop | ratio to 2.7× | target | met | on GSCN, whole run | "
      "pre-ReSprop share of the GSCN run | GSCN, 8 warm-up epochs | GSCN's own dataflow, "
      "whole run |")
    w("|---|---:|---:|---|---|---:|---:|---:|---:|")
    macs_speedups, gscn_speedups, own_speedups = [], [], []
    own_fw_shares = [own[n]["fw"]["dense_total_cycles"] /
                     cycles(own[n], ("fw", "bw", "wu"), "dense_total_cycles") for n in networks]
    for net in networks:
        runs = steady[net]
        per_sample_all = sum(runs[p]["total_macs"] for p in ("fw", "bw", "wu")) / GSCN_BATCH
        per_sample_eff = (runs["fw"]["effectual_macs"] + bw_effectual(runs)) / GSCN_BATCH
        pre_macs = bw_macs(runs) / GSCN_BATCH  # one sample's bw and wu
        macs_speedup = (per_sample_all * TRAIN_BATCH) / (per_sample_eff * TRAIN_BATCH + pre_macs)
        macs_speedups.append(macs_speedup)
        pre_cycles = sum(pre[net][p]["dense_total_cycles"] for p in ("bw", "wu"))
        run = whole[net]
        on_gscn = run["dense_total_cycles"] / (run["total_cycles"] + pre_cycles)
        on_gscn8 = whole8[net]["dense_total_cycles"] / (whole8[net]["total_cycles"] + pre_cycles)
        gscn_speedups.append(on_gscn)
        own_pre_cycles = sum(own_pre[net][p]["dense_total_cycles"] for p in ("bw", "wu"))
        on_own = own_whole[net]["dense_total_cycles"] / (own_whole[net]["total_cycles"] +
                                                         own_pre_cycles)
        own_speedups.append(on_own)
        ratio = macs_speedup / WHOLE_RUN[2]
        targets.add(CLAIM_WHOLE, LABEL[net], "%g×" % WHOLE_RUN[2], "%.2f×" % macs_speedup, ratio)
        w("| %s | %.2f× | %.2f | ±%d %% | %s | %.2f× | %.2f %% | %.2f× | %.2f× |"
          % (LABEL[net], macs_speedup, ratio, 100 * TOLERANCE,
             "yes" if abs(ratio - 1) <= TOLERANCE else "**no**", on_gscn,
             100 * pre_cycles / (run["total_cycles"] + pre_cycles), on_gscn8, on_own))
    mean_macs = sum(macs_speedups) / len(macs_speedups)
    mean_gscn = sum(gscn_speedups) / len(gscn_speedups)
    w("")
    w("Means: %.2f× from the MACs (paper 2.7×, ratio %.2f), %.2f× on GSCN (the thesis gives "
      "the whole-training speed-up in theory only; GSCN's figure is trainloop's own). Direction: "
      "right (faster) for every network. Why trainloop's MAC figure "
      "sits at the low end of the range: it weighs the phases by their MACs, where back-"
      "propagation is two thirds of the work (a little less: the first layer has no input "
      "gradient); the thesis's own Amdahl computation (§8) weighs them by time, \"the backward "
      "pass takes 70 %% training time\", which gives 1 / (0.3 + 0.7/10) = 2.70×. On GSCN the "
      "forward pass is unchanged and the backward pass gains what the table above shows, so the "
      "whole run gains less than the MACs say; pre-ReSprop runs one sample at a time, which "
      "leaves three of GSCN's four tiles idle (the thesis overlaps it with the forward pass, "
      "§5.1; here it is added in series). The last column runs the same whole run (ReSprop "
      "and pre-ReSprop against dense training) on GSCN's own dataflow (`train-cost --evaluator "
      "cartesian`, above): %.2f× on average, far above the MACs' figure because the forward "
      "pass is only %.1f–%.1f %% of standard training's cycles there (minibatch %d): standard "
      "training's weight gradient takes most of that dataflow's cycles and SpHG cuts them "
      "tenfold (\"wu's share\" in that table, and why it is not the thesis's GSCN)." %
      (mean_macs, mean_macs / WHOLE_RUN[2], mean_gscn, sum(own_speedups) / len(own_speedups),
       100 * min(own_fw_shares), 100 * max(own_fw_shares), GSCN_BATCH))
    w("")
    w("## Table 6.1: unused Cartesian products of SCNN's weight-gradient convolution")
    w("")
    w("Paper: \"the percentage of the cartesian product (4 × 4) that its products are not "
      "useful (all the 16 products are not used) over the total number of cartesian products\" "
      "for the weight-gradient convolution on SCNN, I = F = 4, 64 PEs (§6.3.1). trainloop: "
      "`trainloop cartesian --phase wu` (`engine/eval/cartesian_product.hpp`, "
      "docs/cartesian_product.md): the exact count, for dense operands, of the input vectors × "
      "filter vectors of every PE in which no product is used, summed over the conv layers (the "
      "FC layer is no convolution). Configuration: %s PEs, F×I = %s, %d accumulator banks."
      % (SCNN_PES, SCNN_VECTORS, SCNN_BANKS))
    w("")
    w("| network | paper | trainloop | ratio | target | met | outside the output too | "
      "GSCN's untiled input | vectors 2×2 | unused products | bank stall per product cycle |")
    w("|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|")
    for net, paper in TABLE_6_1.items():
        main_run = cartesian[(net, "negative-only", SCNN_PES)]["totals"]["wu"]
        strict = cartesian[(net, "outside-output", SCNN_PES)]["totals"]["wu"]
        untiled = cartesian[(net, "negative-only", "1x1")]["totals"]["wu"]
        small = cartesian[(net, "negative-only", "2x2vec")]["totals"]["wu"]
        ours = main_run["all_unused_pct"]
        ratio = ours / paper
        targets.add(CLAIM_UNUSED, LABEL[net], "%.2f %%" % paper, "%.2f %%" % ours, ratio)
        w("| %s | %.2f %% | %.2f %% | %.3f | ±%d %% | %s | %.2f %% | %.2f %% | %.2f %% | "
          "%.2f %% | %.3f |"
          % (LABEL[net], paper, ours, ratio, 100 * TOLERANCE,
             "yes" if abs(ratio - 1) <= TOLERANCE else "**no**", strict["all_unused_pct"],
             untiled["all_unused_pct"], small["all_unused_pct"], main_run["unused_pct"],
             cartesian[(net, "negative-only", SCNN_PES)]["conflict_stall_per_cycle"]))
    w("")
    r18 = cartesian[("resnet18", "negative-only", SCNN_PES)]["totals"]["wu"]["all_unused_pct"]
    r34 = cartesian[("resnet34", "negative-only", SCNN_PES)]["totals"]["wu"]["all_unused_pct"]
    w("What counts as unused is the assumption that moves the result. The thesis calls a "
      "product unused when its output coordinate is negative (§6.5: \"(w − r) < 0 or "
      "(h − s) < 0\", the test its predictor applies, and Fig. 6.5), and that is trainloop's "
      "figure (`--unused-rule negative-only`). A product whose coordinate lies past the far "
      "edge of the R × S weight gradient is also thrown away; counting those too "
      "(`outside-output`, trainloop's default) leaves almost no Cartesian product with a used "
      "product, the column \"outside the output too\". The other columns show what the thesis "
      "leaves open and how little it moves: the planar tiling (64 PEs as 8 × 8 tiles of the "
      "input plane, SCNN §IV) against no tiling, and 2 × 2 vectors instead of 4 × 4. Operands "
      "are dense: the thesis does not say whether Table 6.1 ran with ReSprop's sparse output "
      "gradients; with sparse operands each vector of nonzeros spans more positions (not "
      "modelled, docs/cartesian_product.md). \"Unused products\" is the share of single "
      "products (not Cartesian products) unused under the same rule, the same at any density. "
      "The bank stall is the expected fullest of 32 banks minus one, 16 products hashed "
      "uniformly per cycle, an upper bound for SCNN's queued crossbar; the thesis gives no "
      "figure for it.")
    w("")
    w("Direction: %s. The paper's ResNet-34 share is above ResNet-18's (69.6 %% against "
      "64.9 %%); trainloop's are %.2f %% and %.2f %%, %s. ResNet-34 adds 3 × 3 layers at every "
      "resolution in the same proportions, so the share barely moves in trainloop; the thesis "
      "does not say what made its two networks differ by 4.7 points."
      % ("both far above half, as the thesis says (\"about 60 % of products are not useful\", "
         "§6.5)" if min(r18, r34) > 50 else "**wrong**", r18, r34,
         "the same order" if r34 > r18 else "in the other order by %.2f points" % (r18 - r34)))
    w("")
    # ---- 5. The predictor, and GSCN against SCNN.
    w("## §6.5 and Fig. 7.4: GSCN's predictor; §8: GSCN against SCNN")
    w("")
    w("Paper: GSCN's predictor skips the rest of the filter stream for an input vector once a "
      "filter vector's products all have a negative width coordinate (§6.5, Alg. 5); \"since "
      "about 60%% of products are not useful in the gradients of weight convolution, ideally, "
      "we would get about 2× speedups\" (§6.5), and measured: \"adding predictor has made "
      "gradient of weight calculation about 2× faster, as we expected\" (§7.5.4, Fig. 7.4, "
      "training with ReSprop). §8: \"GSCN achieves 6× and 5.5× speed up on ResNet18 and "
      "ResNet34 back-propagation, respectively, compared to\" SCNN. trainloop: `trainloop "
      "cartesian` (docs/cartesian_product.md), %s PEs, F×I = %s, %d banks (Table 7.9), "
      "batch 1; GSCN `--tiling split-filters` with and without `--predictor`, SCNN `--tiling "
      "planar`; the slowest PE's cycles, bank stalls included, summed over the conv layers; "
      "ReSprop's SpHG at density 0.1 (the steady profile), standard training dense."
      % (SCNN_PES, SCNN_VECTORS, SCNN_BANKS))
    w("")
    w("| network | wu, predictor on / off: standard training | with ReSprop | paper | ratio | "
      "target | met | bw + wu, GSCN over SCNN of equal size: with ReSprop | standard "
      "training |")
    w("|---|---:|---:|---:|---:|---|---|---:|---:|")
    predictor_gain, over_scnn = {}, {}
    for net in networks:
        def gain(name):
            return (backprop_cycles(cp_cycles[(net, "gscn_no_predictor", name)], ("wu",)) /
                    backprop_cycles(cp_cycles[(net, "gscn", name)], ("wu",)))

        def versus_scnn(name):
            return (backprop_cycles(cp_cycles[(net, "scnn", name)]) /
                    backprop_cycles(cp_cycles[(net, "gscn", name)]))
        predictor_gain[net] = gain("steady")
        over_scnn[net] = versus_scnn("steady")
        ratio = predictor_gain[net] / PREDICTOR_SPEEDUP
        targets.add(CLAIM_PREDICTOR, LABEL[net], "about %g×" % PREDICTOR_SPEEDUP,
                    "%.2f×" % predictor_gain[net], ratio)
        cells = ["%.2f×" % gain("dense"), "%.2f×" % predictor_gain[net],
                 "about %g×" % PREDICTOR_SPEEDUP, "%.2f" % ratio, "±%d %%" % (100 * TOLERANCE),
                 "yes" if abs(ratio - 1) <= TOLERANCE else "**no**",
                 "%.2f×" % over_scnn[net], "%.2f×" % versus_scnn("dense")]
        w("| %s | %s |" % (LABEL[net], " | ".join(cells)))
    w("")
    w("The predictor: direction right and within the target for every network (%s with "
      "ReSprop). For an input at width w the stream runs only to dy's width w + pad, about half "
      "of it: it removes the products of negative coordinate, the thesis's \"about 60%% of "
      "products are not useful\" and its \"about 2×\". The products past the far edge of "
      "the R × S weight gradient are not negative, so it cannot skip them (Table 6.1's "
      "\"outside the output too\")."
      % ", ".join("%s %.2f×" % (LABEL[n], predictor_gain[n]) for n in networks))
    w("")
    w("GSCN against SCNN of equal size, the two dataflows side by side: %s (%s). In this "
      "model the two arrays differ in exactly what §6.4 and §6.5 describe: the predictor, "
      "which halves the weight-gradient convolution that dominates both arrays' cycles, and "
      "the tiling, which keeps GSCN's PEs busy on the small planes of the deep layers where "
      "SCNN's planar tiles hold a position or two (§6.3.1: \"the 16x16 input can not be "
      "divided between 64 PEs\"). The thesis's SCNN also exchanges halos between PEs (§6.3), "
      "which GSCN does not need (§6.4), and runs in DNNsim with buffer and DRAM stalls; it "
      "does not say how much of its 6× comes from which. §8's figures are compared at the "
      "thesis's sizes of the two arrays, below." % (
          "GSCN faster for every network" if all(over_scnn[n] > 1 for n in networks) else
          "**SCNN faster** for %s" % and_list([LABEL[n] for n in networks
                                               if over_scnn[n] <= 1]),
          ", ".join("%s %.2f×" % (LABEL[n], over_scnn[n]) for n in networks)))
    w("")
    write_scnn_per_convolution(w, networks, cp_cycles)

    def sized_over_scnn(net, name="steady"):
        return (backprop_cycles(cp_cycles[(net, "scnn_64", name)]) /
                backprop_cycles(cp_cycles[(net, "gscn_tiles", name)]))

    def equal_over_scnn_random(net):
        return (backprop_cycles(cp_cycles[(net, "scnn", "steady_random")]) /
                backprop_cycles(cp_cycles[(net, "gscn", "steady_random")]))
    w("§8 at the thesis's sizes. The thesis's SCNN has \"in total 64 PEs\" (§6.3.1, as "
      "SCNN's own design), and GSCN %d tiles of 64 (Table 7.9), tiles being how GSCN runs a "
      "minibatch, each tile on different samples (§6.5): the sizes the thesis states, and the "
      "figure compared (as shipped). §8 does not restate them; the same arrays of %s PEs, "
      "the table above, are the alternative. At the thesis's sizes and GSCN's minibatch of %d "
      "(§7.2; `--tiles %d` against `--tiles %d`), each GSCN tile runs a quarter of the samples "
      "that SCNN's one array runs in turn:"
      % (GSCN_TILES, SCNN_PES, GSCN_BATCH, GSCN_TILES, SCNN_TILES))
    w("")
    w("| network | GSCN %d × 64 PEs over SCNN 64 PEs | paper | ratio | target | met | equal "
      "arrays (above) | ratio | random zeros: the thesis's sizes | equal arrays |" % GSCN_TILES)
    w("|---|---:|---:|---:|---|---|---:|---:|---:|---:|")
    for net in networks:
        paper = GSCN_OVER_SCNN.get(net)
        if paper:
            r = sized_over_scnn(net) / paper
            targets.add(CLAIM_SCNN, LABEL[net], "%g×" % paper, "%.2f×" % sized_over_scnn(net),
                        r)
            targets.alternative(CLAIM_SCNN, LABEL[net], "arrays of equal size (%s PEs each)"
                                % SCNN_PES, over_scnn[net] / paper)
            targets.alternative(CLAIM_SCNN, LABEL[net], "random zeros (DNNsim's per-step wait)",
                                sized_over_scnn(net, "steady_random") / paper)
        w("| %s | %.2f× | %s | %s | %s | %s | %.2f× | %s | %.2f× | %.2f× |" % (
            LABEL[net], sized_over_scnn(net), "%g×" % paper if paper else "—",
            ratio_text(sized_over_scnn(net) / paper) if paper else "—",
            "±%d %%" % (100 * TOLERANCE) if paper else "—",
            ("yes" if within_target(sized_over_scnn(net) / paper) else "**no**") if paper
            else "—", over_scnn[net], ratio_text(over_scnn[net] / paper) if paper else "—",
            sized_over_scnn(net, "steady_random"), equal_over_scnn_random(net)))
    w("")
    w("Direction: %s. The last two columns let the zeros fall at random (`--zeros random`, "
      "the assumption under Table 7.8): SCNN's PEs split the planes, GSCN's the filters, and "
      "each waits at every step for its slowest PE."
      % ("right (GSCN faster) for every network at both sizes"
         if all(min(sized_over_scnn(n), over_scnn[n]) > 1 for n in networks) else
         "**wrong** (SCNN faster) for %s" % and_list(
             [LABEL[n] for n in networks if min(sized_over_scnn(n), over_scnn[n]) <= 1])))
    w("")
    sizes_agree = write_scnn_reading_check(w, networks, cp_cycles)

    def priced_over_scnn(net, design, limit):
        return (backprop_cycles(priced_cp[(net, design, limit)], key="cycles") /
                backprop_cycles(priced_cp[(net, "gscn", limit)], key="cycles"))
    cells = []
    for net in networks:
        paper = GSCN_OVER_SCNN.get(net)
        dram = {d: priced_over_scnn(net, d, "dnnsim") for d in ("scnn_equal", "scnn_64")}
        if paper:
            targets.alternative(CLAIM_SCNN, LABEL[net], "DNNsim's DRAM on both",
                                dram["scnn_64"] / paper)
        cells.append("%s %.2f× and %.2f× (unlimited: %.2f× and %.2f×)%s" % (
            LABEL[net], dram["scnn_equal"], dram["scnn_64"],
            priced_over_scnn(net, "scnn_equal", "unlimited"),
            priced_over_scnn(net, "scnn_64", "unlimited"),
            "; thesis %g×" % paper if paper else ""))
    dram_moves = max(abs(priced_over_scnn(n, d, "dnnsim") / priced_over_scnn(n, d, "unlimited")
                         - 1) for n in networks for d in ("scnn_equal", "scnn_64"))
    w("Assumption: the thesis's SCNN runs in DNNsim with DRAM stalls. With DNNsim's "
      "`OnChipCycles` DRAM on both arrays (%s; the subsection on GSCN's DRAM bandwidth under "
      "Table 7.8), each layer-phase at least as long as its compulsory off-chip words take at "
      "that bandwidth (`cartesian --arch` on copies of `%s` with SCNN's array, minibatch %d), "
      "GSCN over SCNN at equal arrays and at the thesis's sizes: %s. The DRAM moves GSCN's "
      "advantage by %.1f %% at most%s."
      % (dram_label(DNNSIM_DRAM), args.arch, GSCN_BATCH, "; ".join(cells), 100 * dram_moves,
         ": both arrays' back-propagation is bound by its products, not by that memory, so "
         "DRAM stalls do not explain the rest of the gap" if dram_moves < 0.05 else ""))
    w("")
    between = [n for n in GSCN_OVER_SCNN
               if over_scnn[n] < GSCN_OVER_SCNN[n] < sized_over_scnn(n)]
    sized_met = [n for n in GSCN_OVER_SCNN
                 if abs(sized_over_scnn(n) / GSCN_OVER_SCNN[n] - 1) <= TOLERANCE]
    order_thesis = GSCN_OVER_SCNN["resnet18"] > GSCN_OVER_SCNN["resnet34"]
    order_sized = sized_over_scnn("resnet18") > sized_over_scnn("resnet34")
    unattributed = [n for n in GSCN_OVER_SCNN if n not in sizes_agree]
    w("%s %s At the thesis's sizes ResNet-%s gains more%s. %s" % (
          "The thesis's figures lie between the two readings for %s, so the size of the SCNN "
          "array moves this comparison more than anything else modelled here." % and_list(
              [LABEL[n] for n in between]) if between else
          "The thesis's figures do not lie between the two readings.",
          "At the thesis's sizes the target is met for %s." % and_list(
              [LABEL[n] for n in sized_met]) if sized_met else
          "Neither reading is within ±%d %% of the thesis's figures." % (100 * TOLERANCE),
          "18" if order_sized else "34",
          ", as in the thesis" if order_sized == order_thesis else
          "; the thesis's ResNet-%s gains more" % ("18" if order_thesis else "34"),
          "The rest of the gap is not attributed for %s: §8 does not restate the arrays "
          "it compared, and the thesis breaks none of its cycles down." % and_list(
              [LABEL[n] for n in unattributed]) if unattributed else
          "The rest of the gap is Table 7.8's (above)."))
    w("")
    w("## Not reproduced yet")
    w("")
    w("- GSCN against the GTX 1080 Ti GPU (Table 7.8's rows themselves, Fig. 7.4, §8's 8.7× and "
      "7.1×): trainloop models no GPU.")
    w("- Accuracy (Tables 7.1–7.6): trainloop models cost, not convergence.")
    out[summary_at:summary_at] = [
        "## Targets at a glance", "",
        "Each figure of the thesis this document compares, as shipped (the setup above), and "
        "the ratio it takes under each sourced alternative a section below states and measures "
        "(an assumption where the thesis is silent, with its source there). The sections give "
        "each figure's direction and what is left unexplained.", ""] + \
        targets.lines("the sections below") + [""]
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote %s" % os.path.relpath(args.out, ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
