"""The document's sections on Table 5's reduced computation (RC): the targets, the paper's
other readings of its schedule, the assumptions where it is silent, and the LSTM's shape."""

from reproduction_support import within_target

from .measures import last_pruning, pct, pruned_weights
from .paper import CLAIM_RC, LABEL, RC_TOLERANCE
from .readings import LSTM_VARIANTS, RC_BOUNDS, RC_READINGS, VARIANTS


def write_rc_targets(w, networks, failed, runs, generator, targets):
    """Table 5's RC per network as shipped, why a target is missed, and the paper's other readings
    of its schedule and its RC."""
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


def write_rc_assumptions(w, networks, runs, generator):
    """How far each assumption where the paper is silent moves the RC, and the LSTM's shape."""
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
