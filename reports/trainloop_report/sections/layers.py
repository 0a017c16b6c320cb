"""Layer by layer, for each proposal's best training step: where the time
and the energy go (fw + bw + wu of each layer) and how busy the MACs are
(utilization, weighted by each phase's cycles)."""

import numpy as np

from ..charts import new_figure
from ..markup import Cell, details, figure, table


def per_layer(ctx, point):
    """[(layer, seconds, energy pJ, utilization)] in network order."""
    layers = {}
    for r in ctx.db.layers(point):
        entry = layers.setdefault(r.layer_index, {"name": r.layer, "cycles": 0, "energy": 0.0,
                                                  "busy": 0.0})
        entry["cycles"] += r.cycles
        entry["energy"] += r.energy_pj
        entry["busy"] += r.utilization * r.cycles
    out = []
    for index in sorted(layers):
        e = layers[index]
        seconds = e["cycles"] / (point.arch.clock_ghz * 1e9)
        utilization = e["busy"] / e["cycles"] if e["cycles"] else 0.0
        out.append((e["name"], seconds, e["energy"], utilization))
    return out


def build(ctx):
    comparisons = ctx.sel.comparisons("step")
    if not comparisons:
        return []
    ctx.db.preload_layers([c.point for comps in comparisons.values() for c in comps])
    blocks, rows, keys = [], [], []
    for study, comps in comparisons.items():
        data = {c.proposal: per_layer(ctx, c.point) for c in comps}
        names = [name for name, *_ in next(iter(data.values()))]
        fig, axes = new_figure(6.4, nrows=3, sharex=True)
        x = np.arange(len(names))
        for proposal, layers in data.items():
            color = ctx.proposal_colors[proposal]
            axes[0][0].plot(x, [s * 1e3 for _, s, _, _ in layers], "o-", ms=3, color=color,
                            label=proposal.label)
            axes[1][0].plot(x, [e / 1e9 for _, _, e, _ in layers], "o-", ms=3, color=color)
            axes[2][0].plot(x, [u * 100 for *_, u in layers], "o-", ms=3, color=color)
            for name, s, e, u in layers:
                rows.append([ctx.sel.label(study), proposal.label, name,
                             Cell(f"{s * 1e3:.4g}", s), Cell(f"{e / 1e9:.4g}", e),
                             Cell(f"{u * 100:.1f}", u)])
                keys.append(f"{study.network}|{study.batch}|{proposal.arch}|"
                            f"{proposal.sparsity}|{name}")
        axes[0][0].set_ylabel("time (ms)")
        axes[1][0].set_ylabel("energy (mJ)")
        axes[2][0].set_ylabel("utilization (%)")
        axes[2][0].set_ylim(0, 105)
        axes[2][0].set_xticks(x, names, rotation=90, fontsize=6)
        axes[0][0].set_title(ctx.sel.label(study))
        axes[0][0].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        name = f"layers_{study.network}_{study.batch}"
        blocks.append(figure(ctx.figures.render(fig, name),
                             f"{ctx.sel.label(study)}: time, energy and MAC utilization of each "
                             "layer (fw + bw + wu) in each proposal's best training step.", name))
    blocks.append(details("Per-layer numbers", table(
        "layers", [("network", "network"), ("proposal", "proposal"), ("layer", "layer"),
                   ("seconds", "time (ms)"), ("energy_pj", "energy (mJ)"),
                   ("utilization", "utilization (%)")], rows, keys=keys)))
    return blocks
