"""Reads timeloop-model's statistics file (timeloop-model.stats.txt, Timeloop v3.0.3)
into the summary the golden corpus stores: cycles, computes, per level and data
space the utilized capacity and instances and the per-instance reads, fills and
updates, energies, and the network counts (multicast, spatial reductions, link
transfers). Standard library only."""

import re

_LEVEL_RE = re.compile(r"^Level (\d+)$")
_NAME_RE = re.compile(r"^=== (.+) ===$")
_NETWORK_RE = re.compile(r"^Network (\d+)$")
_KV_RE = re.compile(r"^\s*([^:]+?)\s*:\s*(.*)$")
_SPACES = ("Weights", "Inputs", "Outputs")

# Per data space in a storage level's STATS: the summary key and the stats line.
_STORAGE_FIELDS = {
    "Utilized capacity": "capacity",
    "Utilized instances (max)": "instances",
    # Sparseloop: the instances that hold a non-empty tile, on average (a parent
    # with metadata sends no empty tile); its per-instance actual counts are per
    # such instance (src/sparse-analysis/representation-analyzer.cpp).
    "Utilized instances (average)": "average_instances",
    "Scalar reads (per-instance)": "reads",
    "Scalar fills (per-instance)": "fills",
    "Scalar updates (per-instance)": "updates",
    "Temporal reductions (per-instance)": "temporal_reductions",
    "Energy (total)": "energy_pj",
    # Sparseloop's extra lines (absent in dense runs of some builds).
    "Scalar gated reads (per-instance)": "gated_reads",
    "Scalar skipped reads (per-instance)": "skipped_reads",
    "Scalar gated fills (per-instance)": "gated_fills",
    "Scalar skipped fills (per-instance)": "skipped_fills",
    "Scalar gated updates (per-instance)": "gated_updates",
    "Scalar skipped updates (per-instance)": "skipped_updates",
    "Actual scalar reads (per-instance)": "actual_reads",
    "Actual scalar fills (per-instance)": "actual_fills",
    "Actual scalar updates (per-instance)": "actual_updates",
    "Gated scalar reads (per-instance)": "gated_reads",
    "Skipped scalar reads (per-instance)": "skipped_reads",
    "Gated scalar fills (per-instance)": "gated_fills",
    "Skipped scalar fills (per-instance)": "skipped_fills",
    "Gated scalar updates (per-instance)": "gated_updates",
    "Skipped scalar updates (per-instance)": "skipped_updates",
    "Tile density distribution": None,
}
# Sparseloop's per-rank format counts: a header line, then one line per rank of the
# fiber tree, outermost first: "Rank 15 (metadata, payload): (392,  392)". A header
# with ": 0" has no rank lines. Stored as [[metadata, payload], ...], outermost first,
# down to the innermost rank with a count (the ranks below it are all (0, 0)).
_FORMAT_RANK_FIELDS = {
    "Max utilized Repr format storage capacity": "format_capacity",
    "Actual scalar format reads (per-instance)": "format_reads",
    "Gated scalar format reads (per-instance)": "gated_format_reads",
    "Skipped scalar format reads (per-instance)": "skipped_format_reads",
    "Actual scalar format fills (per-instance)": "format_fills",
    "Gated scalar format fills (per-instance)": "gated_format_fills",
    "Skipped scalar format fills (per-instance)": "skipped_format_fills",
    "Actual scalar format updates (per-instance)": "format_updates",
    "Gated scalar format updates (per-instance)": "gated_format_updates",
    "Skipped scalar format updates (per-instance)": "skipped_format_updates",
}
_RANK_RE = re.compile(r"^Rank (\d+) \(metadata, payload\)\s*:\s*\(\s*(\d+),\s*(\d+)\)$")
_NETWORK_FIELDS = {
    "Fanout": "fanout",
    "Multicast factor": "multicast",
    "Link transfers": "link_transfers",
    "Spatial reductions": "spatial_reductions",
    "Energy (total)": "energy_pj",
    "Ingresses": "ingresses",
}
_ARITHMETIC_FIELDS = {
    "Utilized instances": "instances",
    "Computes (total)": "computes",
    "Cycles": "cycles",
    "Energy (total)": "energy_pj",
    "Area (total)": "area_um2",
    "Actual computes": "actual_computes",
    "Gated computes": "gated_computes",
    "Skipped computes": "skipped_computes",
    "Random computes": "random_computes",
}


def _number(text):
    """The leading number of a stats value ("123.45 pJ" -> 123.45); ints stay ints."""
    m = re.match(r"^\s*(-?[0-9.]+(?:e[+-]?\d+)?)", text)
    if not m:
        return None
    s = m.group(1)
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    return float(s)


def parse_stats(text):
    """Returns a dict: cycles, computes, utilization, energy_uj, levels (outermost
    first: name, cycles, spaces{Weights,Inputs,Outputs: {...}}), arithmetic,
    networks (by name "A <==> B": per data space {...})."""
    lines = text.splitlines()
    out = {"levels": [], "networks": {}, "arithmetic": {}}
    section = None  # ("level", dict) | ("arith", dict) | ("network", dict) | ("summary", None)
    space = None
    network_name_next = False
    rank_field = None  # the _FORMAT_RANK_FIELDS entry whose rank lines follow
    for raw in lines:
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if _LEVEL_RE.match(stripped):
            section = ("pending", None)
            space = None
            continue
        m = _NAME_RE.match(stripped)
        if m and section is not None and section[0] == "pending":
            section = ("storage", {"name": m.group(1), "spaces": {}})
            out["levels"].append(section[1])
            continue
        if _NETWORK_RE.match(stripped):
            network_name_next = True
            space = None
            continue
        if network_name_next and "<==>" in stripped:
            network_name_next = False
            section = ("network", {})
            out["networks"][stripped] = section[1]
            continue
        if stripped.startswith("Operational Intensity Stats"):
            section = ("skip", None)
            continue
        if stripped == "Summary Stats":
            section = ("summary", None)
            continue
        if section is None or section[0] in ("skip", "pending") or stripped.startswith("---"):
            continue
        if section[0] == "storage" and space is not None:
            m = _RANK_RE.match(stripped)
            if m and rank_field is not None:
                record = section[1]["spaces"].setdefault(space, {})
                record.setdefault(rank_field, []).append([int(m.group(2)), int(m.group(3))])
                continue
            rank_field = _FORMAT_RANK_FIELDS.get(stripped)  # a header without a value
            if rank_field is not None:
                continue
            if stripped.startswith("Representation format") and ":" in stripped:
                text = stripped.split(":", 1)[1].strip()
                if text != "none":
                    section[1]["spaces"].setdefault(space, {})["representation_format"] = text
                continue
        else:
            rank_field = None
        if section[0] == "summary":
            m = re.match(r"^(Cycles|Utilization|Energy|Computes)\s*[:=]\s*(.*)$", stripped)
            if m:
                key = {"Cycles": "cycles", "Utilization": "utilization", "Energy": "energy_uj",
                       "Computes": "computes"}[m.group(1)]
                out[key] = _number(m.group(2))
            continue
        if stripped.rstrip(":") in _SPACES and stripped.endswith(":"):
            space = stripped[:-1]
            continue
        if stripped in ("SPECS", "STATS", "MAPPING"):
            space = None
            continue
        m = _KV_RE.match(line)
        if not m:
            continue
        key, value = m.group(1).strip(), m.group(2)
        kind, record = section
        if kind == "storage":
            if key == "Compute energy":  # only the arithmetic level's SPECS has it
                record["_arith"] = True
            if record.get("_arith"):
                field = _ARITHMETIC_FIELDS.get(key)
                if field:
                    record.setdefault("arith", {})[field] = _number(value)
                continue
            if space is None:
                if key == "Cycles":
                    record["cycles"] = _number(value)
                continue
            field = _STORAGE_FIELDS.get(key)
            if field:
                record["spaces"].setdefault(space, {})[field] = _number(value)
        elif kind == "network" and space is not None:
            field = _NETWORK_FIELDS.get(key)
            if field:
                record.setdefault(space, {})[field] = _number(value)
    for level in out["levels"]:
        for record in level["spaces"].values():
            for field in _FORMAT_RANK_FIELDS.values():
                ranks = record.get(field)
                while ranks and ranks[-1] == [0, 0]:
                    ranks.pop()
                if field in record and not ranks:
                    del record[field]
    # The arithmetic level is printed as "Level 0" with the MAC's name.
    levels = []
    for level in out["levels"]:
        if level.get("_arith"):
            out["arithmetic"] = dict(level.get("arith", {}), name=level["name"])
        else:
            levels.append(level)
    out["levels"] = list(reversed(levels))  # outermost first
    return out
