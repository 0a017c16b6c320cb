"""Per proposal: energy and latency of each dataflow's best training step,
split by phase (Procrustes Figs. 18 and 19; the rows are
`trainloop query compare-dataflows --phase step`'s), and, when the database
holds one design at several array sizes (a family: selection.family_key),
the speed-up of each dataflow as the array grows (Fig. 20)."""

import numpy as np

from ..charts import PHASE_COLORS, PHASE_HATCHES, new_figure, palette
from ..data import PHASES
from ..markup import Cell, figure, heading, num, table
from ..selection import best_by, family_key


def _dataflow_figure(ctx, proposal, per_study):
    studies = list(per_study)
    fig, axes = new_figure(5.0, ncols=len(studies), nrows=2)
    for si, study in enumerate(studies):
        best = per_study[study]
        dataflows = list(best)
        x = np.arange(len(dataflows))
        for row, (metric, unit) in enumerate((("energy", "energy (mJ)"),
                                              ("time", "latency (ms)"))):
            ax = axes[row][si]
            bottom = np.zeros(len(dataflows))
            for ph in PHASES:
                heights = []
                for df in dataflows:
                    p = best[df]
                    if ph not in p.totals:
                        heights.append(0.0)
                    elif metric == "energy":
                        heights.append(p.totals[ph].energy_pj / 1e9)
                    else:
                        heights.append(p.seconds(ph) * 1e3)
                ax.bar(x, heights, bottom=bottom, color=PHASE_COLORS[ph],
                       hatch=PHASE_HATCHES[ph], label=ph)
                bottom += np.array(heights)
            ax.set_xticks(x, dataflows)
            if si == 0:
                ax.set_ylabel(unit)
            if row == 0:
                ax.set_title(ctx.sel.label(study))
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def _scaling(ctx):
    """{(family members' names, sparsity, study): {dataflow: {PEs: point}}}
    for families with at least two array sizes."""
    families = {}
    for p in ctx.sel.points:
        key = family_key(p.arch)
        if key is not None:
            families.setdefault(key, set()).add(p.arch)
    out = {}
    for members in families.values():
        if len({a.pe_rows * a.pe_columns for a in members}) < 2:
            continue
        names = tuple(sorted(a.name for a in members))
        for study in ctx.sel.studies:
            points = [p for p in ctx.sel.study_points(study) if p.arch in members]
            best = best_by(points, lambda p: (p.sparsity, p.dataflow, p.arch.pe_rows *
                                              p.arch.pe_columns, p.arch.name))
            for (sparsity, dataflow, pes, _), p in best.items():
                slot = out.setdefault((names, sparsity, study), {}).setdefault(dataflow, {})
                slot.setdefault(pes, p)
    return out


def build(ctx):
    blocks = []
    columns = [("proposal", "proposal"), ("network", "network"), ("dataflow", "dataflow"),
               ("point_id", "point"), ("cycles", "cycles"), ("seconds", "time (ms)"),
               ("energy_pj", "energy (mJ)"), ("edp", "energy × cycles (pJ·cycles)"),
               ("edp_vs_best", "vs best dataflow")]
    rows, keys = [], []
    for proposal in ctx.sel.proposals:
        per_study = {}
        for study in ctx.sel.studies:
            best = ctx.sel.best_per_dataflow(study, proposal)
            if not best:
                continue
            per_study[study] = best
            ranked = sorted(best.items(), key=lambda kv: (kv[1].cycle_edp(), kv[0]))
            best_edp = ranked[0][1].cycle_edp()
            for df, p in ranked:
                t = p.totals["step"]
                rows.append([proposal.label, ctx.sel.label(study), df, Cell(str(p.id), p.id),
                             Cell(f"{t.cycles:,}", t.cycles),
                             Cell(f"{p.seconds() * 1e3:.4g}", p.seconds()),
                             Cell(f"{t.energy_pj / 1e9:.4g}", t.energy_pj),
                             num(p.cycle_edp()),
                             num(p.cycle_edp() / best_edp if best_edp > 0 else 1.0)])
                keys.append(f"{proposal.arch}|{proposal.sparsity}|{study.network}|"
                            f"{study.batch}|{df}")
        if not per_study:
            continue
        name = f"dataflows_{proposal.arch}_{proposal.sparsity}"
        blocks.append(heading(proposal.label))
        blocks.append(figure(ctx.figures.render(_dataflow_figure(ctx, proposal, per_study), name),
                             f"{proposal.label}: energy (top) and latency (bottom) of each "
                             "dataflow's best training step, by phase.", name))
    if not rows:
        return []
    blocks.append(table("dataflows", columns, rows, keys=keys))
    scaling = _scaling(ctx)
    if scaling:
        blocks.append(heading("Scaling across array sizes"))
        srows, skeys = [], []
        by_family = {}
        for (names, sparsity, study), per_df in scaling.items():
            by_family.setdefault((names, sparsity), {})[study] = per_df
        for (names, sparsity), per_study in by_family.items():
            studies = list(per_study)
            fig, axes = new_figure(3.2, ncols=len(studies))
            colors = palette(sorted({df for s in per_study.values() for df in s}))
            for si, study in enumerate(studies):
                ax = axes[0][si]
                all_sizes = sorted({n for by_pes in per_study[study].values() for n in by_pes})
                for df, by_pes in sorted(per_study[study].items()):
                    sizes = sorted(by_pes)
                    base = by_pes[sizes[0]].seconds()
                    speedups = [base / by_pes[n].seconds() for n in sizes]
                    ax.plot(sizes, speedups, "o-", color=colors[df], label=df)
                    for n in sizes:
                        p = by_pes[n]
                        srows.append([", ".join(names), sparsity, ctx.sel.label(study), df,
                                      Cell(f"{n:,}", n), p.arch.name, Cell(str(p.id), p.id),
                                      Cell(f"{p.seconds() * 1e3:.4g}", p.seconds()),
                                      Cell(f"{p.totals['step'].energy_pj / 1e9:.4g}",
                                           p.totals["step"].energy_pj),
                                      num(base / p.seconds())])
                        skeys.append(f"{p.arch.name}|{sparsity}|{study.network}|{study.batch}|{df}")
                ax.set_xscale("log", base=2)
                ax.set_xticks(all_sizes, [f"{n}" for n in all_sizes])
                ax.set_xlabel("PEs")
                ax.set_title(ctx.sel.label(study))
                if si == 0:
                    ax.set_ylabel("speed-up over the smallest array (×)")
            axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
            name = "scaling_" + "_".join(names) + "_" + sparsity
            blocks.append(figure(ctx.figures.render(fig, name),
                                 f"{' / '.join(names)} ({sparsity}): speed-up of each dataflow's "
                                 "best training step as the array grows (wall time).", name))
        blocks.append(table("scaling", [("family", "family"), ("sparsity", "sparsity"),
                                        ("network", "network"), ("dataflow", "dataflow"),
                                        ("pes", "PEs"), ("arch", "architecture"),
                                        ("point_id", "point"), ("seconds", "time (ms)"),
                                        ("energy_pj", "energy (mJ)"),
                                        ("speedup", "speed-up vs smallest")], srows, keys=skeys))
    return blocks
