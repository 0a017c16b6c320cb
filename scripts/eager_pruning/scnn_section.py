"""The document's section on EP's SCNN baseline: Fig. 19's SCNN bars, Fig. 21's kernel
update against the paper's own Eq. 7, and §5.4's SCNN-CX hybrid."""

from reproduction_support import ratio_text, target_verdict

from .measures import (
    eq7_utilization, geomean, hybrid_parts, hybrid_seconds, phase_cycles, phase_over_ideal,
    scnn_over_ideal)
from .paper import (
    CLAIM_FIG19_SCNN_DENSE, CLAIM_FIG19_SCNN_SPARSE, CLAIM_FIG21_SCNN_KU, CLAIM_OVER_HYBRID,
    LABEL, PAPER_OVER_HYBRID, PAPER_SCNN_DENSE_CGM, PAPER_SCNN_KU_GOOGLENET,
    PAPER_SCNN_SPARSE_CGM, SCNN_INPUT_ZEROS_FACTOR)
from .readings import SCNN_ARCH, SCNN_READINGS


def write_scnn_fig19(w, args, cnns, fig20, targets):
    """Fig. 19's SCNN bars: each phase of one iteration over the ideal dense case, per
    reading of the spec. Returns those figures by (reading, spread, phase), per network."""
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
    return over


def write_scnn_fig21(w, cnns, fig20, over, targets):
    """Fig. 21's SCNN kernel update on GoogLeNet, against the bound of the paper's own Eq. 7."""
    shipped = SCNN_READINGS[0][0]
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


def write_hybrid(w, cnns, fig20, runs, generator, targets):
    """§5.4's hybrid of SCNN (FP, BP) and CX (KU), at §5.2's equal resources and as two arrays."""
    shipped = SCNN_READINGS[0][0]
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


def write_phase_ranking(w, args, cnns, fig20):
    """§5.3's ranking of the baselines by phase: SCNN's FP and BP against CX's, and CX's KU
    against SCNN's."""
    shipped = SCNN_READINGS[0][0]
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


def write_scnn(w, args, cnns, fig20, runs, generator, targets):
    """EP's SCNN baseline (§5.2): Fig. 19's dense and sparse inference, Fig. 21's kernel update
    on GoogLeNet, and §5.4's hybrid of SCNN and CX."""
    w("## EP's SCNN baseline: Fig. 19, Fig. 21 and §5.4's hybrid")
    w("")
    over = write_scnn_fig19(w, args, cnns, fig20, targets)
    if "googlenet" in cnns:
        write_scnn_fig21(w, cnns, fig20, over, targets)
    write_hybrid(w, cnns, fig20, runs, generator, targets)
    write_phase_ranking(w, args, cnns, fig20)
