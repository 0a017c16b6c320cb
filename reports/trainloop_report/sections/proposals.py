"""The proposals side by side: each architecture's parameters as the parser
read them (architectures.summary), one column per architecture, and their
area by component class."""

from ..charts import CLASS_COLORS, CLASS_HATCHES, new_figure
from ..markup import Cell, figure, fmt, note, num, table

_STORAGE_CLASS = {"regfile": "RF", "sram": "buffer", "dram": "DRAM"}


def _bytes(n):
    if n is None:
        return "unbounded"
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def _bandwidths(level):
    """The level's bandwidth limits in words per cycle per instance, or "" when it has none
    (summaries before 2026-11-27 have no shared_bandwidth)."""
    limits = [f"{what} ≤ {fmt(level[key])}" for key, what in (
        ("read_bandwidth", "reads"), ("write_bandwidth", "writes"),
        ("shared_bandwidth", "reads + writes")) if level.get(key) is not None]
    return f", {', '.join(limits)} words/cycle" if limits else ""


def _levels(s):
    return "; ".join(
        f"{l['name']} ({l['class']}): {_bytes(l['capacity_bytes'])}"
        + (f" × {l['instances']}" if l["instances"] > 1 else "")
        + f", {l['word_bits']}-bit words, holds {', '.join(l['data_spaces'])}"
        + _bandwidths(l)
        for l in s["levels"])


def _networks(s):
    return "; ".join(f"{n['name']} ({n['kind']} along {n['axis']}, {n['parent']}→{n['child']})"
                     for n in s["networks"]) or "none"


def _phase_units(s):
    """How the phases share the PEs (summaries before 2026-11-25: shared)."""
    if s["pe_array"].get("phase_units", "shared") == "separate":
        return "on separate units: the slowest phase"
    return "in turn on one datapath: their sum"


def _format_name(f):
    """A format, a fibertree with its ranks (summaries before 2026-11-25 have no ranks)."""
    ranks = f.get("ranks") or []
    return f"{f['format']} [{', '.join(ranks)}]" if ranks else f["format"]


def _formats(s):
    return "; ".join(f"{f['data_space']} in {_format_name(f)} at {f['level']}"
                     for f in s["sparse"]["formats"]) or "none (uncompressed)"


def _actions(entries):
    return "; ".join(
        f"{e['target']} at {e['level']} when {' or '.join(e['condition_on'])} = 0"
        f" ({', '.join(e['phases'])})" for e in entries) or "none"


def _balancing(s):
    lb = s["sparse"]["load_balancing"]
    return "none" if lb["scheme"] == "none" else f"{lb['scheme']} along {lb['axis']}"


def _area_by_class(s):
    by_class = {}
    names = {l["name"]: _STORAGE_CLASS[l["class"]] for l in s["levels"]}
    networks = {n["name"] for n in s["networks"]}
    for component, um2 in s["area_breakdown"].items():
        cls = names.get(component, "network" if component in networks else "MAC")
        by_class[cls] = by_class.get(cls, 0.0) + um2
    return by_class


def build(ctx):
    archs = {}
    for p in ctx.sel.points:
        archs.setdefault(p.arch.name, p.arch)
    archs = [archs[n] for n in sorted(archs, key=lambda n: (n != ctx.sel.baseline, n))]
    profiles = {a.name: sorted({p.sparsity for p in ctx.sel.points if p.arch.name == a.name})
                for a in archs}
    rows = [
        ("role", "role", lambda a, s: "baseline" if a.name == ctx.sel.baseline else "proposal"),
        ("profiles", "trained with (sparsity profiles)", lambda a, s: ", ".join(profiles[a.name])),
        ("pe_array", "PE array (rows × columns)", lambda a, s: Cell(a.array, a.pe_rows * a.pe_columns)),
        ("macs_per_pe", "MACs per PE", lambda a, s: num(s["pe_array"]["macs_per_pe"]) if s else None),
        ("datatype", "datatype (word bits)",
         lambda a, s: f"{s['pe_array']['datatype']} ({s['pe_array']['word_bits']} bit)" if s else None),
        ("phase_units", "training phases (a step takes their sum, or the slowest)",
         lambda a, s: _phase_units(s) if s else None),
        ("clock_ghz", "clock (GHz)", lambda a, s: num(a.clock_ghz)),
        ("levels", "storage levels, capacities (per instance) × instances, bandwidths",
         lambda a, s: _levels(s) if s else None),
        ("networks", "on-chip networks", lambda a, s: _networks(s) if s else None),
        ("formats", "compressed formats", lambda a, s: _formats(s) if s else None),
        ("skipping", "skipping", lambda a, s: _actions(s["sparse"]["skipping"]) if s else None),
        ("gating", "gating", lambda a, s: _actions(s["sparse"]["gating"]) if s else None),
        ("balancing", "load balancing", lambda a, s: _balancing(s) if s else None),
        ("area_mm2", "area (mm², every instance)", lambda a, s: num(a.area_um2 / 1e6)),
        ("description", "description", lambda a, s: s["description"] if s else None),
    ]
    columns = [("parameter", "parameter")] + [(a.name, a.name) for a in archs]
    body = []
    for key, label, get in rows:
        cells = [label]
        for a in archs:
            value = get(a, a.summary)
            cells.append("not stored (written before schema 2)" if value is None else value)
        body.append(cells)
    blocks = [table("proposals", columns, body, keys=[r[0] for r in rows])]
    missing = [a.name for a in archs if a.summary is None]
    if missing:
        blocks.append(note("Parameters not stored for " + ", ".join(missing) +
                           ": their points were written before schema 2; rerun them to fill in."))
    with_summary = [a for a in archs if a.summary]
    if with_summary:
        fig, axes = new_figure(0.5 + 0.4 * len(with_summary))
        ax = axes[0][0]
        names = [a.name for a in with_summary]
        left = [0.0] * len(with_summary)
        for cls, color in CLASS_COLORS.items():
            widths = [_area_by_class(a.summary).get(cls, 0.0) / 1e6 for a in with_summary]
            if not any(widths):
                continue
            ax.barh(names, widths, left=left, color=color, hatch=CLASS_HATCHES[cls], label=cls)
            left = [l + w for l, w in zip(left, widths)]
        ax.invert_yaxis()
        ax.set_xlabel("area (mm²)")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
        blocks.append(figure(ctx.figures.render(fig, "proposals_area"),
                             "Area by component class (every instance, used or not; sparse "
                             "features add no area in the model yet).", "proposals_area"))
    return blocks


