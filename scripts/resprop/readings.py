"""What the runs read where the thesis is silent: the profiles, the dataflows, the DRAM
bandwidths and the candidates for Table 7.8's gap, each with the source it rests on."""

import os

from reproduction_support import ROOT


GENERATOR = os.path.join(ROOT, "workloads", "tools", "resprop_profile.py")

NETWORKS = ["resnet18", "resnet34", "vgg16", "wrn_50_2"]

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


def dram_label(bandwidth):
    """A DRAM_BANDWIDTHS entry as a column heading."""
    words, shared = bandwidth
    return ("%d words per cycle, reads and writes together (DNNsim)" % words if shared
            else "%d words per cycle" % words)


# Table 7.8's candidates measured against §8's check at the thesis's sizes: (label, the
# cp_cycles name of the ReSprop runs, the section that states the assumption).
SIZED_CANDIDATES = [("as shipped", "steady", None),
                    ("random zeros", "steady_random", "the table of random zeros under "
                     "Table 7.8"),
                    ("SpHG at %g" % RELEASED_CODE_DENSITY, "steady_code",
                     "\"Assumption: how dense SpHG is\"")]

# Networks built of another's layer shapes, more of them: ResNet-34 of ResNet-18's (He et al.
# 2016, Table 1: the same 3×3 convolutions at the same four resolutions, only more blocks).
# What the thesis's figures ask of one on those layers then bears on the other (§8's section).
SAME_LAYER_SHAPES = {"resnet34": "resnet18"}
