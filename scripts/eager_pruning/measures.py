"""Pure arithmetic on stored runs: the figures the sections print and the tests check."""

from .paper import LSTM_WEIGHTS_PER_CYCLE, PES, SCNN_INPUT_ZEROS_FACTOR


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


def filter_buffer_bound(run, dense):
    """A whole run's cycles on the LSTM under §5.2's filter-buffer bound: one sample at a time
    (§4.4), every MAC takes its own weight (or, in KU, makes its own weight gradient), and
    the filter buffer delivers LSTM_WEIGHTS_PER_CYCLE of them per cycle, so a run takes at
    least its performed MACs over that. `dense`: the run's dense training (every MAC), else
    the pruned run (its effectual MACs: pruned weights are neither loaded nor updated)."""
    cycles = run["dense_total_cycles"] if dense else run["total_cycles"]
    macs = run["total_macs"] if dense else run["effectual_macs"]
    return max(cycles, macs / LSTM_WEIGHTS_PER_CYCLE)


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
