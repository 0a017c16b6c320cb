#!/usr/bin/env python3
"""Writes workloads/sparsity/eager_pruning.yaml, the sparsity profile of Eager
Pruning (Zhang et al., ISCA 2019): the pruning schedule of its Table 5 for the
shipped networks it trains.

The schedule (§3.1). Every prune_interval iterations EP removes the
prune_num smallest kernel weights, until pruning terminates. Table 5 gives,
per network, the iterations of training, the batch size, prune_num (its
initial value, P_numi), prune_interval (P_i), and the compression rate CR the
run ends with. Pruned weights stay pruned (a mask bit per weight, §4.3).
EP prunes convolution layers only in CNNs, and all the weight matrices in the
LSTM (§5.1: "In LSTM, EP is applied to all the weight matrices"; here every
MAC layer of lstm_timit: its input gates, its recurrence and its output
layer). So, with W the pruned weights of the network file:

    pruned(k) = min(k · prune_num, W · (1 − 1/CR))  after the k-th pruning,
                at iteration k · prune_interval,

and the density of every convolution layer's weights is 1 − pruned(k) / W
from that iteration on (a step schedule). The rule that ends pruning is the
CR: EP stops when its smoothed training loss says the network is over-pruned
(§3.1, eqs. (4)–(5)); trainloop has no loss, so pruning stops where Table 5's
CR is reached (the last step prunes only what is left).

The pruned weights' gradients are not computed in the weight update (§2.2
eq. (1): the kernel size is the output size of KU; §4.4: "the output of KU is
sparse"): the profile gives dw in wu the same schedule as a known-zero mask
(docs/sparse_evaluation.md).

Assumptions where the paper is silent (docs/training_run.md shows how much
they move the reduced computation):
  - every pruned layer is pruned to the same density (EP removes the
    globally smallest weights; how they split over layers is not reported);
  - the first pruning happens at iteration prune_interval (not 0);
  - no roll-back (roll-backs halve prune_num, §3.1; their number is not
    reported): `--first-prune-at-zero` and `--prune-num-scale` show the
    effect of the last two.

§3.2 also states the rule behind the hyperparameters: prune_interval 1/100 of
the run's iterations and prune_num 1/50 of the weights expected to be pruned,
so that pruning ends half-way through the run. Table 5 follows it for AlexNet,
ResNet-50 and ResNet-32 (prune_num within 4 % of it over this script's W) but
not for LeNet (prune_num 80 is a third of it, prune_interval 200 twice it).
`--hyperparameter-rule` replaces Table 5's prune_num and prune_interval with
the rule's, for every network. `--at-once` prunes to the CR at iteration 0: no
schedule that ends at the CR, with every pruned layer at one density, removes
more MACs over the run (a bound, not a reading of the paper).

    python3 workloads/tools/eager_pruning_profile.py               # rewrite the shipped profile
    python3 workloads/tools/eager_pruning_profile.py --prune-num-scale 0.5 -o FILE
    python3 workloads/tools/eager_pruning_profile.py --network lstm_timit=FILE -o FILE
"""

import argparse
import math
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import count_networks  # noqa: E402

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Eager Pruning Table 5: iterations, batch size, prune_num (initial),
# prune_interval, CR, and the RC (%) it reports (for the docs, never fitted).
TABLE_5 = {
    "alexnet": (450_000, 256, 29_358, 4_500, 2.61, 41.19),
    "resnet50": (2_400_000, 32, 281_459, 24_000, 2.37, 40.13),
    "googlenet": (5_000_000, 32, 120_076, 100_000, 3.43, 43.25),
    "nin": (450_000, 64, 128_443, 4_500, 1.56, 26.87),
    "lenet": (10_000, 64, 80, 200, 1.85, 38.06),
    "resnet32_cifar": (100_000, 128, 6_122, 1_000, 2.98, 44.86),
    "caffenet": (250_000, 256, 29_358, 2_500, 2.14, 34.63),  # FT: CaffeNet fine-tuned
    "lstm_timit": (400_000, 32, 52_072, 4_000, 3.58, 52.40),  # LSTM (1024 cells), TIMIT
}
ORDER = ["alexnet", "googlenet", "nin", "resnet50", "lenet", "resnet32_cifar", "caffenet",
         "lstm_timit"]
# §5.1: EP prunes every weight matrix of these (the others: convolutions only).
ALL_WEIGHT_MATRICES = {"lstm_timit"}


def pruned_layers(network, path=None):
    with open(path or os.path.join(HERE, network + ".yaml")) as f:
        spec = yaml.safe_load(f)
    types = {l["name"]: l.get("type") for l in spec["layers"]}
    return [(name, w) for name, w, _ in count_networks.count(spec)[5]
            if network in ALL_WEIGHT_MATRICES or types.get(name) == "conv"]


def hyperparameter_rule(iterations, weights, cr):
    """§3.2: "setting prune_interval as 1/100 of the total iterations and prune_num_max as
    1/50 of the number of weights expected to be pruned" -> (prune_num, prune_interval); the
    prune_num is rounded up to whole weights, so 50 prunings reach the CR."""
    return math.ceil(weights * (1 - 1 / cr) / 50), iterations // 100


def schedule(weights, prune_num, interval, cr, first_at_zero, at_once=False):
    """The (iteration, density) steps of the pruned layers; `at_once`: one step to 1/CR at
    iteration 0."""
    if at_once:
        return [(0, 1 / cr)]
    target = weights * (1 - 1 / cr)
    steps = math.ceil(target / prune_num)
    points = [] if first_at_zero else [(0, 1.0)]
    for k in range(1, steps + 1):
        pruned = min(k * prune_num, target)
        at = (k - 1) * interval if first_at_zero else k * interval
        points.append((at, 1 - pruned / weights))
    return points


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-o", "--output", default=os.path.join(HERE, "sparsity", "eager_pruning.yaml"))
    ap.add_argument("--first-prune-at-zero", action="store_true",
                    help="prune at iterations 0, P_i, 2 P_i, ... instead of P_i, 2 P_i, ...")
    ap.add_argument("--prune-num-scale", type=float, default=1.0,
                    help="scale prune_num (0.5: as after one roll-back)")
    ap.add_argument("--hyperparameter-rule", action="store_true",
                    help="prune_num and prune_interval by §3.2's rule (1/50 of the weights to "
                    "prune every 1/100 of the run) instead of Table 5's")
    ap.add_argument("--at-once", action="store_true",
                    help="prune to the CR at iteration 0 (the most MACs a schedule ending at "
                    "the CR removes; a bound)")
    ap.add_argument("--no-gradient-mask", action="store_true",
                    help="the weight update computes every gradient (dw dense): no output mask")
    ap.add_argument("--per-filter-cv", type=float, default=0.0, metavar="CV",
                    help="each filter keeps its own share of a layer's weights: the clustered "
                    "model, per filter, with this coefficient of variation (0: uniform, every "
                    "filter at the layer's density)")
    ap.add_argument("--network", action="append", default=[], metavar="NAME=FILE",
                    help="read network NAME from FILE instead of workloads/NAME.yaml (a variant "
                    "of its shape; the rule still matches the network name)")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="write rules for these networks only (default: all of Table 5)")
    args = ap.parse_args()
    if not args.prune_num_scale > 0:
        ap.error("--prune-num-scale must be > 0")
    if args.per_filter_cv < 0:
        ap.error("--per-filter-cv must be >= 0")
    malformed = [item for item in args.network if "=" not in item]
    if malformed:
        ap.error("--network expects NAME=FILE, got %r" % malformed[0])
    files = dict(item.split("=", 1) for item in args.network)

    out = []
    out.append("# Eager Pruning (Zhang et al., \"Eager Pruning: Algorithm and Architecture Support")
    out.append("# for Fast Training of Deep Neural Networks\", ISCA 2019): Table 5's pruning")
    out.append("# schedules. Generated by workloads/tools/eager_pruning_profile.py -- do not edit")
    out.append("# by hand; edit the script and rerun it. Schema: docs/sparsity_format.md.")
    if (args.first_prune_at_zero or args.prune_num_scale != 1.0 or args.no_gradient_mask
            or args.per_filter_cv > 0 or args.hyperparameter_rule or args.at_once):
        out.append("# Variant: --first-prune-at-zero=%s --prune-num-scale=%g "
                   "--no-gradient-mask=%s --per-filter-cv=%g --hyperparameter-rule=%s "
                   "--at-once=%s"
                   % (args.first_prune_at_zero, args.prune_num_scale, args.no_gradient_mask,
                      args.per_filter_cv, args.hyperparameter_rule, args.at_once))
    for name, path in sorted(files.items()):
        out.append("# Variant: network %s read from %s" % (name, path))
    out.append("sparsity_profile: eager_pruning")
    out.append("description: >-")
    out.append("  Eager Pruning: every prune_interval iterations the prune_num smallest")
    out.append("  convolution weights (LSTM: all weights) are pruned until Table 5's")
    out.append("  compression rate is reached;")
    out.append("  pruned weights' gradients are a known-zero mask in the weight update")
    out.append("source: \"Zhang et al., ISCA 2019: §3.1 (pruning policy), Table 5 (iterations, "
               "batch, prune_num, prune_interval, CR), §5.1 (conv layers only; LSTM: all weight "
               "matrices), §2.2 and §4.4 "
               "(KU's output is sparse)\"")
    if args.per_filter_cv > 0:
        # §4.1: "the computation entailed for one output differs significantly from another
        # in a sparse network"; by how much the paper does not say.
        out.append("model: {name: clustered, distribution: beta, cv: %g, unit: filter}   "
                   "# each filter keeps its own share (§4.1; the spread is an assumption)"
                   % args.per_filter_cv)
    else:
        out.append("model: uniform   # the smallest weights of a layer fall anywhere in it")
    out.append("")
    out.append("rules:")
    for net in args.only or ORDER:
        iterations, batch, prune_num, interval, cr, rc = TABLE_5[net]
        layers = pruned_layers(net, files.get(net))
        weights = sum(w for _, w in layers)
        if args.hyperparameter_rule:
            prune_num, interval = hyperparameter_rule(iterations, weights, cr)
        points = schedule(weights, prune_num * args.prune_num_scale, interval, cr,
                          args.first_prune_at_zero, args.at_once)
        prunings = sum(1 for _, d in points if d < 1)
        out.append("  # %s: Table 5: %d iterations, batch %d, %sprune_num %d, prune_interval %d, "
                   "CR %.2fx (RC %.2f %%)." % (net, iterations, batch,
                                               "by §3.2's rule " if args.hyperparameter_rule
                                               else "", prune_num, interval, cr, rc))
        out.append("  # %d pruned layers, %d weights; %d pruning%s, the last at iteration %d, "
                   "final density %.6f." % (len(layers), weights, prunings,
                                            "" if prunings == 1 else "s",
                                            points[-1][0], points[-1][1]))
        out.append("  - networks: %s" % net)
        out.append("    layers: [%s]" % ", ".join('"%s"' % n for n, _ in layers))
        out.append("    tensors: [w]" if args.no_gradient_mask else "    tensors: [w, dw]")
        out.append("    schedule:")
        out.append("      interpolation: step")
        out.append("      points:")
        for at, d in points:
            out.append("        - {iteration: %d, density: %.6f}" % (at, d))
    with open(args.output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
