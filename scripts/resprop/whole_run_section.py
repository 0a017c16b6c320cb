"""The document's section on §7.5.3: the whole-training speed-up."""

from .measures import bw_effectual, bw_macs, cycles
from .thesis import CLAIM_WHOLE, GSCN_BATCH, LABEL, TOLERANCE, TRAIN_BATCH, WHOLE_RUN


def write_whole_run(w, res, targets):
    """§7.5.3: the whole-training speed-up, from the MACs and on GSCN."""
    run_iterations, own, networks, steady = res.run_iterations, res.own, res.networks, res.steady
    pre, whole, whole8, own_pre = res.pre, res.whole, res.whole8, res.own_pre
    own_whole = res.own_whole
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
