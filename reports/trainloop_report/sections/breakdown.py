"""Energy by training phase and component class (MAC, RF, buffer, DRAM,
network, sparse overheads) of each proposal's best training step, like
Procrustes Fig. 17. The classes come from `results.energy_by_class`
(engine/eval/energy_classes.hpp), summed over the layers of each phase; they
add up to the phase totals."""

import numpy as np

from ..charts import CLASS_COLORS, CLASS_HATCHES, new_figure
from ..charts import plt as _plt
from ..data import PHASES
from ..markup import Cell, figure, note, table

CLASSES = tuple(CLASS_COLORS)


def phase_classes(ctx, point):
    """{phase: {class: pJ}} over the point's layers; None when a row has no
    classes (written before schema 2)."""
    out = {ph: dict.fromkeys(CLASSES, 0.0) for ph in PHASES}
    for r in ctx.db.layers(point):
        if r.energy_by_class is None:
            return None
        for cls, pj in r.energy_by_class.items():
            out[r.phase][cls] = out[r.phase].get(cls, 0.0) + pj
    return out


def build(ctx):
    comparisons = ctx.sel.comparisons("step")
    if not comparisons:
        return []
    ctx.db.preload_layers([c.point for comps in comparisons.values() for c in comps])
    columns = ([("network", "network"), ("proposal", "proposal"), ("phase", "phase")] +
               [(f"class_{c}", f"{c} (mJ)") for c in CLASSES] + [("total", "total (mJ)")])
    rows, keys, missing = [], [], []
    studies = list(comparisons)
    fig, axes = new_figure(3.6, ncols=len(studies))
    for si, (study, comps) in enumerate(comparisons.items()):
        ax = axes[0][si]
        labels, bottoms = [], []
        stacks = {cls: [] for cls in CLASSES}
        for c in comps:
            classes = phase_classes(ctx, c.point)
            if classes is None:
                missing.append(c.point.id)
                continue
            for ph in PHASES:
                if ph not in c.point.totals:
                    continue
                total = sum(classes[ph].values())
                rows.append([ctx.sel.label(study), c.proposal.label, ph] +
                            [Cell(f"{classes[ph][cls] / 1e9:.4g}", classes[ph][cls])
                             for cls in CLASSES] + [Cell(f"{total / 1e9:.4g}", total)])
                keys.append(f"{study.network}|{study.batch}|{c.proposal.arch}|"
                            f"{c.proposal.sparsity}|{ph}")
                labels.append(f"{c.proposal.arch} {ph}")
                for cls in CLASSES:
                    stacks[cls].append(classes[ph][cls] / 1e9)
        x = np.arange(len(labels))
        bottoms = np.zeros(len(labels))
        for cls in CLASSES:
            if any(stacks[cls]):
                ax.bar(x, stacks[cls], bottom=bottoms, color=CLASS_COLORS[cls],
                       hatch=CLASS_HATCHES[cls], label=cls)
                bottoms += np.array(stacks[cls])
        ax.set_xticks(x, labels, rotation=90, fontsize=7)
        ax.set_title(ctx.sel.label(study))
        if si == 0:
            ax.set_ylabel("energy (mJ)")
    if not rows:
        _plt.close(fig)
        return [note("Every point was written before schema 2: no energy by class stored; "
                     "rerun the points to fill it in.")]
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    blocks = [figure(ctx.figures.render(fig, "breakdown_phase_class"),
                     "Energy of each proposal's best training step by phase (fw, bw, wu) and "
                     "component class; leakage stays with its component, format metadata and "
                     "balancing traffic are the sparse overheads.", "breakdown_phase_class"),
              table("breakdown", columns, rows, keys=keys)]
    if missing:
        blocks.append(note(f"Points {sorted(set(missing))} were written before schema 2 and "
                           "have no energy by class."))
    return blocks
