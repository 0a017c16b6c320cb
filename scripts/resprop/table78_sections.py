"""The document's sections on Table 7.8: the theoretical row, GSCN's rows as a loop nest and
as its own dataflow, each assumption where the thesis is silent, and the rows against the GPU."""

import math

from reproduction_support import target_verdict, within_target

from .measures import (
    and_list, backprop_cycles, backprop_energy_ratio, backprop_milliseconds, backprop_speedup,
    bw_effectual, bw_macs, cycles, mac_ratio, only_random_zeros_keep_the_ratio, overhead_ops,
    paper_ratio)
from .readings import (
    CLUSTER_CVS, DATAFLOW, DNNSIM_DRAM, DRAM_BANDWIDTHS, OTHER_DATAFLOWS,
    RELEASED_CODE_DENSITY, dram_label)
from .thesis import (
    CLAIM_GSCN, CLAIM_THEORY, GPU_BACKWARD_MS, GPU_BENCHMARK_BATCH, GSCN_BATCH, GSCN_TILES,
    LABEL, TABLE_7_8, TOLERANCE)


def write_theoretical(w, res, targets):
    """Table 7.8's first row: the back-propagation MACs with and without ReSprop."""
    networks, steady, with_fc = res.networks, res.steady, res.with_fc
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


def write_gscn_rows(w, args, res, fig, targets):
    """Table 7.8's GSCN rows: ReSprop against standard training on GSCN, as a searched loop
    nest and as GSCN's own Cartesian-product dataflow."""
    networks, steady, at_edp, dense_array = res.networks, res.steady, res.at_edp, res.dense_array
    gscn, cp_ratio = fig.gscn, fig.cp_ratio
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
    for net in networks:
        runs = steady[net]
        ours = gscn[net]
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


def write_random_zeros(w, res, fig, targets):
    """Assumption: where the zeros fall (DNNsim's wait for the slowest PE at every step)."""
    cp_cycles, networks = res.cp_cycles, res.networks
    cp_ratio, cp_macs = fig.cp_ratio, fig.cp_macs
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


def write_standard_zeros(w, res, fig, targets):
    """Assumption: the zeros of standard training (activations, ReLU-masked output gradients)."""
    networks, standard_x50, x50 = res.networks, res.standard_x50, res.x50
    gscn, relu_ratio = fig.gscn, fig.relu_ratio
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
    for net in networks:
        ratio50 = (cycles(standard_x50[net], ("bw", "wu"), "total_cycles") /
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


def write_gap(w, args, res, fig):
    """Where Table 7.8's GSCN targets are missed, and what is not explained."""
    networks, larger_budget, larger = res.networks, res.larger_budget, res.larger
    steady, cp_cycles = res.steady, res.cp_cycles
    gscn, cp_ratio, cp_macs, relu_ratio = fig.gscn, fig.cp_ratio, fig.cp_macs, fig.relu_ratio
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


def write_mapping(w, res, fig):
    """Assumption: the mapping (a larger search, other dataflows)."""
    search, larger, networks = res.search, res.larger, res.networks
    larger_budget, other_dataflows = res.larger_budget, res.other_dataflows
    gscn = fig.gscn
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


def write_clusters(w, res, fig):
    """Assumption: where SpHG's nonzeros lie (per output channel)."""
    networks, clustered = res.networks, res.clustered
    gscn = fig.gscn
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


def write_dram(w, args, res, fig, targets):
    """Assumption: GSCN's DRAM bandwidth, DNNsim's included."""
    networks, dram_limited = res.networks, res.dram_limited
    gscn = fig.gscn
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
      "words per cycle on one bus for reads and writes together (`shared_bandwidth`); both "
      "trainings are mapped again on it:" % args.arch)
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
