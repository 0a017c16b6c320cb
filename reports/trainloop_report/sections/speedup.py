"""Per network: each proposal's best training step (fw + bw + wu) against
the baseline's, in wall time (cycles at each architecture's clock) and
energy. The rows are `trainloop query compare-archs --phase step`'s."""

import numpy as np

from ..charts import hatches, new_figure, ratio_axis
from ..markup import Cell, figure, note, num, table


def grouped_bars(ax, groups, series, values, colors, baseline_line=None):
    """Bars of `values[(group, series)]` grouped by group, each series with
    its colour and a hatch."""
    width = 0.8 / max(len(series), 1)
    x = np.arange(len(groups))
    series_hatches = hatches(series)
    for i, s in enumerate(series):
        heights = [values.get((g, s)) or 0.0 for g in groups]
        bars = ax.bar(x + (i - (len(series) - 1) / 2) * width, heights, width,
                      color=colors[s], hatch=series_hatches[s], label=getattr(s, "label", s))
        for bar, h in zip(bars, heights):
            if h:
                ax.annotate(f"{h:.2f}", (bar.get_x() + bar.get_width() / 2, h),
                            ha="center", va="bottom", fontsize=7)
    ax.set_xticks(x, groups)
    if baseline_line is not None:
        ax.axhline(baseline_line, color="black", linewidth=0.8)


def build(ctx):
    comparisons = ctx.sel.comparisons("step")
    if not comparisons:
        return []
    blocks = []
    columns = [("network", "network"), ("proposal", "proposal"), ("point_id", "point"),
               ("dataflow", "dataflow"), ("cycles", "cycles"), ("seconds", "time (ms)"),
               ("energy_pj", "energy (mJ)"), ("area_um2", "area (mm²)"),
               ("speedup", "speed-up"), ("energy_ratio", "energy ratio")]
    rows, keys = [], []
    for study, comps in comparisons.items():
        for c in comps:
            t = c.point.totals["step"]
            rows.append([ctx.sel.label(study), c.proposal.label, Cell(str(c.point.id), c.point.id),
                         c.point.dataflow, Cell(f"{t.cycles:,}", t.cycles),
                         Cell(f"{c.seconds * 1e3:.4g}", c.seconds),
                         Cell(f"{t.energy_pj / 1e9:.4g}", t.energy_pj),
                         Cell(f"{c.point.arch.area_um2 / 1e6:.3g}", c.point.arch.area_um2),
                         num(c.speedup), num(c.energy_ratio)])
            keys.append(f"{study.network}|{study.batch}|{c.proposal.arch}|{c.proposal.sparsity}")
    others = [q for q in ctx.sel.proposals if q.arch != ctx.sel.baseline]
    groups = [ctx.sel.label(s) for s in comparisons]
    speed, energy = {}, {}
    for study, comps in comparisons.items():
        for c in comps:
            speed[(ctx.sel.label(study), c.proposal)] = c.speedup
            energy[(ctx.sel.label(study), c.proposal)] = c.energy_ratio
    if others:
        fig, axes = new_figure(3.4, ncols=2)
        grouped_bars(axes[0][0], groups, others, speed, ctx.proposal_colors, 1.0)
        axes[0][0].set_ylabel(f"speed-up over {ctx.sel.baseline} (×)")
        grouped_bars(axes[0][1], groups, others, energy, ctx.proposal_colors, 1.0)
        axes[0][1].set_ylabel(f"energy / {ctx.sel.baseline}'s")
        for ax in axes[0]:
            ratio_axis(ax)  # 0.07× and 41× in one chart
        axes[0][1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        blocks.append(figure(ctx.figures.render(fig, "speedup_step"),
                             "Training step: speed-up (baseline wall time / wall time; higher "
                             "is better) and energy ratio (energy / baseline energy; lower is "
                             "better) of each proposal's best point (lowest energy × delay), "
                             "on log axes.",
                             "speedup_step"))
    else:
        blocks.append(note("Only the baseline has finished points: nothing to compare."))
    blocks.append(table("speedup", columns, rows, keys=keys))
    missing = [ctx.sel.label(s) for s, comps in comparisons.items() if comps[0].baseline is None]
    if missing:
        blocks.append(note(f"The baseline {ctx.sel.baseline} has no finished training step for "
                           + ", ".join(missing) + ": no ratios there."))
    return blocks
