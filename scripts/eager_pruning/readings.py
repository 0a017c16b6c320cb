"""What the runs read where the paper is silent or open to two readings: the variants of
the profile, of the specs and of the constraints, each with the source it rests on."""

import os

from reproduction_support import ROOT


GENERATOR = os.path.join(ROOT, "workloads", "tools", "eager_pruning_profile.py")

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

# EP's SCNN baseline (§5.2; arch_specs/eager_pruning_scnn_baseline.yaml), run as its own
# Cartesian-product dataflow (`trainloop cartesian --arch`). §5.2: "we multiply the
# performance of SCNN by 2 to estimate the real speedups", the input zeros EP's model of SCNN
# left out: applied to every SCNN figure, as the paper does.
SCNN_ARCH = "eager_pruning_scnn_baseline"

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

# Every array takes a count of samples or channels its rows or groups do not divide in
# partial steps, as hardware does (a sub-system's 32 CX rows take 48 output channels in two
# waves, the second half full): Timeloop's imperfect factors. The positions (P, Q, R, S)
# too only in run_windows' runs.
ARRAY_OPTIONS = ["--imperfect-factors"]


def ddr4_key(arch, words):
    """The key of the runs on `arch` with its DRAM at `words` per cycle, reads and writes
    together (ddr4_spec writes that spec)."""
    return "%s@dram%dshared" % (arch, words)


# The alternative of §5.4's section on positions: every array also takes the output and
# filter positions (P, Q, R, S) in partial steps, `--imperfect-windows` (FlexFlow's cycles
# are "the fewest cycles to complete each layer", §5.2); its runs' keys end in WINDOWS.
WINDOWS = "_windows"
