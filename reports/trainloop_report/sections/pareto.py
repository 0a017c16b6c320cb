"""Energy against latency of every finished training step, per network,
coloured by proposal with the marker's area proportional to the chip's; the
members of the (energy, wall time, area) front (`points.pareto_step`, the
rows of `trainloop query pareto --network N`) are drawn solid, the points
they dominate faded."""

from ..charts import new_figure

# A marker shape per proposal beside its colour: fronts stay apart in greyscale.
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
from ..markup import Cell, figure, table


def build(ctx):
    blocks = []
    studies = [s for s in ctx.sel.studies
               if any("step" in p.totals for p in ctx.sel.study_points(s))]
    if not studies:
        return []
    fig, axes = new_figure(3.6, ncols=len(studies))
    rows, keys = [], []
    markers = {q: MARKERS[i % len(MARKERS)] for i, q in enumerate(ctx.sel.proposals)}
    for si, study in enumerate(studies):
        ax = axes[0][si]
        points = [p for p in ctx.sel.study_points(study) if "step" in p.totals]
        for proposal in ctx.sel.proposals:
            mine = [p for p in points if p.proposal == proposal]
            if not mine:
                continue
            for front in (False, True):
                group = [p for p in mine if p.pareto_step == front]
                if not group:
                    continue
                ax.scatter([p.seconds() * 1e3 for p in group],
                           [p.totals["step"].energy_pj / 1e9 for p in group],
                           s=24, marker=markers[proposal], color=ctx.proposal_colors[proposal],
                           alpha=1.0 if front else 0.2,
                           edgecolors="black" if front else "none", linewidths=0.6,
                           label=proposal.label if front or not any(
                               p.pareto_step for p in mine) else None)
        members = sorted((p for p in points if p.pareto_step),
                         key=lambda p: (p.totals["step"].energy_pj, p.totals["step"].cycles,
                                        p.arch.area_um2, p.id))
        for p in members:
            t = p.totals["step"]
            rows.append([ctx.sel.label(study), p.proposal.label, p.dataflow, p.objective,
                         Cell(str(p.id), p.id), Cell(f"{t.cycles:,}", t.cycles),
                         Cell(f"{p.seconds() * 1e3:.4g}", p.seconds()),
                         Cell(f"{t.energy_pj / 1e9:.4g}", t.energy_pj),
                         Cell(f"{p.arch.area_um2 / 1e6:.3g}", p.arch.area_um2)])
            keys.append(str(p.id))
        # Log axes: designs an order of magnitude apart stay legible.
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("latency of a training step (ms)")
        if si == 0:
            ax.set_ylabel("energy (mJ)")
        ax.set_title(ctx.sel.label(study))
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    blocks.append(figure(ctx.figures.render(fig, "pareto_step"),
                         "Every finished training step: the (energy, wall time, area) front "
                         "solid with an outline, dominated points faded; a marker shape per "
                         "proposal, the area in the table below; log axes. Lower left is "
                         "better.", "pareto_step"))
    blocks.append(table("pareto", [("network", "network"), ("proposal", "proposal"),
                                   ("dataflow", "dataflow"), ("objective", "objective"),
                                   ("point_id", "point"), ("cycles", "cycles"),
                                   ("seconds", "time (ms)"), ("energy_pj", "energy (mJ)"),
                                   ("area_um2", "area (mm²)")], rows, keys=keys,
                        caption="The front's members (trainloop query pareto --network N)."))
    return blocks
