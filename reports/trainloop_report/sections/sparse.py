"""Sparse proposals (an architecture with formats, skipping, gating or load
balancing): of each best training step, the MACs a dense array would do, the
ones the datapath performs (skipped and gated removed) and the effectual
ones (all operands nonzero), per phase; the cycles lost to load imbalance;
the imbalance of each layer; and, for chosen layers, the per-wave overhead
histogram of Procrustes Figs. 5 and 13, computed by the model
(`trainloop eval --db ... --imbalance monte-carlo --imbalance-histogram`,
model.py)."""

import numpy as np

from ..charts import PHASE_COLORS, PHASE_HATCHES, new_figure
from ..data import PHASES
from ..errors import ReportError
from ..markup import Cell, figure, heading, note, num, table
from ..model import ModelError


def sparse_comparisons(ctx):
    out = []
    for study, comps in ctx.sel.comparisons("step").items():
        for c in comps:
            dense = c.point.arch.dense
            # Without a stored summary, a sparse profile is the best sign of a sparse design.
            if dense is False or (dense is None and c.point.sparsity != "dense"):
                out.append(c)
    return out


def is_cartesian(point):
    """A point costed by the Cartesian-product evaluator (`train-cost
    --evaluator cartesian`, a sweep's `evaluator: cartesian`): its mapping is
    the array's description, not a loop nest."""
    return point.dataflow == "cartesian"


def histogram_targets(ctx, per_point=2):
    """The layer-phases whose per-wave histogram a report shows, in each
    sparse proposal's best training step: the ones --histogram-layer names
    (LAYER, or LAYER:PHASE), else the `per_point` with the most imbalance
    cycles (ties: network order). [(point, layer, phase)]"""
    targets = []
    chosen = ctx.histogram_layers
    for c in sparse_comparisons(ctx):
        if is_cartesian(c.point):
            continue  # no loop nest, so no waves (cartesian_histogram_note)
        rows = [r for r in ctx.db.layers(c.point) if r.imbalance_cycles > 0]
        if chosen:
            rows = [r for r in rows if r.layer in chosen or f"{r.layer}:{r.phase}" in chosen]
            rows.sort(key=lambda r: (r.layer_index, PHASES.index(r.phase)))
        else:
            rows.sort(key=lambda r: (-r.imbalance_cycles, r.layer_index, PHASES.index(r.phase)))
            rows = rows[:per_point]
        targets.extend((c.point, r.layer, r.phase) for r in rows)
    return targets


def check_histogram_layers(ctx):
    """Every --histogram-layer names a layer (or layer:phase) of some sparse
    proposal's best step (ReportError, exit 2, otherwise)."""
    known = set()
    for c in sparse_comparisons(ctx):
        for r in ctx.db.layers(c.point):
            known.update((r.layer, f"{r.layer}:{r.phase}"))
    for name in ctx.histogram_layers:
        if name not in known:
            layers = sorted({k for k in known if ":" not in k})
            raise ReportError(ctx.db.path, f"--histogram-layer `{name}`: no such layer (or "
                              "layer:phase) in the sparse proposals' best training steps",
                              "LAYER or LAYER:PHASE (fw, bw, wu)",
                              "layers: " + ", ".join(layers) if layers
                              else "no sparse proposal has finished points")


def _macs_figure(ctx, comps):
    fig, axes = new_figure(3.2, ncols=len(comps))
    for i, c in enumerate(comps):
        ax = axes[0][i]
        x = np.arange(len(PHASES))
        width = 0.27
        series = (("dense MACs", lambda t: t.macs, "#8c8c8c", ""),
                  ("performed", lambda t: t.performed_macs or 0.0, "#4c72b0", "////"),
                  ("effectual", lambda t: t.effectual_macs, "#55a868", "...."))
        for k, (label, get, color, hatch) in enumerate(series):
            ax.bar(x + (k - 1) * width,
                   [get(c.point.totals[ph]) / 1e9 if ph in c.point.totals else 0 for ph in PHASES],
                   width, color=color, hatch=hatch, label=label)
        ax.set_xticks(x, PHASES)
        ax.set_title(f"{ctx.sel.label(c.study)}\n{c.proposal.label}", fontsize=8)
        if i == 0:
            ax.set_ylabel("GMACs")
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def histogram_entries(ctx):
    """The model's per-wave histograms of histogram_targets (an `error`
    instead where the model could not be run on a target)."""
    entries = []
    seed = 1
    for point, layer, phase in histogram_targets(ctx):
        entry = {"point_id": point.id, "arch": point.arch.name, "sparsity": point.sparsity,
                 "network": ctx.sel.label(next(s for s in ctx.sel.studies
                                               if s.network == point.network
                                               and s.batch == point.batch)),
                 "layer": layer, "phase": phase, "seed": seed}
        try:
            imbalance = ctx.model.imbalance_histogram(point.id, layer, phase, seed)
            entry.update(histogram=imbalance["histogram"],
                         imbalance_pct=imbalance["imbalance_pct"], waves=imbalance["waves"])
        except ModelError as e:
            entry["error"] = str(e)
        entries.append(entry)
    return entries


def _histogram_blocks(ctx):
    if ctx.model is None:
        return [note("Per-wave histograms are computed by the model: run the report through "
                     "`trainloop report`, which gives it the trainloop binary.")]
    entries = histogram_entries(ctx)
    blocks, rows, keys = [], [], []
    if any(is_cartesian(c.point) for c in sparse_comparisons(ctx)):
        blocks.append(note("Proposals costed by the Cartesian-product evaluator have no "
                           "per-wave histogram: their PEs run no waves of a loop nest, and "
                           "their imbalance is the slowest PE's cycles over the mean PE's "
                           "(docs/cartesian_product.md)."))
    good = [e for e in entries if "error" not in e]
    for e in entries:
        if "error" in e:
            blocks.append(note(f"No histogram for point {e['point_id']} {e['layer']} "
                               f"{e['phase']}: {e['error']}"))
    if good:
        fig, axes = new_figure(2.8 * ((len(good) + 3) // 4), ncols=min(len(good), 4),
                               nrows=(len(good) + 3) // 4)
        flat = [ax for row in axes for ax in row]
        for ax in flat[len(good):]:
            ax.set_visible(False)
        for ax, e in zip(flat, good):
            bins = e["histogram"]
            labels = [f"{b['lower_pct']:.0f}" for b in bins]
            ax.bar(np.arange(len(bins)), [100 * b["fraction_of_waves"] for b in bins],
                   color="#c44e52")
            ax.set_xticks(np.arange(len(bins)), labels, fontsize=6, rotation=90)
            ax.set_xlabel("overhead of the slowest PE over the mean (%)", fontsize=7)
            ax.set_ylabel("waves (%)", fontsize=7)
            ax.set_title(f"{e['arch']} · {e['network']}\n{e['layer']} {e['phase']} "
                         f"({e['imbalance_pct']:.1f}% imbalance)", fontsize=7)
            for b in bins:
                rows.append([e["arch"], e["sparsity"], e["network"], e["layer"], e["phase"],
                             Cell(str(e["point_id"]), e["point_id"]),
                             f"{b['lower_pct']:g}–{b['upper_pct']:g}"
                             if b["upper_pct"] is not None else f"≥ {b['lower_pct']:g}",
                             Cell(f"{100 * b['fraction_of_waves']:.2f}", b["fraction_of_waves"])])
                keys.append(f"{e['point_id']}|{e['layer']}|{e['phase']}|{b['lower_pct']:g}")
        blocks.append(figure(ctx.figures.render(fig, "sparse_wave_histograms"),
                             "Per-wave load imbalance (Procrustes Figs. 5 and 13): the share of "
                             "waves whose slowest PE exceeds the mean PE by each overhead band, "
                             "Monte-Carlo over the stored mapping with the point's densities "
                             f"(seed {good[0].get('seed', 1)}), balancing scheme included. A "
                             "perfectly balanced array has every wave at 0 %.",
                             "sparse_wave_histograms"))
        blocks.append(table("histograms", [("arch", "architecture"), ("sparsity", "sparsity"),
                                           ("network", "network"), ("layer", "layer"),
                                           ("phase", "phase"), ("point_id", "point"),
                                           ("band", "overhead band (%)"),
                                           ("fraction", "waves (%)")], rows, keys=keys))
    return blocks


def build(ctx):
    check_histogram_layers(ctx)
    comps = sparse_comparisons(ctx)
    if not comps:
        return []
    blocks = [figure(ctx.figures.render(_macs_figure(ctx, comps), "sparse_macs"),
                     "MACs of each sparse proposal's best training step per phase: what a "
                     "dense array does, what the datapath performs (skipped and gated MACs "
                     "removed), and the effectual ones (every operand nonzero).", "sparse_macs")]
    rows, keys = [], []
    for c in comps:
        for ph in PHASES + ("step",):
            if ph not in c.point.totals:
                continue
            t = c.point.totals[ph]
            rows.append([ctx.sel.label(c.study), c.proposal.label, ph,
                         Cell(f"{t.macs:,}", t.macs), num(t.performed_macs, 4),
                         num(t.effectual_macs, 4), num(t.imbalance_cycles, 4),
                         num(100 * t.imbalance_cycles / t.cycles if t.cycles else None)])
            keys.append(f"{c.study.network}|{c.study.batch}|{c.proposal.arch}|"
                        f"{c.proposal.sparsity}|{ph}")
    blocks.append(table("sparse", [("network", "network"), ("proposal", "proposal"),
                                   ("phase", "phase"), ("macs", "dense MACs"),
                                   ("performed_macs", "performed MACs"),
                                   ("effectual_macs", "effectual MACs"),
                                   ("imbalance_cycles", "imbalance cycles"),
                                   ("imbalance_share", "imbalance (% of cycles)")],
                        rows, keys=keys))
    # Each layer's imbalance (% of its balanced compute cycles), per phase.
    fig, axes = new_figure(2.6 * len(comps), nrows=len(comps))
    for i, c in enumerate(comps):
        ax = axes[i][0]
        layers = ctx.db.layers(c.point)
        names = []
        for r in layers:
            if r.layer not in names:
                names.append(r.layer)
        x = np.arange(len(names))
        for k, ph in enumerate(PHASES):
            values = {r.layer: r.imbalance_pct for r in layers if r.phase == ph}
            ax.bar(x + (k - 1) * 0.27, [values.get(n, 0.0) for n in names], 0.27, label=ph,
                   color=PHASE_COLORS[ph], hatch=PHASE_HATCHES[ph])
        ax.set_xticks(x, names, rotation=90, fontsize=6)
        ax.set_ylabel("imbalance (%)")
        ax.set_title(f"{ctx.sel.label(c.study)} · {c.proposal.label}", fontsize=8)
        ax.legend(loc="upper right")
    blocks.append(figure(ctx.figures.render(fig, "sparse_layer_imbalance"),
                         "Load imbalance of each layer and phase: cycles lost waiting for the "
                         "slowest PE, as a share of a perfectly balanced array's compute cycles "
                         "(expected values, closed form).", "sparse_layer_imbalance"))
    blocks.append(heading("Per-wave imbalance of chosen layers"))
    blocks.extend(_histogram_blocks(ctx))
    return blocks
