"""The document's section on Table 6.1: SCNN's unused Cartesian products."""

from .thesis import CLAIM_UNUSED, LABEL, SCNN_BANKS, SCNN_PES, SCNN_VECTORS, TABLE_6_1, TOLERANCE


def write_table_6_1(w, res, targets):
    """Table 6.1: the unused Cartesian products of SCNN's weight-gradient convolution."""
    cartesian = res.cartesian
    w("## Table 6.1: unused Cartesian products of SCNN's weight-gradient convolution")
    w("")
    w("Paper: \"the percentage of the cartesian product (4 × 4) that its products are not "
      "useful (all the 16 products are not used) over the total number of cartesian products\" "
      "for the weight-gradient convolution on SCNN, I = F = 4, 64 PEs (§6.3.1). trainloop: "
      "`trainloop cartesian --phase wu` (`engine/cartesian/cartesian_product.hpp`, "
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
